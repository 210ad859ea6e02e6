// Helpers for the rules tests: random legal games through the public API.
import {
  apply,
  type Decision,
  newGame,
  Rng,
  randomDecision,
  type SetupOptions,
  type State,
} from "../../hub/src/rules/index.js";

export function names(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `P${i + 1}`);
}

export function start(options: SetupOptions): State {
  const made = newGame(options);
  if (!made.ok) throw new Error(made.error.message);
  return made.state;
}

/** Plays a random game to the end, calling `each` after every decision; returns the decisions and final state. */
export function playRandom(
  options: SetupOptions,
  botSeed: number,
  each?: (before: State, d: Decision, after: State) => void,
): { decisions: Decision[]; state: State } {
  let state = start(options);
  const rng = new Rng(botSeed);
  const decisions: Decision[] = [];
  for (let guard = 0; !state.over; guard++) {
    if (guard > 5000) throw new Error("the game does not end");
    const d = randomDecision(state, rng)!;
    const res = apply(state, d);
    if (!res.ok) throw new Error(`bot decision refused: ${JSON.stringify(d)}: ${res.error.message}`);
    each?.(state, d, res.state);
    decisions.push(d);
    state = res.state;
  }
  return { decisions, state };
}
