// The table's own memory: what it decided from sensors that the engine does not hold yet (physical mode
// buffers a round's aims and courage until the reveal). Appended to the log through the `record` port;
// Table.resume rebuilds the round from them. Every record names its round: older rounds are ignored.
import type { Seat } from "../rules/index.js";

export type TableRecord =
  /** the host started this round's hold-up */
  | { kind: "start"; round: number }
  /** a final hold-up verdict (ambiguous aims are re-counted, never recorded); `seat`: the gun's slot (guns.ts) */
  | { kind: "aim"; round: number; seat: Seat; target: Seat | null }
  /** the Godfather's privilege: order null = none (declined, timed out, or the re-aim failed) */
  | { kind: "privilege"; round: number; order: Seat | null; target: Seat | null }
  | { kind: "courage"; round: number; seat: Seat; lieDown: boolean }
  /** a closed reveal window: which guns (slots) pulled (refused pulls left out) */
  | { kind: "pulls"; round: number; window: RevealWindow; seats: Seat[] }
  /** You-don't-need-it-anymore took the gun paired to `from`: from now on it is `seat`'s gun 2 */
  | { kind: "gun-taken"; round: number; seat: Seat; from: Seat }
  /** re-centre pose of the round: done (the guns that pulled were re-centred) */
  | { kind: "recentred"; round: number };

/** classic: the Bang! Bang! Bang! window first, then the Bang! window; second: only `bang` */
export type RevealWindow = "bbb" | "bang";
