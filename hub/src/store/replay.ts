// Rebuilds a game's state from its log: setup, then every decision in order.
import type { EngineError, GameEngine } from "./engine.js";
import type { LoggedDecision } from "./game-log.js";

export type ReplayResult<S> =
  | { ok: true; state: S; decisions: number }
  | { ok: false; error: EngineError; seq: number | null; state?: S };

export function replay<S>(engine: GameEngine<S>, setup: unknown, decisions: LoggedDecision[]): ReplayResult<S> {
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
