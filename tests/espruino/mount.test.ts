// @heavy: guns on the real Espruino interpreter, in real time
// Any IMU mounting on the real Espruino interpreter: guns whose chip sits upside down, sideways or
// standing on an edge (the board model turns what the chip reads) aim, pitch and roll like a normal one once
// gun.json names the mounting; both IMUs, the BNO085's yaw sign the same as the MPU-6050's. Bad mountings are refused
// (gun.json: the config error; the `mount` command: err). The aim comes over the serial link (no hub needed here;
// the wizard with the real hub is in mount-hub.test.ts).
import { describe, expect, it } from "vitest";
import type { Pose } from "../../hub/src/sim/espruino/index.js";
import type { RealGun } from "../../hub/src/sim/espruino/real-gun.js";
import { isRed, onInterpreter, realGun, said, sleep, type TestEnd, waitFor } from "../fakes/real-gun.js";

const cfg = (mount?: string) => ({ id: "g1", secret: "s-g1", table: "t1", link: "serial", mount });

interface Aim {
  y: number;
  p: number;
  r: number;
  s?: number;
}
const lastAim = (g: RealGun) => said(g, "aim").at(-1) as Aim;
const diff = (a: number, b: number) => {
  let d = (a - b) % 360;
  if (d > 180) d -= 360;
  if (d <= -180) d += 360;
  return d;
};

/**
 * Four guns follow their turns at a time: a gun starved of the machine integrates its gyro over fewer, later samples
 * than a chip does, and the file beside this one has guns of its own.
 */
const AT_ONCE = 4;
let following = 0;
const waiting: (() => void)[] = [];
const turn = (): Promise<void> => {
  if (following >= AT_ONCE) return new Promise((r) => waiting.push(r));
  following++;
  return Promise.resolve();
};
const next = () => {
  const w = waiting.shift();
  if (w) w();
  else following--;
};

/**
 * Starts a gun whose chip sits `mount` in it (gun.json says `named`), holds it still at `start`, then turns it 50°
 * left and 10° up, then rolls it 25°: what the aim says at each step.
 */
async function follow(board: string, mount: string, named: string | undefined, end: TestEnd) {
  await turn();
  end(async () => next());
  const start: Pose = { yaw: 20, pitch: 10, roll: 0 };
  let pose = start;
  const g = await realGun({ board, config: cfg(named), imu: { motion: () => pose, mount } }, end);
  await waitFor(() => said(g, "aim").length > 5, 6000, "aim");
  await sleep(1200);
  const a0 = lastAim(g);
  const t0 = g.now() + g.leadMs;
  g.imu.motion = (t) => {
    const k = Math.min(1, Math.max(0, (t * 1000 - t0) / 600));
    return { yaw: start.yaw + 50 * k, pitch: start.pitch + 10 * k, roll: 0 };
  };
  await sleep(1800);
  const a1 = lastAim(g);
  pose = { yaw: start.yaw + 50, pitch: 20, roll: 0 };
  const t1 = g.now() + g.leadMs;
  g.imu.motion = (t) => {
    const k = Math.min(1, Math.max(0, (t * 1000 - t1) / 400));
    return { yaw: pose.yaw, pitch: 20, roll: 25 * k };
  };
  await sleep(1800);
  const a2 = lastAim(g);
  expect(g.errors).toEqual([]);
  return { g, a0, a1, a2 };
}

/** degrees a reading may be off the true pose (a gun on a busy machine samples its IMU late) */
const OFF = 5;

/** a few of the 24: as designed, upside down, on either side, standing on an edge, facing backwards */
const MPU_MOUNTS = ["+x+z", "+x-z", "+x+y", "+x-y", "-z+x", "+y-z", "-x+z"];
const BNO_MOUNTS = ["+x+z", "+x-z", "+x+y", "-y+x"];
/** a Puck.js taped flat, upside down, on its side, standing on its edge */
const PUCK_MOUNTS = ["+x+z", "+x-z", "+y+x", "-z+y"];

