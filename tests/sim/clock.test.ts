// The simulator on one clock: a virtual board's timers on a clock it shares with the hub and the people (driven
// time), and a hand's pull timed on it.
import { describe, expect, it } from "vitest";
import { createVirtualGun, VirtualClock } from "../../hub/src/sim/espruino/index.js";
import { Hand } from "../../hub/src/sim/hand.js";
import { DEFAULT_HUMAN } from "../../hub/src/sim/human.js";
import { seededRandom } from "../../hub/src/sim/prng.js";
import { ManualClock } from "../../hub/src/table/clock.js";

describe("a board on a shared clock", () => {
  it("runs its timeouts and intervals as the owner moves time, from its own ms 0; clear and stop take them off", async () => {
    const outer = new ManualClock(5_000);
    outer.advance(250);
    const c = new VirtualClock(outer);
    expect(c.mode).toBe("shared");
    expect(c.now()).toBe(0);
    const fired: string[] = [];
    c.set(() => fired.push(`once@${c.now()}`), 100, false);
    const every = c.set(() => fired.push(`every@${c.now()}`), 40, true);
    outer.advance(130);
    expect(fired).toEqual(["every@40", "every@80", "once@100", "every@120"]);
    c.clear(every);
    outer.advance(200);
    expect(fired).toHaveLength(4);
    c.set(() => fired.push("late"), 10, true);
    expect(outer.pendingTimers).toBe(1);
    c.stop();
    expect(outer.pendingTimers).toBe(0);
    await expect(c.advance(10)).rejects.toThrow(/shared clock/);
  });

  it("a vm gun's firmware keeps the shared clock's time: nothing runs until it moves", () => {
    const outer = new ManualClock();
    const gun = createVirtualGun({ board: "esp32-mpu6050", config: null, clock: outer });
    try {
      expect(gun.now()).toBe(0);
      // with no gun.json the firmware blinks its error on timers: they wait for the clock
      expect(outer.pendingTimers).toBeGreaterThan(0);
      outer.advance(3_000);
      expect(gun.now()).toBe(3_000);
      expect(gun.led.length).toBeGreaterThan(1);
      expect(gun.led.every((e) => e.t <= 3_000)).toBe(true);
    } finally {
      gun.stop();
    }
    expect(outer.pendingTimers).toBe(0);
  });

  it("a hand pulls on the clock's time: pressed after the delay, released after the hold", async () => {
    const outer = new ManualClock();
    const gun = createVirtualGun({ board: "esp32-mpu6050", config: null, clock: outer });
    try {
      const hand = new Hand(gun, seededRandom(1), DEFAULT_HUMAN, 0, outer);
      let done = false;
      void hand.pull(200, 90).then(() => {
        done = true;
      });
      outer.advance(199);
      expect(gun.button.isDown()).toBe(false);
      outer.advance(1);
      expect(gun.button.isDown()).toBe(true);
      outer.advance(90);
      expect(gun.button.isDown()).toBe(false);
      await Promise.resolve();
      expect(done).toBe(true);
      // hub ms and gun ms differ by the clock's time when the gun started
      expect(hand.hubMs(gun.now())).toBe(outer.now());
    } finally {
      gun.stop();
    }
  });
});
