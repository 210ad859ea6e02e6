// Keeping a gun's yaw offset right through a game. Yaw drifts (gyro bias: 0.05 °/s is 3°/min), so the
// offset is tracked as offset + drift rate × time with a small Kalman filter, corrected by every
// unambiguous snapshot (free: the round's own hold-ups) and by explicit re-centre poses ("point at the
// Godfather"). Learning the rate means the next round's offset is predicted, not just a round behind.
import { angleDiff, type Deg, wrapDeg } from "./angles.js";
import type { TrackerOptions } from "./options.js";
import type { TargetResult } from "./resolve.js";
import type { GunMs } from "./window.js";

export interface OffsetTrack {
  /** offset at `tMs`, degrees added to raw yaw */
  offsetDeg: Deg;
  /** how fast the offset changes, °/s (minus the gyro's yaw bias) */
  rateDegPerS: number;
  tMs: GunMs;
  /** covariance of (offset, rate): deg², deg²/s, (deg/s)² */
  pOO: number;
  pOR: number;
  pRR: number;
  /** observations taken in (for display: how settled the estimate is) */
  observations: number;
}

/** Starts tracking from a calibration: `poses` aimed poses averaged into `offsetDeg`. */
export function startTrack(offsetDeg: Deg, tMs: GunMs, opts: TrackerOptions, poses = 1): OffsetTrack {
  return {
    offsetDeg: wrapDeg(offsetDeg),
    rateDegPerS: 0,
    tMs,
    pOO: (opts.poseSigmaDeg * opts.poseSigmaDeg) / Math.max(1, poses),
    pOR: 0,
    pRR: opts.rateSigmaDegPerS * opts.rateSigmaDegPerS,
    observations: poses,
  };
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
  /** false when the observation was too far from the prediction and ignored */
  used: boolean;
  /** observation − prediction, degrees */
  innovationDeg: Deg;
}

/**
 * Takes in one measurement of the offset (bearing of a known target − raw heading) at `t` with error σ.
 * `gate`: ignore it beyond this many σ of the prediction (Infinity for a deliberate re-centre).
 */
export function observeOffset(
  track: OffsetTrack,
  t: GunMs,
  measuredOffsetDeg: Deg,
  sigmaDeg: Deg,
  opts: TrackerOptions,
  gate = opts.gateSigmas,
): Observed {
  const p = predictTrack(track, t, opts);
  const innovationDeg = angleDiff(measuredOffsetDeg, p.offsetDeg);
  const s = p.pOO + sigmaDeg * sigmaDeg;
  if (Math.abs(innovationDeg) > gate * Math.sqrt(s)) return { track, used: false, innovationDeg };
  const kO = p.pOO / s;
  const kR = p.pOR / s;
  return {
    track: {
      offsetDeg: wrapDeg(p.offsetDeg + kO * innovationDeg),
      rateDegPerS: p.rateDegPerS + kR * innovationDeg,
      tMs: t,
      pOO: (1 - kO) * p.pOO,
      pOR: (1 - kO) * p.pOR,
      pRR: p.pRR - kR * p.pOR,
      observations: p.observations + 1,
    },
    used: true,
    innovationDeg,
  };
}

/**
 * Learns from a hold-up snapshot: only a clear target (error within learnMaxErrorDeg) teaches anything;
 * ambiguous and nobody leave the track as it was. The player aimed at the seat, so bearing − raw heading
 * is a measurement of the offset.
 */
export function learnFromSnapshot(
  track: OffsetTrack,
  t: GunMs,
  result: TargetResult,
  bearingRow: readonly Deg[],
  opts: TrackerOptions,
): Observed {
  if (result.kind !== "target" || Math.abs(result.errorDeg) > opts.learnMaxErrorDeg) {
    return { track, used: false, innovationDeg: 0 };
  }
  const measured = wrapDeg(bearingRow[result.seat] - result.rawHeadingDeg);
  return observeOffset(track, t, measured, opts.snapshotSigmaDeg, opts, opts.snapshotGateSigmas);
}

/**
 * Re-centres from a deliberate pose: the player was told to aim at `bearingDeg` (the Godfather, say) and
 * pulled. Within the gate it is one more (precise) observation; beyond it the track was wrong (a bumped gun,
 * a drift burst), so the pose wins outright: this is how a badly drifted gun gets back.
 */
export function recentreFromPose(
  track: OffsetTrack,
  t: GunMs,
  bearingDeg: Deg,
  rawYawDeg: Deg,
  opts: TrackerOptions,
): Observed {
  const measured = wrapDeg(bearingDeg - rawYawDeg);
  const o = observeOffset(track, t, measured, opts.poseSigmaDeg, opts);
  if (o.used) return o;
  const p = predictTrack(track, t, opts);
  return {
    track: {
      ...p,
      offsetDeg: measured,
      pOO: opts.poseSigmaDeg * opts.poseSigmaDeg,
      pOR: 0,
      pRR: Math.max(p.pRR, opts.rateSigmaDegPerS * opts.rateSigmaDegPerS),
      observations: p.observations + 1,
    },
    used: true,
    innovationDeg: o.innovationDeg,
  };
}
