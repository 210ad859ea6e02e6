// The hold-up snapshot for one gun: read the window at "3" + grace, calibrate, pick the target.
import { type Deg, wrapDeg } from "./angles.js";
import type { PickOptions, SnapshotOptions } from "./options.js";
import { type PickResult, pickTarget } from "./pick.js";
import { type NobodyReason, type ReadingResult, readWindow } from "./reading.js";
import type { SeatId } from "./seats.js";
import type { AimWindow, GunMs } from "./window.js";

/** What the snapshot saw, kept with every verdict for the dashboard, the log and offset learning. */
export interface Seen {
  /** calibrated median heading, table bearing */
  headingDeg: Deg;
  /** the same before calibration (what the offset is learnt against) */
  rawHeadingDeg: Deg;
  pitchDeg: Deg;
}

export type TargetResult =
  | (Exclude<PickResult, { kind: "nobody" }> & Seen)
  | { kind: "nobody"; reason: NobodyReason; seen?: Seen };

/**
 * Resolves a gun's target at gun time `t`. `offsetDeg` is the gun's current yaw offset (see tracker.ts),
 * `bearingRow` the bearings from the shooter's seat, `eligible` leaves out dead or absent seats.
 */
export function resolveTarget(
  win: AimWindow,
  t: GunMs,
  offsetDeg: Deg,
  bearingRow: readonly Deg[],
  shooter: SeatId,
  opts: SnapshotOptions & PickOptions,
  eligible?: (seat: SeatId) => boolean,
): TargetResult {
  return resolveReading(readWindow(win, t, opts), offsetDeg, bearingRow, shooter, opts, eligible);
}

/** The same from a window's reading already made. */
export function resolveReading(
  r: ReadingResult,
  offsetDeg: Deg,
  bearingRow: readonly Deg[],
  shooter: SeatId,
  opts: SnapshotOptions & PickOptions,
  eligible?: (seat: SeatId) => boolean,
): TargetResult {
  if (r.kind === "nobody") return r;
  const seen: Seen = {
    headingDeg: wrapDeg(r.rawHeadingDeg + offsetDeg),
    rawHeadingDeg: r.rawHeadingDeg,
    pitchDeg: r.pitchDeg,
  };
  if (r.pitchDeg < opts.minAimPitchDeg) return { kind: "nobody", reason: "lowered", seen };
  if (r.pitchDeg > opts.maxAimPitchDeg) return { kind: "nobody", reason: "raised", seen };
  const pick = pickTarget(seen.headingDeg, bearingRow, shooter, opts, eligible);
  if (pick.kind === "nobody") return { kind: "nobody", reason: pick.reason, seen };
  if (pick.kind === "target") {
    const tail = pickTarget(wrapDeg(r.rawTailDeg + offsetDeg), bearingRow, shooter, opts, eligible);
    const tailSeat = tail.kind === "target" ? tail.seat : tail.kind === "ambiguous" ? tail.best.seat : null;
    if (tailSeat !== null && tailSeat !== pick.seat) return { kind: "nobody", reason: "settling", seen };
  }
  return { ...pick, ...seen };
}
