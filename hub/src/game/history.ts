// A game's story for the scores page and replays: the public view at the end of each round and the public
// events of each round, rebuilt by replaying its logged decisions. Only public views and events: no secrets.

import type { LoggedDecision } from "../store/game-log.js";
import type { GameEngine } from "./engine.js";

export interface RoundHistory {
  round: number;
  /** false: the round is still being played (the view is the latest one) */
  done: boolean;
  /** the public view when the round ended (or now) */
  view: unknown;
  /** the round's public events, in order */
  events: unknown[];
}

export interface GameHistory {
  /** the public view before the first decision */
  start: unknown;
  rounds: RoundHistory[];
  /** the public view now */
  view: unknown;
}

export type HistoryResult =
  | { ok: true; history: GameHistory }
  | { ok: false; error: { code: string; message: string }; seq: number | null };

export function gameHistory(engine: GameEngine, setup: unknown, decisions: LoggedDecision[]): HistoryResult {
  const first = engine.setup(setup);
  if (!first.ok) return { ok: false, error: first.error, seq: null };
  let state = first.state;
  const rounds: RoundHistory[] = [];
  let round = engine.summary(state).round;
  let events: unknown[] = [];
  for (const d of decisions) {
    const r = engine.apply(state, d.decision);
    if (!r.ok) return { ok: false, error: r.error, seq: d.seq };
    state = r.state;
    for (const e of r.events) if (engine.eventAudience(e) === null) events.push(e);
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
  return { ok: true, history: { start: engine.publicView(first.state), rounds, view } };
}
