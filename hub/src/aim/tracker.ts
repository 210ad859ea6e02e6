// Keeping a gun's yaw offset right through a game. Yaw drifts (gyro bias: 0.05 °/s is 3°/min), so the
// offset is tracked as offset + drift rate × time: fitted through every mark the gun left (offset-fit.ts) —
// the calibration, every hold-up snapshot that saw a heading (free: the round's own hold-ups, unsure ones too)
// and explicit re-centre poses ("point at the Godfather"). Learning the rate means the next round's offset is
// predicted, not just a round behind.
import { angleDiff, type Deg, wrapDeg } from "./angles.js";
import { biasKey, fitOffset, type OffsetFit, type OffsetMark } from "./offset-fit.js";
import type { TrackerOptions } from "./options.js";
import type { NobodyReason } from "./reading.js";
import type { TargetResult } from "./resolve.js";
import type { GunMs } from "./window.js";

/** The fit of the marks so far (offset at `tMs`, its drift rate, their covariance), and the marks. */
export interface OffsetTrack extends OffsetFit {
  /** observations taken in (for display: how settled the estimate is) */
  observations: number;
  /** what the fit goes through, oldest first (at most MAX_MARKS) */
  marks: readonly OffsetMark[];
  /**
   * the last hold-up pointed steadily past every seat: players aim at someone, so the offset is likely off by a seat
   * or more (a bumped gun, a gun in another seat's hands), which its marks alone may never show
   */
  offSeats?: boolean;
}

/** marks kept per gun: a long game's worth of rounds; older ones have little weight left */
const MAX_MARKS = 32;

/** The track refitted with `mark` added. */
function withMark(track: OffsetTrack, mark: OffsetMark, opts: TrackerOptions, fresh = false): OffsetTrack {
  const marks = fresh ? [mark] : [...track.marks.slice(-(MAX_MARKS - 1)), mark];
  const f = fitOffset(marks, track, opts);
  return { ...f, observations: track.observations + 1, marks };
}

/** Starts tracking from a calibration: `poses` aimed poses averaged into `offsetDeg`. */
export function startTrack(offsetDeg: Deg, tMs: GunMs, opts: TrackerOptions, poses = 1): OffsetTrack {
  const sigmaDeg = opts.poseSigmaDeg / Math.sqrt(Math.max(1, poses));
  return {
    offsetDeg: wrapDeg(offsetDeg),
    rateDegPerS: 0,
    tMs,
    pOO: sigmaDeg * sigmaDeg,
    pOR: 0,
    pRR: opts.rateSigmaDegPerS * opts.rateSigmaDegPerS,
    observations: poses,
    marks: [{ t: tMs, offs: [wrapDeg(offsetDeg)], sigmaDeg }],
  };
}

/**
 * The gun's history fits another reading of its seats nearly as well, or its last hold-up pointed past every seat:
 * the next hold-up may name a neighbour.
 */
export function inDoubt(track: OffsetTrack, opts: TrackerOptions): boolean {
  return track.offSeats === true || (track.runnerUp !== undefined && track.runnerUp.costMore < opts.doubtCost);
}

/**
 * What the table may act on: a target named by a gun whose last hold-ups pointed past every seat is not trusted
 * until a pose re-centres it (its offset is likely a seat or more off); the player re-aims instead.
 */
export function trusted(track: OffsetTrack | null, r: TargetResult): TargetResult {
  if (track?.offSeats !== true || r.kind !== "target") return r;
  const { seat, errorDeg, gapDeg, headingDeg, rawHeadingDeg, pitchDeg } = r;
  return { kind: "ambiguous", best: { seat, errorDeg }, second: null, gapDeg, headingDeg, rawHeadingDeg, pitchDeg };
}

/** The person's bias the track learned for the direction from seat `from` to seat `seat` (0: none). */
export function biasOf(track: OffsetTrack | null, from: number, seat: number): Deg {
  return track?.bias?.[biasKey(from, seat)] ?? 0;
}

/**
 * A shooter's bearing row as the person points along it: each seat's bearing moved by the bias the track learned for
 * that direction (the row itself when none is learned).
 */
export function biasedRow(track: OffsetTrack | null, row: readonly Deg[]): readonly Deg[] {
  if (!track?.bias) return row;
  const from = row.findIndex((b) => Number.isNaN(b));
  if (from < 0) return row;
  return row.map((b, seat) => (Number.isNaN(b) ? b : wrapDeg(b + biasOf(track, from, seat))));
}

/** The offset to use at gun time `t`. */
export function offsetAt(track: OffsetTrack, t: GunMs): Deg {
  return wrapDeg(track.offsetDeg + (track.rateDegPerS * (t - track.tMs)) / 1000);
}

/** The track moved on to time `t` (uncertainty grows with time). */
export function predictTrack(track: OffsetTrack, t: GunMs, opts: TrackerOptions): OffsetTrack {
  const dt = Math.max(0, (t - track.tMs) / 1000);
  const qo = opts.offsetWalkDegPerSqrtS * opts.offsetWalkDegPerSqrtS * dt;
  const qr = opts.rateWalkDegPerSPerSqrtS * opts.rateWalkDegPerSPerSqrtS * dt;
  return {
    ...track,
    offsetDeg: offsetAt(track, t),
    tMs: t,
    pOO: track.pOO + 2 * dt * track.pOR + dt * dt * track.pRR + qo,
    pOR: track.pOR + dt * track.pRR,
    pRR: track.pRR + qr,
  };
}

