// Rebuilds a game's state from its log: setup, then every decision in order.
import type { State } from "../rules/index.js";
import type { LoggedDecision } from "../store/game-log.js";
import type { EngineError, GameEngine } from "./engine.js";

export type ReplayResult =
  | { ok: true; state: State; decisions: number }
  | { ok: false; error: EngineError; seq: number | null; state?: State };

export function replay(engine: GameEngine, setup: unknown, decisions: LoggedDecision[]): ReplayResult {
  const first = engine.setup(setup);
  if (!first.ok) return { ok: false, error: first.error, seq: null };
  let state = first.state;
  for (const d of decisions) {
    const r = engine.apply(state, d.decision);
    if (!r.ok) return { ok: false, error: r.error, seq: d.seq, state };
    state = r.state;
  }
  return { ok: true, state, decisions: decisions.length };
}