// each gun is its own interpreter process: a few follow their turns at once (AT_ONCE), which is what keeps this file
// from being the suite's longest
describe.concurrent("mountings, a few guns at once", () => {
  onInterpreter.each([
    ...MPU_MOUNTS.map((m) => ["esp32-mpu6050", m] as const),
    ...BNO_MOUNTS.map((m) => ["esp32-bno085", m] as const),
    ...PUCK_MOUNTS.map((m) => ["puckjs", m] as const),
  ])("%s with its IMU mounted %s, named in gun.json, on the real interpreter", (board, mount) => {
    it("aims, pitches and rolls like a gun mounted as designed while following a turn", async ({ onTestFinished }) => {
      const { a0, a1, a2 } = await follow(board, mount, mount, onTestFinished);
      console.log(
        `${board} ${mount}: still ${a0.y}/${a0.p}/${a0.r}, after the turn ${a1.y}/${a1.p}/${a1.r}, rolled ${a2.y}/${a2.p}/${a2.r}`,
      );
      // within OFF of the true pose: an axis taken wrong is off by 10° or more (the pitch up, the roll 25°, the turn
      // 50°); how closely the filter follows is `cng bench mount`'s to tell
      expect(Math.abs(a0.p - 10)).toBeLessThan(OFF);
      expect(Math.abs(diff(a0.r, 0))).toBeLessThan(OFF);
      // the turn to the left is a yaw up by 50 on both IMUs: the same sign
      expect(Math.abs(diff(a1.y, a0.y) - 50)).toBeLessThan(OFF);
      expect(Math.abs(a1.p - 20)).toBeLessThan(OFF);
      expect(Math.abs(diff(a1.r, 0))).toBeLessThan(OFF);
      if (board.includes("bno085")) expect(Math.abs(diff(a1.y, 70))).toBeLessThan(1);
      expect(Math.abs(a2.p - 20)).toBeLessThan(OFF);
      expect(Math.abs(diff(a2.r, 25))).toBeLessThan(OFF);
      expect(Math.abs(diff(a2.y, a1.y))).toBeLessThan(OFF);
    }, 40_000);
  });

  onInterpreter("a mounting the gun does not know about", () => {
    it("is visible: upside down but not named, the roll reads 180° (what the mounting fixes)", async ({
      onTestFinished,
    }) => {
      const { a0 } = await follow("esp32-mpu6050", "+x-z", undefined, onTestFinished);
      expect(Math.abs(diff(a0.r, 180))).toBeLessThan(3);
    }, 40_000);
  });
});

// refused configs and commands: the guns mostly wait (a refused gun.json leaves the IMU off), so all at once
onInterpreter.concurrent.each(["esp32-mpu6050", "esp32-bno085", "puckjs"])("bad mountings on %s", (board) => {
  it("gun.json: refused like any bad value (console, red blink, one low beep, off the network)", async ({
    onTestFinished,
  }) => {
    const bad = ["+x+x", "x+z", "+a+z", "+x+z+", 3, ""];
    const guns = await Promise.all(bad.map((m) => realGun({ board, config: { ...cfg(), mount: m } }, onTestFinished)));
    const refused = (g: RealGun) =>
      g.console.some((l) => l.includes("CNG gun.json: mount")) &&
      g.led.filter((l) => isRed(l.c)).length >= 2 &&
      g.tones.some((t) => t.f === 300);
    await waitFor(() => guns.every(refused), 10_000, "every gun to refuse its gun.json");
    guns.forEach((g, i) => {
      expect(g.console, String(bad[i])).toContain("CNG gun.json: mount must be forward then up chip axis, like +x+z");
      expect(g.tones.filter((t) => t.f > 0).map((t) => t.f)).toEqual([300]);
      expect(g.usb.out).not.toMatch(/hello /);
    });
  }, 30_000);

  it("the mount command: a bad one is refused on err and changes nothing; a good one is stored and answered", async ({
    onTestFinished,
  }) => {
    const g = await realGun({ board, config: cfg("+x-z"), imu: { mount: "+x-z" } }, onTestFinished);
    await waitFor(() => said(g, "hello").length, 8000, "hello");
    g.usb.send('cmd {"v":1,"n":5,"c":"mount","m":"+z+z"}\n');
    await waitFor(() => said(g, "err").length, 5000, "err");
    expect(said(g, "err")[0]).toMatchObject({ e: "cmd", m: "mount" });
    g.usb.send('cmd {"v":1,"n":6,"c":"grav"}\n');
    const r = await waitFor(() => said(g, "imu")[0], 5000, "the imu answer");
    // level, upside down on the chip: the chip's −z is up
    expect(r).toMatchObject({ v: 1, n: 6, m: "+x-z" });
    expect(r.g[2]).toBeLessThan(-0.95);
    expect(r.sd).toBeLessThan(0.01);
    g.usb.send('cmd {"v":1,"n":7,"c":"mount","m":"-y+x"}\n');
    await waitFor(() => said(g, "imu").length === 2, 5000, "the mount answer");
    expect(said(g, "imu")[1]).toEqual({ v: 1, n: 7, m: "-y+x" });
    const j = JSON.parse((await g.readFile("gun.json"))!);
    expect(j).toMatchObject({ id: "g1", secret: "s-g1", mount: "-y+x" });
    expect(g.errors).toEqual([]);
  }, 30_000);
});
