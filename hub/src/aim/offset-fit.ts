// A gun's whole history as one fit: offset(t) = o + r·(t − tRef) through every mark it left — calibration and
// re-centre poses (the seat is known) and hold-up snapshots (the player aimed at some seat: each is read as the
// seat nearest the fit). Fitting all of them together, rather than one after the other, is what keeps a gun from
// sliding a seat over: a run of snapshots between two seats, each too unsure to teach alone, still pulls the
// drift the right way, and a slip the last few marks would allow is refused by everything before them.
// Residuals are capped (a player who aimed badly cannot drag the fit), the rate has a prior, and the fit starts
// from many rates so the nearest-seat reading of each mark cannot trap it in the wrong one.
// People point with a bias of their own per direction (docs/human-model.md: mostly systematic per person and
// direction): the fit learns one per shooter seat and target seat from the marks read as that seat, held to zero by a
// prior (directionSigmaDeg) so a seat seen once moves it a little and a seat seen often more. A bias of more than half
// a seat's gap reads as the next seat and cannot be learned from hold-ups alone: only a known target (a pose) shows it.
import { angleDiff, type Deg, wrapDeg } from "./angles.js";
import type { TrackerOptions } from "./options.js";
import type { GunMs } from "./window.js";

/** One measurement of the offset: its candidates (one when the seat was known), σ, and gun time. */
export interface OffsetMark {
  t: GunMs;
  /** bearing − raw heading for each seat the player may have aimed at */
  offs: readonly Deg[];
  sigmaDeg: Deg;
  /** σ per candidate, when they differ (a near seat's mark is looser): else sigmaDeg for all */
  sigmas?: readonly Deg[];
  /**
   * the target seat of each candidate and the seat the gun was held at (its direction biases are per that pair);
   * without them the mark says nothing of direction (a calibration's mean)
   */
  seats?: readonly number[];
  from?: number;
}

/** What the fit needs of the tracker's options (options.ts says what each one is). */
export type FitOptions = Pick<
  TrackerOptions,
  | "rateSigmaDegPerS"
  | "offsetWalkDegPerSqrtS"
  | "rateWalkDegPerSPerSqrtS"
  | "fitRateSpanDegPerS"
  | "fitCapSigmas"
  | "doubtApartDeg"
  | "directionSigmaDeg"
>;

export interface OffsetFit {
  /** offset at `tMs`, degrees added to raw yaw */
  offsetDeg: Deg;
  /** how fast the offset changes, °/s (minus the gyro's yaw bias) */
  rateDegPerS: number;
  tMs: GunMs;
  /** covariance of (offset at tMs, rate): deg², deg²/s, (deg/s)² */
  pOO: number;
  pOR: number;
  pRR: number;
  /**
   * the best of the fits whose offset at tMs is doubtApartDeg or more from this one: the marks read as other seats.
   * `costMore`: how much worse it fits (in squared σ); a small one means the history cannot tell the two apart.
   */
  runnerUp?: { offsetDeg: Deg; rateDegPerS: number; costMore: number };
  /**
   * the person's bias per direction the marks show, degrees the heading sits past the seat's bearing, by
   * `biasKey(from, seat)` (absent: none learned)
   */
  bias?: Readonly<Record<number, Deg>>;
}

/** The key of a shooter seat's direction to a target seat in `OffsetFit.bias`. */
export const biasKey = (from: number, seat: number) => from * 64 + seat;

const STARTS = 31;
const ITERATIONS = 4;

/** The residual of `m` against offset `pred`, its candidates moved by the direction biases: and which candidate. */
function residual(
  m: OffsetMark,
  pred: Deg,
  bias: Float64Array,
  keyIx: Int32Array | null,
): { e: Deg; k: number; sigma: Deg } {
  let best = Number.POSITIVE_INFINITY;
  let at = -1;
  let sigma = m.sigmaDeg;
  for (let c = 0; c < m.offs.length; c++) {
    const kx = keyIx === null ? -1 : keyIx[c]!;
    const d = angleDiff(m.offs[c]! + (kx >= 0 ? bias[kx]! : 0), pred);
    if (Math.abs(d) < Math.abs(best)) {
      best = d;
      at = kx;
      sigma = m.sigmas?.[c] ?? m.sigmaDeg;
    }
  }
  return { e: best, k: at, sigma };
}

