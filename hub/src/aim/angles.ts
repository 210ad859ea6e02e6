// Angle arithmetic in degrees. Every heading in the aim layer is degrees in (−180, 180], counter-clockwise
// positive (the same sense as atan2 bearings); radians only appear inside Math calls here.

/** An angle in degrees. */
export type Deg = number;

const RAD_PER_DEG = Math.PI / 180;
const DEG_PER_RAD = 180 / Math.PI;

export function radToDeg(r: number): Deg {
  return r * DEG_PER_RAD;
}

/** Wraps any angle into (−180, 180]. */
export function wrapDeg(d: Deg): Deg {
  let w = d % 360;
  if (w > 180) w -= 360;
  else if (w <= -180) w += 360;
  return w;
}

/** Signed shortest turn from `from` to `to`, in (−180, 180]. */
export function angleDiff(to: Deg, from: Deg): Deg {
  return wrapDeg(to - from);
}

/** Unsigned angular distance, in [0, 180]. */
export function angleDist(a: Deg, b: Deg): Deg {
  return Math.abs(wrapDeg(a - b));
}

/** Circular mean and resultant length R in [0, 1] (1 = all equal; near 0 = no meaningful mean). */
export function circularMean(angles: ArrayLike<Deg>, count = angles.length): { mean: Deg; resultant: number } {
  let s = 0;
  let c = 0;
  for (let i = 0; i < count; i++) {
    const r = angles[i] * RAD_PER_DEG;
    s += Math.sin(r);
    c += Math.cos(r);
  }
  if (count === 0) return { mean: 0, resultant: 0 };
  return { mean: wrapDeg(Math.atan2(s, c) * DEG_PER_RAD), resultant: Math.hypot(s, c) / count };
}

/** Largest unsigned distance of any angle from `centre`: the "spread" a calibration reports. */
export function maxDeviation(angles: ArrayLike<Deg>, centre: Deg, count = angles.length): Deg {
  let worst = 0;
  for (let i = 0; i < count; i++) worst = Math.max(worst, angleDist(angles[i], centre));
  return worst;
}

/** Median of `values[0..count)`, sorting that prefix in place (callers pass scratch space; no allocation). */
export function medianInPlace(values: Float64Array, count: number): number {
  if (count === 0) return Number.NaN;
  // Insertion sort: windows hold tens of samples, and this allocates nothing.
  for (let i = 1; i < count; i++) {
    const v = values[i];
    let j = i - 1;
    while (j >= 0 && values[j] > v) {
      values[j + 1] = values[j];
      j--;
    }
    values[j + 1] = v;
  }
  const mid = count >> 1;
  return count % 2 === 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}
