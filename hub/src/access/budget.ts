// Budgets of what one source may ask of the hub: a token bucket per key (an address, a client), so a flood from one
// device is cut off while everyone else goes on. Bounded: the keys idle longest go first.

export interface BudgetOptions {
  /** what may be spent at once */
  burst: number;
  /** refill per second */
  perSecond: number;
  /** keys remembered at most */
  maxKeys: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class Budget {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly o: BudgetOptions,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Spends one from `key`'s budget: false when it has none left (nothing is spent then). */
  take(key: string): boolean {
    const now = this.clock();
    let b = this.buckets.get(key);
    if (b === undefined) {
      if (this.buckets.size >= this.o.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
      b = { tokens: this.o.burst, at: now };
    } else {
      // most recently used last, so the idle ones are dropped first
      this.buckets.delete(key);
      b.tokens = Math.min(this.o.burst, b.tokens + ((now - b.at) / 1000) * this.o.perSecond);
      b.at = now;
    }
    this.buckets.set(key, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}

/** Counts live things per key (connections per address), with a cap. */
export class Counter {
  private readonly n = new Map<string, number>();

  constructor(readonly max: number) {}

  /** One more for `key`, unless it has `max` already. */
  add(key: string): boolean {
    const c = this.n.get(key) ?? 0;
    if (c >= this.max) return false;
    this.n.set(key, c + 1);
    return true;
  }

  remove(key: string): void {
    const c = this.n.get(key) ?? 0;
    if (c <= 1) this.n.delete(key);
    else this.n.set(key, c - 1);
  }

  count(key: string): number {
    return this.n.get(key) ?? 0;
  }
}