/** One fit's problem: the marks' times (s before the newest, ≤ 0), their variance from age, their bias slots. */
interface FitProblem {
  marks: readonly OffsetMark[];
  ts: Float64Array;
  aged: Float64Array;
  /** per mark, each candidate's slot in the direction biases (null: none) */
  keyIx: (Int32Array | null)[];
  /** the (shooter seat, target seat) pairs the slots stand for */
  keys: number[];
  /** the biases' prior weight, the rate's, and the Huber cap in σ */
  priorB: number;
  pr: number;
  cap: number;
  /** per bias slot, scratch sums of one iteration */
  sumW: Float64Array;
  sumWT: Float64Array;
  sumWE: Float64Array;
}

function fitProblem(marks: readonly OffsetMark[], tRef: GunMs, opts: FitOptions): FitProblem {
  // times in seconds before tRef (≤ 0), each mark's variance from its age (its σ comes with the candidate read)
  const n = marks.length;
  const ts = new Float64Array(n);
  const aged = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const m = marks[i]!;
    ts[i] = (m.t - tRef) / 1000;
    const age = -ts[i]!;
    aged[i] = opts.offsetWalkDegPerSqrtS ** 2 * age + (opts.rateWalkDegPerSPerSqrtS ** 2 * age ** 3) / 3;
  }
  // the direction biases the marks can speak of: one slot per (shooter seat, target seat) pair
  const keys: number[] = [];
  const keyIx: (Int32Array | null)[] = marks.map((m) => {
    if (m.seats === undefined || m.from === undefined || opts.directionSigmaDeg <= 0) return null;
    const ix = new Int32Array(m.offs.length);
    for (let c = 0; c < m.offs.length; c++) {
      const key = biasKey(m.from, m.seats[c]!);
      let at = keys.indexOf(key);
      if (at < 0) at = keys.push(key) - 1;
      ix[c] = at;
    }
    return ix;
  });
  const nb = keys.length;
  return {
    marks,
    ts,
    aged,
    keyIx,
    keys,
    priorB: opts.directionSigmaDeg > 0 ? 1 / opts.directionSigmaDeg ** 2 : 0,
    pr: 1 / opts.rateSigmaDegPerS ** 2,
    cap: opts.fitCapSigmas,
    sumW: new Float64Array(nb),
    sumWT: new Float64Array(nb),
    sumWE: new Float64Array(nb),
  };
}

/**
 * The line (offset `o`, rate `r`) and the direction biases from the start (`o0`, `r0`): least squares on (Δo, Δr) and
 * the biases together, for residuals e⁰ ≈ Δo + Δr·t − bias (e⁰: the mark's distance from the line, its bias left out),
 * Huber-weighted, with the rate's prior and each bias's; the biases are solved out (each is what its marks leave of
 * the line, shrunk), leaving two equations for the line.
 */
