// The current game: its state in memory, its log on disk. Decisions go to the log first.
import {
  type Decision,
  type GameHistory,
  type GameListing,
  type GameSetup,
  ok,
  type Result,
  refuse,
} from "@cng/protocol";
import type { GameEvent, State } from "../rules/index.js";
import type { GameId, GameLog, LoggedDecision } from "../store/game-log.js";
import { decodeLogged, type GameEngine, type GameSummary } from "./engine.js";
import { gameHistory } from "./history.js";
import { replay } from "./replay.js";

/** A decision taken back, as logged and decoded. */
export interface Undone extends LoggedDecision {
  decision: Decision;
}

export interface Game {
  id: GameId;
  state: State;
  decisions: number;
}

/** A decision logged and applied: the game after it, and what happened. */
export interface Decided {
  game: Game;
  events: readonly GameEvent[];
}

export class GameSession {
  private current: Game | null = null;
  /** summaries of logged games by id, valid while their decision count is the same */
  private readonly listed = new Map<GameId, { decisions: number; summary: GameSummary | null }>();
  /** histories of the games last asked for, valid while their log's revision is the same */
  private readonly histories = new Map<GameId, { revision: string; history: Result<GameHistory> }>();

  constructor(
    private readonly log: GameLog,
    readonly engine: GameEngine,
    private readonly clock: () => number = Date.now,
  ) {}

  get game(): Game | null {
    return this.current;
  }

  /** Loads the latest game from the log, replaying its decisions. Throws when the log does not replay. */
  resume(): Game | null {
    const latest = this.log.latest();
    if (!latest) return null;
    const r = replay(this.engine, latest.setup, this.log.decisions(latest.id));
    if (!r.ok) {
      const at = r.error.seq === null ? " (setup)" : ` at decision ${r.error.seq}`;
      throw new Error(`game ${latest.id} does not replay${at}: ${r.error.message}`);
    }
    this.current = { id: latest.id, state: r.value.state, decisions: r.value.decisions };
    return this.current;
  }

  /** Starts a new game; nothing is logged when the engine refuses the setup. */
  start(setup: GameSetup): Result<Game> {
    const r = this.engine.setup(setup);
    if (!r.ok) return r;
    const id = this.log.create(setup, this.clock());
    this.current = { id, state: r.value, decisions: 0 };
    return ok(this.current);
  }

  /** Applies one decision; logged (durably) only when the engine accepts it. */
  decide(decision: Decision, by: string): Result<Decided> {
    const g = this.current;
    if (!g) return refuse("no-game", "no game has been started");
    const r = this.engine.apply(g.state, decision);
    if (!r.ok) return r;
    this.log.append(g.id, decision, by, this.clock());
    this.current = { id: g.id, state: r.value.state, decisions: g.decisions + 1 };
    return ok({ game: this.current, events: r.value.events });
  }

  /** Every logged game, oldest first; a game whose log does not replay is listed without a summary. */
  list(): GameListing[] {
    return this.log.games().map((g) => {
      let c = this.listed.get(g.id);
      if (c?.decisions !== g.decisions) {
        const logged = this.log.game(g.id);
        const r = logged ? replay(this.engine, logged.setup, this.log.decisions(g.id)) : null;
        c = { decisions: g.decisions, summary: r?.ok ? this.engine.summary(r.value.state) : null };
        this.listed.set(g.id, c);
      }
      const s = c.summary ?? { edition: "?", players: [], over: false, winners: [] };
      return { ...g, edition: s.edition, players: s.players, over: s.over, winners: s.winners };
    });
  }

  /** A logged game's public story, round by round; null when there is no such game. */
  history(id: GameId): Result<GameHistory> | null {
    // a whole log replayed per call: kept while the log is the same, so asking again and again costs a lookup
    const revision = this.log.revision(id);
    const kept = this.histories.get(id);
    if (kept?.revision === revision) return kept.history;
    const logged = this.log.game(id);
    if (!logged) return null;
    const history = gameHistory(this.engine, logged.setup, this.log.decisions(id));
    this.histories.delete(id);
    this.histories.set(id, { revision, history });
    if (this.histories.size > 8) this.histories.delete(this.histories.keys().next().value!);
    return history;
  }

  /** The last decision that counts now (undone ones left out), or null. */
  lastDecision(): LoggedDecision | null {
    const g = this.current;
    if (!g) return null;
    return this.log.decisions(g.id).at(-1) ?? null;
  }

  /**
   * Takes back the last decision when `refuse` finds no reason not to: an undo entry is logged, and the state is
   * the replay of the decisions before it (the engine is deterministic, so that is the state before it).
   */
  undo(by: string, refusal: (last: Undone) => string | null): Result<{ game: Game; undone: Undone }> {
    const g = this.current;
    if (!g) return refuse("no-game", "no game has been started");
    const decisions = this.log.decisions(g.id);
    const logged = decisions.at(-1);
    if (!logged) return refuse("undo", "nothing to undo: no decision yet");
    const decision = decodeLogged(logged.decision);
    if (!decision.ok) return refuse("undo", decision.error.message);
    const last: Undone = { ...logged, decision: decision.value };
    const why = refusal(last);
    if (why !== null) return refuse("undo", why);
    const r = replay(this.engine, this.log.game(g.id)!.setup, decisions.slice(0, -1));
    if (!r.ok) return refuse("undo", `the game does not replay: ${r.error.message}`);
    this.log.undo(g.id, last.seq, by, this.clock());
    this.current = { id: g.id, state: r.value.state, decisions: r.value.decisions };
    return ok({ game: this.current, undone: last });
  }
}
