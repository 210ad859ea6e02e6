// A small seeded PRNG (mulberry32). Its whole state is one uint32, so it fits in the game state as plain JSON.

/** The next mulberry32 state. */
export function advance32(state: number): number {
  return (state + 0x6d2b79f5) | 0;
}

/** The uint32 draw that goes with a (just advanced) mulberry32 state. */
export function draw32(state: number): number {
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}

/** A mutable PRNG for code outside the state (bots, benchmarks, tests). */
export class Rng {
  constructor(private state: number) {
    this.state = state | 0;
  }
  /** a uint32 */
  next(): number {
    this.state = advance32(this.state);
    return draw32(this.state);
  }
  /** an integer in [0, n) */
  int(n: number): number {
    return this.next() % n;
  }
  /** true with probability p */
  chance(p: number): boolean {
    return this.next() / 4294967296 < p;
  }
  /** the current state, to store or resume from */
  get seed(): number {
    return this.state;
  }
}

/** Fisher–Yates in place with a PRNG state; returns the new PRNG state. */
export function shuffleInPlace<T>(items: T[], state: number): number {
  for (let i = items.length - 1; i > 0; i--) {
    state = advance32(state);
    const j = draw32(state) % (i + 1);
    const tmp = items[i]!;
    items[i] = items[j]!;
    items[j] = tmp;
  }
  return state;
}
