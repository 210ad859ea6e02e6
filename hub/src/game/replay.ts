// Rebuilds a game's state from its log: setup, then every decision in order, each decoded again first.
import type { CodedError, Result } from "@cng/protocol";
import type { State } from "../rules/index.js";
import type { LoggedDecision } from "../store/game-log.js";
import { decodeLogged, decodeLoggedSetup, type GameEngine } from "./engine.js";

/** Why a log does not replay: the decision it stopped at (null: the setup), and the state before it. */
export interface ReplayError extends CodedError {
  seq: number | null;
  state?: State;
}

export type ReplayResult = Result<{ state: State; decisions: number }, ReplayError>;

export function replay(engine: GameEngine, setup: unknown, decisions: readonly LoggedDecision[]): ReplayResult {
  const options = decodeLoggedSetup(setup);
  const first = options.ok ? engine.setup(options.value) : options;
  if (!first.ok) return { ok: false, error: { ...first.error, seq: null } };
  let state = first.value;
  for (const d of decisions) {
    const decision = decodeLogged(d.decision);
    const r = decision.ok ? engine.apply(state, decision.value) : decision;
    if (!r.ok) return { ok: false, error: { ...r.error, seq: d.seq, state } };
    state = r.value.state;
  }
  return { ok: true, value: { state, decisions: decisions.length } };
}
