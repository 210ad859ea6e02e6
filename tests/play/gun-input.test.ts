// The one place QoS 1 repeats of a trigger event are dropped: play/gun-input.ts, per gun, by its sequence number,
// until the gun reconnects (and counts from 1 again). The table behind it takes every event it is given.
import type { AimMsg, TriggerMsg } from "@cng/protocol";
import { describe, expect, it } from "vitest";
import type { GunService } from "../../hub/src/guns/service.js";
import type { GunStreams } from "../../hub/src/guns/streams.js";
import { GunInput } from "../../hub/src/play/gun-input.js";

function rig() {
  const streams = { aimConsumer: null, triggerConsumer: null } as unknown as GunStreams;
  let presence: (gun: string, on: boolean) => void = () => {};
  const guns = { onPresence: (fn: typeof presence) => (presence = fn) } as unknown as GunService;
  const triggers: [string, number][] = [];
  const aims: string[] = [];
  const input = new GunInput(streams, guns, {
    aim: (gun) => aims.push(gun),
    trigger: (gun, m) => triggers.push([gun, m.n]),
    probe: () => {},
  });
  input.start();
  const pull = (gun: string, n: number) =>
    streams.triggerConsumer!(gun, 0, { v: 1, n, k: "p", t: 1000 + n } as TriggerMsg, 5000);
  const aim = (gun: string) => streams.aimConsumer!(gun, 0, { v: 1, t: 1, y: 0, p: 0, r: 0, s: 0 } as AimMsg, 5000);
  return { input, streams, triggers, aims, pull, aim, presence: (gun: string, on: boolean) => presence(gun, on) };
}

describe("trigger events from the guns", () => {
  it("a repeat (same gun, same n) is passed on once; another gun's n is its own", () => {
    const r = rig();
    r.pull("g1", 1);
    r.pull("g1", 1);
    r.pull("g2", 1);
    r.pull("g1", 2);
    r.pull("g1", 1);
    expect(r.triggers).toEqual([
      ["g1", 1],
      ["g2", 1],
      ["g1", 2],
    ]);
  });

  it("a gun that reconnects counts from 1 again, and is heard", () => {
    const r = rig();
    r.pull("g1", 1);
    r.presence("g1", false);
    r.presence("g1", true);
    r.pull("g1", 1);
    expect(r.triggers).toEqual([
      ["g1", 1],
      ["g1", 1],
    ]);
  });

  it("remembers the last 64 numbers of a gun", () => {
    const r = rig();
    for (let n = 1; n <= 65; n++) r.pull("g1", n);
    r.pull("g1", 65); // remembered
    r.pull("g1", 1); // forgotten: 64 numbers came after it
    expect(r.triggers).toHaveLength(66);
    expect(r.triggers.at(-1)).toEqual(["g1", 1]);
  });

  it("aim samples go straight on, every one; close() stops both streams", () => {
    const r = rig();
    r.aim("g1");
    r.aim("g1");
    expect(r.aims).toEqual(["g1", "g1"]);
    r.input.close();
    expect(r.streams.aimConsumer).toBeNull();
    expect(r.streams.triggerConsumer).toBeNull();
  });
});
