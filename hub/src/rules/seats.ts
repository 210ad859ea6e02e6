// Seat lists: a round's arrays (one slot a seat) and an order going clockwise from a seat.
import type { Seat } from "./types.js";

/** the first seat clockwise from `from` (inclusive) that is in `seats`; seats is in seat order */
export function rotateFrom(seats: readonly Seat[], from: Seat, n: number): Seat[] {
  for (let k = 0; k < n; k++) {
    const i = seats.indexOf((from + k) % n);
    if (i >= 0) return [...seats.slice(i), ...seats.slice(0, i)];
  }
  return [];
}

/** A packed array of n copies of v (new Array(n).fill makes a holey one, slower to read). */
export function filled<T>(n: number, v: T): T[] {
  const a: T[] = [];
  for (let i = 0; i < n; i++) a.push(v);
  return a;
}
