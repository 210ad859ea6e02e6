// A gun's whole history as one fit: offset(t) = o + r·(t − tRef) through every mark it left — calibration and
// re-centre poses (the seat is known) and hold-up snapshots (the player aimed at some seat: each is read as the
// seat nearest the fit). Fitting all of them together, rather than one after the other, is what keeps a gun from
// sliding a seat over: a run of snapshots between two seats, each too unsure to teach alone, still pulls the
// drift the right way, and a slip the last few marks would allow is refused by everything before them.
// Residuals are capped (a player who aimed badly cannot drag the fit), the rate has a prior, and the fit starts
// from many rates so the nearest-seat reading of each mark cannot trap it in the wrong one.
import { angleDiff, type Deg, wrapDeg } from "./angles.js";
import type { TrackerOptions } from "./options.js";
import type { GunMs } from "./window.js";

/** One measurement of the offset: its candidates (one when the seat was known), σ, and gun time. */
export interface OffsetMark {
  t: GunMs;
  /** bearing − raw heading for each seat the player may have aimed at */
  offs: readonly Deg[];
  sigmaDeg: Deg;
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
}

const STARTS = 31;
const ITERATIONS = 4;

/** The residual of `m` against offset `pred`: its nearest candidate's difference. */
function residual(m: OffsetMark, pred: Deg): Deg {
  let best = Number.POSITIVE_INFINITY;
  for (const o of m.offs) {
    const d = angleDiff(o, pred);
    if (Math.abs(d) < Math.abs(best)) best = d;
  }
  return best;
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
  // times in seconds before tRef (≤ 0), each mark's weight from its σ and age
  const n = marks.length;
  const ts = new Float64Array(n);
  const ws = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const m = marks[i]!;
    ts[i] = (m.t - tRef) / 1000;
    const age = -ts[i]!;
    ws[i] =
      1 /
      (m.sigmaDeg ** 2 + opts.offsetWalkDegPerSqrtS ** 2 * age + (opts.rateWalkDegPerSPerSqrtS ** 2 * age ** 3) / 3);
  }
  const pr = 1 / opts.rateSigmaDegPerS ** 2;
  const cap = opts.fitCapSigmas;
  const solve = (o0: Deg, r0: number) => {
    let o = o0;
    let r = r0;
    let cost = 0;
    let a11 = 0;
    let a12 = 0;
    let a22 = 0;
    for (let it = 0; it < ITERATIONS; it++) {
      // least squares on (Δo, Δr) for residuals e ≈ Δo + Δr·t, Huber-weighted, with the rate's prior
      a11 = 0;
      a12 = 0;
      a22 = pr;
      let b1 = 0;
      let b2 = -pr * r;
      cost = pr * r * r;
      for (let i = 0; i < n; i++) {
        const t = ts[i]!;
        const e = residual(marks[i]!, o + r * t);
        const z = Math.abs(e) * Math.sqrt(ws[i]!);
        const w = z > cap ? (ws[i]! * cap) / z : ws[i]!;
        cost += z > cap ? cap * cap : z * z;
        a11 += w;
        a12 += w * t;
        a22 += w * t * t;
        b1 += w * e;
        b2 += w * t * e;
      }
      const det = a11 * a22 - a12 * a12;
      if (!(det > 0)) break;
      o += (b1 * a22 - a12 * b2) / det;
      r += (a11 * b2 - a12 * b1) / det;
    }
    return { o: wrapDeg(o), r, cost, a11, a12, a22 };
  };
  const at = (t: GunMs) => from.offsetDeg + (from.rateDegPerS * (t - from.tMs)) / 1000;
  let best = solve(wrapDeg(at(tRef)), from.rateDegPerS);
  const pivot = n > 0 ? at(marks[0]!.t) : at(tRef);
  const back = n > 0 ? -ts[0]! : 0;
  const fits = [best];
  for (let i = 0; i < STARTS; i++) {
    const r = -opts.fitRateSpanDegPerS + (2 * opts.fitRateSpanDegPerS * i) / (STARTS - 1);
    const f = solve(wrapDeg(pivot + r * back), r);
    fits.push(f);
    if (f.cost < best.cost) best = f;
  }
  let other: (typeof fits)[number] | undefined;
  for (const f of fits)
    if (Math.abs(angleDiff(f.o, best.o)) >= opts.doubtApartDeg && (!other || f.cost < other.cost)) other = f;
  const det = best.a11 * best.a22 - best.a12 * best.a12;
  const ok = det > 0;
  return {
    offsetDeg: best.o,
    rateDegPerS: best.r,
    tMs: tRef,
    pOO: ok ? best.a22 / det : Number.POSITIVE_INFINITY,
    pOR: ok ? -best.a12 / det : 0,
    pRR: ok ? best.a11 / det : 1 / pr,
    ...(other && { runnerUp: { offsetDeg: other.o, rateDegPerS: other.r, costMore: other.cost - best.cost } }),
  };
}
