// Courage: at "3" + grace, is the gun lowered (lying down) or still up? Later changes do not count, so only
// samples up to the snapshot are read.
import { angleDist, type Deg } from "./angles.js";
import type { LieDownOptions, SnapshotOptions } from "./options.js";
import { readWindow } from "./reading.js";
import type { AimWindow, GunMs } from "./window.js";

export type LieDownResult =
  | { kind: "down"; how: "lowered" | "flat"; pitchDeg: Deg; rollDeg: Deg }
  | { kind: "up"; pitchDeg: Deg; rollDeg: Deg }
  /** no usable samples: the caller decides (the table treats a silent gun as its player's choice to stay up) */
  | { kind: "unknown"; reason: "no-samples" | "stale" };

/** True when a still gun lies flat: pitch near 0 and roll near 0 or ±180 (on its back). */
export function isFlat(pitchDeg: Deg, rollDeg: Deg, opts: LieDownOptions): boolean {
  return (
    Math.abs(pitchDeg) <= opts.flatPitchDeg &&
    (angleDist(rollDeg, 0) <= opts.flatRollDeg || angleDist(rollDeg, 180) <= opts.flatRollDeg)
  );
}

export function detectLieDown(win: AimWindow, t: GunMs, opts: SnapshotOptions & LieDownOptions): LieDownResult {
  const r = readWindow(win, t, opts, false);
  if (r.kind === "nobody") return { kind: "unknown", reason: r.reason === "stale" ? "stale" : "no-samples" };
  if (r.pitchDeg < opts.loweredPitchDeg) {
    return { kind: "down", how: "lowered", pitchDeg: r.pitchDeg, rollDeg: r.rollDeg };
  }
  // Flat needs "still": a player aiming level also has pitch ≈ 0 and roll ≈ 0, but a hand is never still.
  if (r.allStill && isFlat(r.pitchDeg, r.rollDeg, opts)) {
    return { kind: "down", how: "flat", pitchDeg: r.pitchDeg, rollDeg: r.rollDeg };
  }
  return { kind: "up", pitchDeg: r.pitchDeg, rollDeg: r.rollDeg };
}