function solveLine(p: FitProblem, o0: Deg, r0: number) {
  const { marks, ts, aged, keyIx, priorB, pr, cap, sumW, sumWT, sumWE } = p;
  const n = marks.length;
  const nb = p.keys.length;
  let o = o0;
  let r = r0;
  let cost = 0;
  let a11 = 0;
  let a12 = 0;
  let a22 = 0;
  const bias = new Float64Array(nb);
  for (let it = 0; it < ITERATIONS; it++) {
    a11 = 0;
    a12 = 0;
    a22 = pr;
    let b1 = 0;
    let b2 = -pr * r;
    cost = pr * r * r;
    sumW.fill(0);
    sumWT.fill(0);
    sumWE.fill(0);
    for (let k = 0; k < nb; k++) cost += priorB * bias[k]! * bias[k]!;
    for (let i = 0; i < n; i++) {
      const t = ts[i]!;
      const { e, k, sigma } = residual(marks[i]!, o + r * t, bias, keyIx[i]!);
      const wi = 1 / (sigma * sigma + aged[i]!);
      const z = Math.abs(e) * Math.sqrt(wi);
      const w = z > cap ? (wi * cap) / z : wi;
      cost += z > cap ? cap * cap : z * z;
      const e0 = k >= 0 ? e - bias[k]! : e;
      a11 += w;
      a12 += w * t;
      a22 += w * t * t;
      b1 += w * e0;
      b2 += w * t * e0;
      if (k >= 0) {
        sumW[k]! += w;
        sumWT[k]! += w * t;
        sumWE[k]! += w * e0;
      }
    }
    for (let k = 0; k < nb; k++) {
      const c = 1 / (sumW[k]! + priorB);
      a11 -= c * sumW[k]! * sumW[k]!;
      a12 -= c * sumW[k]! * sumWT[k]!;
      a22 -= c * sumWT[k]! * sumWT[k]!;
      b1 -= c * sumWE[k]! * sumW[k]!;
      b2 -= c * sumWE[k]! * sumWT[k]!;
    }
    const det = a11 * a22 - a12 * a12;
    if (!(det > 0)) break;
    const dO = (b1 * a22 - a12 * b2) / det;
    const dR = (a11 * b2 - a12 * b1) / det;
    o += dO;
    r += dR;
    // each direction's bias: what its marks leave once the line moved, shrunk towards none by the prior
    for (let k = 0; k < nb; k++) bias[k] = -(sumWE[k]! - sumW[k]! * dO - sumWT[k]! * dR) / (sumW[k]! + priorB);
  }
  return { o: wrapDeg(o), r, cost, a11, a12, a22, bias };
}

/**
 * Fits the marks (oldest first) at the newest mark's time. `from` (the previous fit) is where it starts: its rate,
 * and lines of other rates through its offset at the oldest mark.
 */
export function fitOffset(
  marks: readonly OffsetMark[],
  from: { offsetDeg: Deg; rateDegPerS: number; tMs: GunMs },
  opts: FitOptions,
): OffsetFit {
  const tRef = marks.length > 0 ? marks[marks.length - 1]!.t : from.tMs;
  const n = marks.length;
  const p = fitProblem(marks, tRef, opts);
  const at = (t: GunMs) => from.offsetDeg + (from.rateDegPerS * (t - from.tMs)) / 1000;
  let best = solveLine(p, wrapDeg(at(tRef)), from.rateDegPerS);
  const pivot = n > 0 ? at(marks[0]!.t) : at(tRef);
  const back = n > 0 ? -p.ts[0]! : 0;
  const fits = [best];
  for (let i = 0; i < STARTS; i++) {
    const r = -opts.fitRateSpanDegPerS + (2 * opts.fitRateSpanDegPerS * i) / (STARTS - 1);
    const f = solveLine(p, wrapDeg(pivot + r * back), r);
    fits.push(f);
    if (f.cost < best.cost) best = f;
  }
  let other: (typeof fits)[number] | undefined;
  for (const f of fits)
    if (Math.abs(angleDiff(f.o, best.o)) >= opts.doubtApartDeg && (!other || f.cost < other.cost)) other = f;
  const det = best.a11 * best.a22 - best.a12 * best.a12;
  const ok = det > 0;
  const nb = p.keys.length;
  let bias: Record<number, Deg> | undefined;
  if (nb > 0) {
    bias = {};
    for (let k = 0; k < nb; k++) bias[p.keys[k]!] = best.bias[k]!;
  }
  return {
    offsetDeg: best.o,
    rateDegPerS: best.r,
    tMs: tRef,
    pOO: ok ? best.a22 / det : Number.POSITIVE_INFINITY,
    pOR: ok ? -best.a12 / det : 0,
    pRR: ok ? best.a11 / det : 1 / p.pr,
    ...(other && { runnerUp: { offsetDeg: other.o, rateDegPerS: other.r, costMore: other.cost - best.cost } }),
    ...(bias && { bias }),
  };
}
