// Percentiles over a batch of measurements (nearest rank), for the benchmarks' tables.

export interface Spread {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentile of sorted values; NaN when there are none. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** p50 / p99 / max of the first `n` values (all by default); does not change the input. */
export function spread(values: ArrayLike<number>, n = values.length): Spread {
  const s = Float64Array.from({ length: n }, (_, i) => values[i]!).sort();
  return { n, p50: percentile(s, 50), p99: percentile(s, 99), max: n > 0 ? s[n - 1]! : Number.NaN };
}

/** A growing list of numbers with no per-value allocation. */
export class Samples {
  private buf: Float64Array;
  length = 0;
  constructor(capacity = 1024) {
    this.buf = new Float64Array(capacity);
  }
  push(x: number): void {
    if (this.length === this.buf.length) {
      const b = new Float64Array(this.buf.length * 2);
      b.set(this.buf);
      this.buf = b;
    }
    this.buf[this.length++] = x;
  }
  clear(): void {
    this.length = 0;
  }
  spread(): Spread {
    return spread(this.buf, this.length);
  }
}
