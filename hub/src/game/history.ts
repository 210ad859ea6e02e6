// A game's story for the scores page and replays: the public view at the end of each round and the public
// events of each round, rebuilt by replaying its logged decisions. Only public views and events: no secrets.
import type { GameHistory, Result, RoundHistory } from "@cng/protocol";
import type { GameEvent } from "../rules/index.js";
import type { LoggedDecision } from "../store/game-log.js";
import { decodeLogged, decodeLoggedSetup, type GameEngine } from "./engine.js";

export function gameHistory(engine: GameEngine, setup: unknown, decisions: LoggedDecision[]): Result<GameHistory> {
  const options = decodeLoggedSetup(setup);
  const first = options.ok ? engine.setup(options.value) : options;
  if (!first.ok) return first;
  let state = first.value;
  const rounds: RoundHistory[] = [];
  let round = engine.summary(state).round;
  let events: GameEvent[] = [];
  for (const d of decisions) {
    const decision = decodeLogged(d.decision);
    const r = decision.ok ? engine.apply(state, decision.value) : decision;
    if (!r.ok) return r;
    state = r.value.state;
    for (const e of r.value.events) if (engine.eventAudience(e) === null) events.push(e);
    const now = engine.summary(state);
    if (now.round !== round || now.over) {
      rounds.push({ round, done: true, view: engine.publicView(state), events });
      events = [];
      round = now.round;
      if (now.over) break;
    }
  }
  const view = engine.publicView(state);
  if (!engine.summary(state).over && (events.length > 0 || rounds.length === 0))
    rounds.push({ round, done: false, view, events });
  return { ok: true, value: { start: engine.publicView(first.value), rounds, view } };
}