export interface Observed {
  track: OffsetTrack;
  /** false when the snapshot taught nothing */
  used: boolean;
  /** how far the offset at the mark's time moved, degrees */
  innovationDeg: Deg;
}

/** A mark's σ at a seat `rangeM` from the gun: the hold's σ and the person's scatter at the body, as an angle there. */
function markSigma(sigmaDeg: Deg, rangeM: number, opts: TrackerOptions): Deg {
  if (!(rangeM > 0)) return sigmaDeg;
  return Math.hypot(sigmaDeg, (Math.atan(opts.aimScatterCm / 100 / rangeM) * 180) / Math.PI);
}

/** A steady heading pointing past the seats, or one settling onto a seat, still measures the offset. */
const teaches = (reason: NobodyReason) => reason === "no-seat" || reason === "settling";

/**
 * Learns from a hold-up snapshot that saw a heading: the player aimed at some seat, so bearing − raw heading is a
 * measurement of the offset for one of the seats. A clear target, an ambiguous one (between two seats) and one
 * pointing past the end seats all teach: the fit reads each as the seat nearest it, with everything else the gun
 * did; so does a hand still settling onto its seat. Skipping the unsure ones let the drift run on, unmeasured, until the gun named a neighbour with confidence.
 * A reading the gun could not make (unsteady, lowered, no samples) teaches nothing.
 */
export function learnFromSnapshot(
  track: OffsetTrack,
  t: GunMs,
  result: TargetResult,
  bearingRow: readonly Deg[],
  opts: TrackerOptions,
  /** how far each seat is from the gun (seats.ts ranges): a near seat's mark is looser */
  rangeRow?: readonly number[],
): Observed {
  const seen = result.kind === "nobody" ? (teaches(result.reason) ? result.seen : undefined) : result;
  if (seen === undefined) return { track, used: false, innovationDeg: 0 };
  const offs: Deg[] = [];
  const seats: number[] = [];
  bearingRow.forEach((b, seat) => {
    if (Number.isNaN(b)) return;
    offs.push(wrapDeg(b - seen.rawHeadingDeg));
    seats.push(seat);
  });
  if (offs.length === 0) return { track, used: false, innovationDeg: 0 };
  const predicted = offsetAt(track, t);
  // the shooter's own seat is the row's gap
  const from = bearingRow.findIndex((b) => Number.isNaN(b));
  const mark: OffsetMark = {
    t,
    offs,
    sigmaDeg: opts.snapshotSigmaDeg,
    ...(rangeRow ? { sigmas: seats.map((j) => markSigma(opts.snapshotSigmaDeg, rangeRow[j]!, opts)) } : {}),
    ...(from >= 0 ? { seats, from } : {}),
  };
  const next = withMark(track, mark, opts);
  // until a pose settles it (the gun may be the Godfather's, who does not pose, this round)
  if (track.offSeats || (result.kind === "nobody" && result.reason === "no-seat")) next.offSeats = true;
  return { track: next, used: true, innovationDeg: angleDiff(offsetAt(next, t), predicted) };
}

/**
 * Re-centres from a deliberate pose: the player was told to aim at `bearingDeg` (the Godfather, say) and
 * pulled. Within the gate it is one more (precise) mark; beyond it the track was wrong (a bumped gun,
 * a drift burst), so the pose wins outright and the fit starts again from it: this is how a badly drifted gun
 * gets back.
 */
export function recentreFromPose(
  track: OffsetTrack,
  t: GunMs,
  bearingDeg: Deg,
  rawYawDeg: Deg,
  opts: TrackerOptions,
  /**
   * the seat aimed at, the one the gun was held at and how far apart they are: the pose then shows the person's bias in
   * that direction, and a near seat's pose is looser
   */
  seat?: { target: number; from: number; rangeM?: number },
): Observed {
  const measured = wrapDeg(bearingDeg - rawYawDeg);
  const p = predictTrack(track, t, opts);
  // the pose's heading sits past the seat by the person's bias there: bearing − raw is the offset less that bias
  const bias = biasOf(track, seat?.from ?? -1, seat?.target ?? -1);
  const innovationDeg = angleDiff(measured, p.offsetDeg - bias);
  const sigmaDeg = seat?.rangeM ? markSigma(opts.poseSigmaDeg, seat.rangeM, opts) : opts.poseSigmaDeg;
  const inGate = Math.abs(innovationDeg) <= opts.gateSigmas * Math.sqrt(p.pOO + sigmaDeg ** 2);
  const mark: OffsetMark = {
    t,
    offs: [measured],
    sigmaDeg,
    ...(seat ? { seats: [seat.target], from: seat.from } : {}),
  };
  if (inGate) return { track: withMark(track, mark, opts), used: true, innovationDeg };
  // the fit starts again from the pose, its rate kept as the start
  const again = withMark({ ...p, offsetDeg: wrapDeg(measured + bias) }, mark, opts, true);
  return { track: again, used: true, innovationDeg };
}
