// The classic equal split: k sharers, bills of 5k/10k/20k, no change-making (docs/rules.md, "Equal split").

/** Counts of [5000, 10000, 20000] bills. */
export type BillCounts = readonly [number, number, number];

export interface SplitResult {
  /** what each sharer takes, in dollars (0: everything stays) */
  each: number;
  /** bills taken off the table in all, counts of [5000, 10000, 20000] */
  used: [number, number, number];
}

/**
 * Can exactly x fives, y tens and z twenties be cut into k groups of s fives each?
 * The values divide one another (1 | 2 | 4 in fives), so a level at a time: each group needs s mod 2 fives,
 * the fives left in a group come in pairs that act as tens; then the same one level up.
 */
export function canCut(x: number, y: number, z: number, k: number, s: number): boolean {
  const r0 = s & 1;
  const spare5 = x - k * r0;
  if (spare5 < 0 || spare5 & 1) return false;
  const y1 = y + spare5 / 2;
  const s1 = s >> 1;
  const r1 = s1 & 1;
  const spare10 = y1 - k * r1;
  if (spare10 < 0 || spare10 & 1) return false;
  return z + spare10 / 2 === k * (s1 >> 1);
}

/**
 * The largest S > 0 such that k disjoint groups each sum to S; among allocations reaching it, as many
 * 20k bills as possible, then as many 10k (the "decision" in docs/rules.md).
 */
export function equalSplit(bills: BillCounts, k: number): SplitResult {
  const [a, b, c] = bills;
  if (k <= 0) return { each: 0, used: [0, 0, 0] };
  if (k === 1) return { each: (a + 2 * b + 4 * c) * 5000, used: [a, b, c] };
  const total = a + 2 * b + 4 * c;
  for (let s = Math.floor(total / k); s > 0; s--) {
    const need = k * s;
    for (let z = Math.min(c, Math.floor(need / 4)); z >= 0; z--) {
      const rest = need - 4 * z;
      const yMax = Math.min(b, Math.floor(rest / 2));
      const yMin = Math.max(0, Math.ceil((rest - a) / 2));
      for (let y = yMax; y >= yMin; y--) {
        const x = rest - 2 * y;
        if (canCut(x, y, z, k, s)) return { each: s * 5000, used: [x, y, z] };
      }
    }
  }
  return { each: 0, used: [0, 0, 0] };
}
