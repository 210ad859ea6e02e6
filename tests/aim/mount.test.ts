// Finding the IMU mounting from two poses (hub/src/aim/mount.ts), over all 24 mountings with noisy, slightly askew
// poses as a person holds them; and the refusals: moving, not gravity, askew, poses that do not make a right angle.
import { mountAxes } from "@cng/protocol";
import { describe, expect, it } from "vitest";
import { findMount, type GravReading, poseAxis } from "../../hub/src/aim/mount.js";
import { toChip } from "../../hub/src/sim/espruino/imu.js";
import { bodyGravity, type Pose } from "../../hub/src/sim/espruino/index.js";

/** all 24: every forward axis with every perpendicular up axis */
const ALL: string[] = [];
for (const f of ["+x", "-x", "+y", "-y", "+z", "-z"])
  for (const u of ["+x", "-x", "+y", "-y", "+z", "-z"]) if (f[1] !== u[1]) ALL.push(f + u);

function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** What a gun whose chip sits `mount` reports at pose `p`: gravity in the chip frame, noise `n` g per axis. */
function reading(mount: string, p: Pose, rnd: () => number, n = 0.01): GravReading {
  const g = toChip(bodyGravity(p), mountAxes(mount)!);
  return { g: g.map((x) => x + (rnd() - 0.5) * 2 * n), sd: 0.004 + rnd() * 0.01 };
}

describe("findMount", () => {
  it("has 24 mountings, each a distinct rotation", () => {
    expect(ALL.length).toBe(24);
    expect(new Set(ALL.map((m) => mountAxes(m)!.join())).size).toBe(24);
  });

  it.each(ALL)("finds %s from two poses held by hand (askew up to 12°, noisy), 50 times", (mount) => {
    const rnd = rng(mount.charCodeAt(1) * 31 + mount.charCodeAt(3) * 7 + (mount[0] === "-" ? 1 : 0));
    for (let i = 0; i < 50; i++) {
      const off = () => (rnd() - 0.5) * 2 * 12;
      const level = reading(mount, { yaw: rnd() * 360, pitch: off(), roll: off() }, rnd);
      const up = reading(mount, { yaw: rnd() * 360, pitch: 90 - Math.abs(off()), roll: off() }, rnd);
      const r = findMount(level, up);
      expect(r, JSON.stringify({ level, up })).toMatchObject({ ok: true, mount });
    }
  });

  it("names the axis that reads up, with its tilt", () => {
    const p = poseAxis({ g: [0.02, -0.99, 0.1], sd: 0.005 });
    expect(p).toMatchObject({ ok: true, up: { axis: 1, sign: -1, name: "-y" } });
    if (p.ok) expect(p.up.tilt).toBeCloseTo(6, 0);
  });

  const level = { g: [0, 0, 1], sd: 0.005 };
  const up = { g: [1, 0, 0], sd: 0.005 };
  it("the default mounting from the textbook poses", () => {
    expect(findMount(level, up)).toMatchObject({ ok: true, mount: "+x+z", angle: 90 });
  });

  it("refuses a gun that moved while measuring", () => {
    expect(findMount({ g: [0, 0, 1], sd: 0.2 }, up)).toMatchObject({ ok: false, code: "not-still", pose: "level" });
    expect(findMount(level, { g: [1, 0, 0], sd: 0.05 })).toMatchObject({ ok: false, code: "not-still", pose: "up" });
  });

  it("refuses a reading that is not gravity (a swing, a free fall, a dead chip)", () => {
    expect(findMount({ g: [0, 0, 1.5], sd: 0.01 }, up)).toMatchObject({ ok: false, code: "not-gravity" });
    expect(findMount(level, { g: [0, 0, 0], sd: 0 })).toMatchObject({ ok: false, code: "not-gravity", pose: "up" });
  });

  it("refuses a pose held askew (no chip axis within 25° of up)", () => {
    const s = Math.SQRT1_2;
    const r = findMount({ g: [0, s, s], sd: 0.01 }, up);
    expect(r).toMatchObject({ ok: false, code: "tilted", pose: "level" });
    if (!r.ok) expect(r.msg).toMatch(/45°/);
  });

  it("refuses poses that disagree: the same pose twice, or upside down for the second", () => {
    expect(findMount(level, level)).toMatchObject({ ok: false, code: "not-perpendicular" });
    expect(findMount(level, { g: [0, 0, -1], sd: 0.01 })).toMatchObject({ ok: false, code: "not-perpendicular" });
    // each pose within 25° of an axis, yet 40° off a right angle together
    const r = findMount({ g: [0.34, 0, 0.94], sd: 0.01 }, { g: [0.94, 0, -0.34], sd: 0.01 });
    expect(r.ok).toBe(true);
    const bad = findMount({ g: [0.4, 0, 0.92], sd: 0.01 }, { g: [0.92, 0, 0.4], sd: 0.01 });
    expect(bad).toMatchObject({ ok: false, code: "not-perpendicular" });
  });
});
