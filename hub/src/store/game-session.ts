// The current game: its state in memory, its log on disk. Decisions go to the log first.
import type { EngineError, GameEngine } from "./engine.js";
import type { GameId, GameLog } from "./game-log.js";
import { replay } from "./replay.js";

export interface Game<S> {
  id: GameId;
  state: S;
  decisions: number;
}

export type DecideResult<S> =
  | { ok: true; game: Game<S>; events: readonly unknown[] }
  | { ok: false; error: EngineError };

export class GameSession<S> {
  private current: Game<S> | null = null;

  constructor(
    private readonly log: GameLog,
    readonly engine: GameEngine<S>,
    private readonly clock: () => number = Date.now,
  ) {}

  get game(): Game<S> | null {
    return this.current;
  }

  /** Loads the latest game from the log, replaying its decisions. Throws when the log does not replay. */
  resume(): Game<S> | null {
    const latest = this.log.latest();
    if (!latest) return null;
    const r = replay(this.engine, latest.setup, this.log.decisions(latest.id));
    if (!r.ok) {
      throw new Error(
        `game ${latest.id} does not replay${r.seq === null ? " (setup)" : ` at decision ${r.seq}`}: ${r.error.message}`,
      );
    }
    this.current = { id: latest.id, state: r.state, decisions: r.decisions };
    return this.current;
  }

  /** Starts a new game; nothing is logged when the engine refuses the setup. */
  start(setup: unknown): { ok: true; game: Game<S> } | { ok: false; error: EngineError } {
    const r = this.engine.setup(setup);
    if (!r.ok) return r;
    const id = this.log.create(setup, this.clock());
    this.current = { id, state: r.state, decisions: 0 };
    return { ok: true, game: this.current };
  }

  /** Applies one decision; logged (durably) only when the engine accepts it. */
  decide(decision: unknown, by: string): DecideResult<S> {
    const g = this.current;
    if (!g) return { ok: false, error: { code: "no-game", message: "no game has been started" } };
    const r = this.engine.apply(g.state, decision);
    if (!r.ok) return r;
    this.log.append(g.id, decision, by, this.clock());
    this.current = { id: g.id, state: r.state, decisions: g.decisions + 1 };
    return { ok: true, game: this.current, events: r.events };
  }
}
