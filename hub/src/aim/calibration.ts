// Calibration: the player aims at a named seat (or 2–3 seats ≥ 60° apart) and pulls. Each pose gives
// bearing − yaw; the gun's offset is their circular mean, and their disagreement says whether to redo.
import { angleDist, circularMean, type Deg, maxDeviation, wrapDeg } from "./angles.js";
import type { CalibrationOptions } from "./options.js";
import type { SeatId } from "./seats.js";

export interface CalibrationPose {
  /** the seat the player was asked to aim at */
  seat: SeatId;
  /** the gun's raw yaw while aiming (the median of a steady window: see readWindow) */
  rawYawDeg: Deg;
}

export type RedoReason =
  /** the poses disagree by more than maxSpreadDeg */
  | "spread"
  /** the aimed-at seats are too close together to check anything */
  | "too-close"
  /** the poses agree only if yaw turns the other way: the IMU is mounted or configured mirrored */
  | "mirrored"
  /** no pose, or a pose at the shooter's own seat */
  | "bad-pose";

export interface Calibration {
  /** degrees added to the raw yaw to get a table bearing (the protocol's `off`) */
  offsetDeg: Deg;
  /** largest distance of any pose's offset from the mean (0 with one pose) */
  spreadDeg: Deg;
  /** widest bearing separation between the aimed-at seats */
  separationDeg: Deg;
  verdict: "ok" | "redo";
  reasons: RedoReason[];
}

/**
 * Calibrates one gun of the player at `shooter`. `bearingRow[j]` is the bearing from the shooter to seat j.
 * One pose always agrees with itself; with several, the spread is the check.
 */
export function calibrate(
  poses: readonly CalibrationPose[],
  bearingRow: readonly Deg[],
  shooter: SeatId,
  opts: CalibrationOptions,
): Calibration {
  if (poses.length === 0 || poses.some((p) => p.seat === shooter || !(p.seat in bearingRow))) {
    return { offsetDeg: 0, spreadDeg: 0, separationDeg: 0, verdict: "redo", reasons: ["bad-pose"] };
  }
  const offsets = poses.map((p) => wrapDeg(bearingRow[p.seat] - p.rawYawDeg));
  const { mean } = circularMean(offsets);
  const spreadDeg = maxDeviation(offsets, mean);
  let separationDeg = 0;
  for (const a of poses) {
    for (const b of poses) separationDeg = Math.max(separationDeg, angleDist(bearingRow[a.seat], bearingRow[b.seat]));
  }
  const reasons: RedoReason[] = [];
  if (spreadDeg > opts.maxSpreadDeg) {
    const mirrored = poses.map((p) => wrapDeg(bearingRow[p.seat] + p.rawYawDeg));
    const mirroredSpread = maxDeviation(mirrored, circularMean(mirrored).mean);
    reasons.push(mirroredSpread <= opts.maxSpreadDeg ? "mirrored" : "spread");
  }
  const distinctSeats = new Set(poses.map((p) => p.seat)).size;
  if (distinctSeats > 1 && separationDeg < opts.minPoseSeparationDeg) reasons.push("too-close");
  return { offsetDeg: mean, spreadDeg, separationDeg, verdict: reasons.length ? "redo" : "ok", reasons };
}
