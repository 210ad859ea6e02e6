// Choosing a target from a calibrated heading. A wrong target costs far more than a re-aim, so a seat is
// named only when the heading is well inside its share of the angle and clearly closer than the runner-up.
import { angleDiff, angleDist, type Deg } from "./angles.js";
import type { PickOptions } from "./options.js";
import type { SeatId } from "./seats.js";

export interface SeatError {
  seat: SeatId;
  /** heading − bearing of the seat, signed, degrees */
  errorDeg: Deg;
}

/** A side gap this wide is the empty part of the circle (targets from a seat at a convex table span < 180°). */
const EMPTY_SECTOR_DEG = 180;

export type PickResult =
  | {
      kind: "target";
      seat: SeatId;
      /** heading − bearing, signed */
      errorDeg: Deg;
      /** how much further off the runner-up is (Infinity when there is none) */
      marginDeg: Deg;
      /** the gap to the neighbouring target on the side the heading leans to */
      gapDeg: Deg;
    }
  | { kind: "ambiguous"; best: SeatError; second: SeatError | null; gapDeg: Deg }
  | { kind: "nobody"; reason: "no-seat" };

/**
 * Which seat does `headingDeg` (calibrated) name, from `shooter`? `bearingRow[j]` is the bearing from the
 * shooter to seat j. `eligible(j)` lets the caller leave out dead or absent seats; the shooter never counts.
 */
export function pickTarget(
  headingDeg: Deg,
  bearingRow: readonly Deg[],
  shooter: SeatId,
  opts: PickOptions,
  eligible: (seat: SeatId) => boolean = () => true,
): PickResult {
  let best = -1;
  let bestDist = Number.POSITIVE_INFINITY;
  let second = -1;
  let secondDist = Number.POSITIVE_INFINITY;
  for (let j = 0; j < bearingRow.length; j++) {
    if (j === shooter || !eligible(j)) continue;
    const d = angleDist(headingDeg, bearingRow[j]);
    if (d < bestDist) {
      second = best;
      secondDist = bestDist;
      best = j;
      bestDist = d;
    } else if (d < secondDist) {
      second = j;
      secondDist = d;
    }
  }
  if (best < 0) return { kind: "nobody", reason: "no-seat" };

  // The gap is the angle from the best seat to the next target on the side the heading leans to: seats are
  // not evenly spread in angle from a given shooter (and not at all on a long table).
  const errorDeg = angleDiff(headingDeg, bearingRow[best]);
  const gapDeg = sideGap(bearingRow, shooter, best, errorDeg, eligible);
  // Leaning far out into the empty sector (the shooter's back, or past the end of a row): nobody is there.
  // Between two targets, however far from both, it is a re-aim instead.
  if (bestDist > opts.maxErrorDeg && gapDeg >= EMPTY_SECTOR_DEG) return { kind: "nobody", reason: "no-seat" };
  const marginDeg = secondDist - bestDist;
  // The runner-up rule scales with how far apart best and runner-up are (the gap the noise has to cross).
  const pairGap = second < 0 ? 360 : angleDist(bearingRow[best], bearingRow[second]);
  const acceptWithin = Math.min(opts.acceptFraction * (gapDeg / 2), opts.maxErrorDeg);
  const marginNeeded = Math.max(opts.minMarginDeg, opts.marginFraction * pairGap);
  if (bestDist <= acceptWithin && marginDeg >= marginNeeded) {
    return { kind: "target", seat: best, errorDeg, marginDeg, gapDeg };
  }
  return {
    kind: "ambiguous",
    best: { seat: best, errorDeg },
    second: second < 0 ? null : { seat: second, errorDeg: angleDiff(headingDeg, bearingRow[second]) },
    gapDeg,
  };
}

/**
 * Angle from seat `from` to the nearest other eligible target turning the way `lean` points (both ways when
 * lean is 0: the smaller). 360 when there is no other target.
 */
export function sideGap(
  bearingRow: readonly Deg[],
  shooter: SeatId,
  from: SeatId,
  lean: Deg,
  eligible: (seat: SeatId) => boolean = () => true,
): Deg {
  let ccw = 360;
  let cw = 360;
  for (let j = 0; j < bearingRow.length; j++) {
    if (j === shooter || j === from || !eligible(j)) continue;
    const off = angleDiff(bearingRow[j], bearingRow[from]);
    if (off > 0) ccw = Math.min(ccw, off);
    else if (off < 0) cw = Math.min(cw, -off);
    else return 0; // exactly in line: no heading can tell them apart
  }
  // A target seen only on one side is also the far neighbour going round the other way.
  if (ccw === 360 && cw < 360) ccw = 360 - maxOff(bearingRow, shooter, from, eligible, -1);
  if (cw === 360 && ccw < 360) cw = 360 - maxOff(bearingRow, shooter, from, eligible, 1);
  if (lean > 0) return ccw;
  if (lean < 0) return cw;
  return Math.min(ccw, cw);
}

/** Largest offset on one side (sign +1 counter-clockwise, −1 clockwise). */
function maxOff(
  bearingRow: readonly Deg[],
  shooter: SeatId,
  from: SeatId,
  eligible: (seat: SeatId) => boolean,
  sign: 1 | -1,
): Deg {
  let m = 0;
  for (let j = 0; j < bearingRow.length; j++) {
    if (j === shooter || j === from || !eligible(j)) continue;
    m = Math.max(m, sign * angleDiff(bearingRow[j], bearingRow[from]));
  }
  return m;
}
