// The decisions are the game: replaying them from the same setup gives the same state, byte for byte.
// The store's crash recovery and `cng replay` rebuild a game this way.
import { apply } from "./engine.js";
import { newGame } from "./setup.js";
import type { Decision, GameEvent, RuleError, SetupOptions, State } from "./types.js";

export type ReplayResult =
  | { ok: true; state: State; events: GameEvent[] }
  | {
      ok: false;
      error: RuleError /** index of the refused decision, -1 for the setup */;
      at: number;
      state: State | null;
    };

export function replay(options: SetupOptions, decisions: readonly Decision[]): ReplayResult {
  const made = newGame(options);
  if (!made.ok) return { ok: false, error: made.error, at: -1, state: null };
  let state = made.state;
  const events: GameEvent[] = made.events.slice();
  for (let i = 0; i < decisions.length; i++) {
    const r = apply(state, decisions[i]!);
    if (!r.ok) return { ok: false, error: r.error, at: i, state };
    state = r.state;
    for (const e of r.events) events.push(e);
  }
  return { ok: true, state, events };
}
