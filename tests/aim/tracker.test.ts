import { describe, expect, it } from "vitest";
import {
  AimWindow,
  aimOptions,
  angleDist,
  bearings,
  learnFromSnapshot,
  observeOffset,
  offsetAt,
  recentreFromPose,
  resolveTarget,
  roundTable,
  startTrack,
  wrapDeg,
} from "../../hub/src/aim/index.js";
import { fill } from "./helpers.js";

const opts = aimOptions();

/** deterministic small "aim errors" for repeatable tests */
const wobble = (k: number) => 1.5 * Math.sin(k * 2.39996);

describe("offset tracking", () => {
  it("learns a steady drift from unambiguous snapshots and predicts the next round", () => {
    const b = bearings(roundTable(8));
    const s = 0;
    const offset0 = 30;
    const drift = -0.05; // offset changes by −0.05°/s (gyro bias +0.05°/s)
    const trueOffset = (t: number) => offset0 + (drift * t) / 1000;
    let track = startTrack(offset0, 0, opts);
    let untracked = 0;
    for (let k = 1; k <= 20; k++) {
      const t = k * 45_000;
      const target = 1 + (k % 7);
      const raw = wrapDeg(b[s][target] + wobble(k) - trueOffset(t));
      const win = fill(new AimWindow(), { from: t - 1000, to: t, yaw: raw });
      const r = resolveTarget(win, t, offsetAt(track, t), b[s], s, opts);
      expect(r).toMatchObject({ kind: "target", seat: target });
      track = learnFromSnapshot(track, t, r, b[s], opts).track;
      untracked = angleDist(offset0, trueOffset(t));
    }
    const next = 21 * 45_000;
    expect(untracked).toBeGreaterThan(40); // without tracking the gun would be useless by now
    expect(angleDist(offsetAt(track, next), trueOffset(next))).toBeLessThan(1.5);
    expect(track.rateDegPerS).toBeCloseTo(drift, 2);
  });

  it("ignores an observation far from the prediction when gated (a bumped gun must not teach)", () => {
    const track = startTrack(10, 0, opts);
    const o = observeOffset(track, 1000, 10 + 25, opts.snapshotSigmaDeg, opts);
    expect(o.used).toBe(false);
    expect(o.track).toBe(track);
  });

  it("does not learn from ambiguous snapshots or borderline targets", () => {
    const track = startTrack(0, 0, opts);
    const amb = learnFromSnapshot(
      track,
      1000,
      {
        kind: "ambiguous",
        best: { seat: 1, errorDeg: 9 },
        second: { seat: 2, errorDeg: -13 },
        gapDeg: 22.5,
        headingDeg: 0,
        rawHeadingDeg: 0,
        pitchDeg: 0,
      },
      [0, 0, 0],
      opts,
    );
    expect(amb.used).toBe(false);
    const borderline = learnFromSnapshot(
      track,
      1000,
      {
        kind: "target",
        seat: 1,
        errorDeg: opts.learnMaxErrorDeg + 2,
        marginDeg: 30,
        gapDeg: 90,
        headingDeg: opts.learnMaxErrorDeg + 2,
        rawHeadingDeg: opts.learnMaxErrorDeg + 2,
        pitchDeg: 0,
      },
      [0, 0, 0],
      opts,
    );
    expect(borderline.used).toBe(false);
  });

  it("a re-centre pose brings back a badly drifted gun", () => {
    const track = startTrack(0, 0, opts);
    const o = recentreFromPose(track, 5000, 90, 90 - 40, opts);
    expect(o.used).toBe(true);
    expect(angleDist(offsetAt(o.track, 5000), 40)).toBeLessThan(5);
    // a second, slightly off pose is averaged in (not taken outright) and the estimate gets surer
    const o2 = recentreFromPose(o.track, 6000, -30, -30 - 42, opts);
    const after = offsetAt(o2.track, 6000);
    expect(after).toBeGreaterThan(40.2);
    expect(after).toBeLessThan(41.8);
    expect(o2.track.pOO).toBeLessThan(o.track.pOO);
  });
});
