// Bot players for secret choices and the decisions sensors cannot give (draft picks, phone, ...).
import { type BotStyle, type Decision, decide, type Owed, RANDOM_STYLE, Rng, type State } from "../rules/index.js";

/** Decides one owed entry for its seat. */
export type BotStrategy = (state: State, owed: Owed) => Decision;

/** The rules engine's random bot with its own seeded PRNG. */
export function randomBot(seed: number, style: BotStyle = RANDOM_STYLE): BotStrategy {
  const rng = new Rng(seed);
  return (state, owed) => decide(state, owed, rng, style);
}
