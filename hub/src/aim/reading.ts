// One reading of a gun's window at a snapshot time: the median heading of the last ≈150 ms, how steady it
// was, and why there is no reading when there is none. Target picking and lie-down both start here.
import { angleDiff, circularMean, type Deg, medianInPlace, wrapDeg } from "./angles.js";
import type { SnapshotOptions } from "./options.js";
import type { AimWindow, GunMs } from "./window.js";

/** Why a snapshot names nobody. */
export type NobodyReason =
  /** no sample, or too few in the window */
  | "no-samples"
  /** the newest sample is too old: the gun went quiet */
  | "stale"
  /** still swinging, or shaking */
  | "unstable"
  /** not raised: pointing down at the table or floor */
  | "lowered"
  /** pointing at the ceiling */
  | "raised"
  /** no seat in that direction */
  | "no-seat"
  /** still turning at the snapshot: the window's newest part points at another seat than the whole window */
  | "settling"
  /** no steady aim by the end of the count's reaction window after "3": too slow (draw.ts) */
  | "slow";

export interface Reading {
  /** median raw yaw over the window (add the gun's offset for a table bearing) */
  rawHeadingDeg: Deg;
  pitchDeg: Deg;
  rollDeg: Deg;
  /** median raw yaw over the window's newest part (`tailFraction` of it): where a settling hand is going */
  rawTailDeg: Deg;
  /** heading change across the window (newer half's median − older half's), signed */
  motionDeg: Deg;
  /** robust scatter about the median (75th percentile of |deviation| scaled to a Gaussian σ), degrees */
  scatterDeg: Deg;
  /** samples used */
  samples: number;
  /** every sample in the window says the gun is still */
  allStill: boolean;
  /** time of the newest sample used */
  newestT: GunMs;
}

export type ReadingResult = ({ kind: "reading" } & Reading) | { kind: "nobody"; reason: NobodyReason };

/** For Gaussian data the 75th percentile of |x − median| is 1.15 σ. Unlike the MAD it sees a gun flicking
 * between two headings (a bimodal window has a MAD of zero), yet a lone wild sample barely moves it. */
const P75_TO_SIGMA = 1 / 1.15;
let scratch = new Float64Array(64);
let scratch2 = new Float64Array(64);

function ensureScratch(n: number): void {
  if (scratch.length < n) {
    scratch = new Float64Array(n);
    scratch2 = new Float64Array(n);
  }
}

/**
 * Reads the window at gun time `t`: only samples in (t − windowMs, t] count, so whatever the player does
 * after the snapshot does not. `requireSteady: false` skips the stability check (lie-down does not care
 * whether a lowered gun still swings).
 */
export function readWindow(win: AimWindow, t: GunMs, opts: SnapshotOptions, requireSteady = true): ReadingResult {
  if (win.size === 0) return { kind: "nobody", reason: "no-samples" };
  const first = win.newestAtOrBefore(t);
  if (first < 0) return { kind: "nobody", reason: "no-samples" };
  const newestT = win.t(first);
  if (t - newestT > opts.staleMs) return { kind: "nobody", reason: "stale" };
  let n = 0;
  while (first + n < win.size && win.t(first + n) > t - opts.windowMs) n++;
  if (n < opts.minSamples) return { kind: "nobody", reason: "no-samples" };
  ensureScratch(n);

  // Circular median: unwrap round the circular mean (fine while the spread is well under 180°, and anything
  // wider is unstable anyway), take the ordinary median of the deviations, wrap back.
  for (let k = 0; k < n; k++) scratch[k] = win.yaw(first + k);
  const { mean } = circularMean(scratch, n);
  for (let k = 0; k < n; k++) scratch[k] = angleDiff(win.yaw(first + k), mean);
  // newest first in scratch: newer half is [0, n/2), older half [ceil(n/2), n)
  const half = n >> 1;
  for (let k = 0; k < half; k++) scratch2[k] = scratch[k];
  const newer = medianInPlace(scratch2, half);
  for (let k = 0; k < half; k++) scratch2[k] = scratch[n - half + k];
  const older = medianInPlace(scratch2, half);
  const motionDeg = half > 0 ? newer - older : 0;
  const tailN = Math.min(n, Math.max(opts.minSamples, Math.ceil(n * opts.tailFraction)));
  for (let k = 0; k < tailN; k++) scratch2[k] = scratch[k];
  const tail = medianInPlace(scratch2, tailN);
  const medDev = medianInPlace(scratch, n);
  for (let k = 0; k < n; k++) scratch[k] = Math.abs(angleDiff(win.yaw(first + k), mean) - medDev);
  medianInPlace(scratch, n); // sorts the |deviations|
  const scatterDeg = P75_TO_SIGMA * scratch[Math.min(n - 1, Math.floor(0.75 * n))];

  if (requireSteady && (Math.abs(motionDeg) > opts.maxMotionDeg || scatterDeg > opts.maxScatterDeg)) {
    return { kind: "nobody", reason: "unstable" };
  }

  let allStill = true;
  for (let k = 0; k < n; k++) {
    scratch[k] = win.pitch(first + k);
    if (!win.still(first + k)) allStill = false;
  }
  const pitchDeg = medianInPlace(scratch, n);
  for (let k = 0; k < n; k++) scratch[k] = win.roll(first + k);
  const rollDeg = circularMean(scratch, n).mean;
  return {
    kind: "reading",
    rawHeadingDeg: wrapDeg(mean + medDev),
    rawTailDeg: wrapDeg(mean + tail),
    pitchDeg,
    rollDeg,
    motionDeg,
    scatterDeg,
    samples: n,
    allStill,
    newestT,
  };
}
