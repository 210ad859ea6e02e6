// One limiter for every secret the hub checks — the host PIN and seat tokens at MQTT CONNECT (TCP and WebSocket)
// and in requests' `auth`, and paired guns' keys — kept per source address, so that guessing from one device never
// locks out the real host on another. A source gets a few tries, then waits: 1 s, 2 s, 4 s … up to a minute per
// wrong secret, until a quiet quarter of an hour forgives it. A right secret does not clear it: an attacker holding
// one valid secret (a seat token, their own gun's key) must not buy fresh guesses at the PIN with it.

export interface LimiterOptions {
  /** wrong secrets a source may give before it must wait */
  free: number;
  /** the first wait, ms; each further wrong secret doubles it */
  baseMs: number;
  /** the longest wait, ms */
  maxMs: number;
  /** a source with no wrong secret for this long starts afresh, ms */
  forgetMs: number;
  /** sources remembered at most (the oldest go first) */
  maxSources: number;
}

export const DEFAULT_LIMITS: LimiterOptions = {
  free: 5,
  baseMs: 1000,
  maxMs: 60_000,
  forgetMs: 15 * 60_000,
  maxSources: 10_000,
};

interface Record {
  /** wrong secrets since the source was last forgiven */
  failures: number;
  /** no secret from it is checked before this time */
  until: number;
  /** the last wrong secret */
  last: number;
}

export class SecretLimiter {
  private readonly sources = new Map<string, Record>();
  readonly o: LimiterOptions;

  constructor(
    o: Partial<LimiterOptions> = {},
    private readonly clock: () => number = Date.now,
  ) {
    this.o = { ...DEFAULT_LIMITS, ...o };
  }

  private get(source: string): Record | undefined {
    const r = this.sources.get(source);
    if (r && this.clock() - r.last > this.o.forgetMs) {
      this.sources.delete(source);
      return undefined;
    }
    return r;
  }

  /** ms `source` must still wait before a secret of its is checked; 0 = go ahead */
  wait(source: string): number {
    const r = this.get(source);
    return r ? Math.max(0, r.until - this.clock()) : 0;
  }

  /** a wrong secret from `source` */
  failed(source: string): void {
    const now = this.clock();
    let r = this.get(source);
    if (!r) {
      if (this.sources.size >= this.o.maxSources) this.sources.delete(this.sources.keys().next().value!);
      r = { failures: 0, until: 0, last: now };
      this.sources.set(source, r);
    }
    r.failures++;
    r.last = now;
    const over = r.failures - this.o.free;
    if (over >= 0) r.until = now + Math.min(this.o.maxMs, this.o.baseMs * 2 ** Math.min(over, 30));
  }

  /** sources now waiting (for the log and tests) */
  blocked(): number {
    const now = this.clock();
    let n = 0;
    for (const r of this.sources.values()) if (r.until > now) n++;
    return n;
  }
}

/** An address as one source: `::ffff:10.0.0.5` and `10.0.0.5` are the same device. */
export function sourceOf(address: string | undefined, fallback: string): string {
  if (!address) return fallback;
  return address.startsWith("::ffff:") ? address.slice(7) : address;
}
