// What the hub needs from a rules engine. The game log and `cng replay` are written against
// this, so they do not depend on the engine's internals; rules-engine.ts adapts the real one.

export interface EngineError {
  code: string;
  message: string;
}

export type SetupResult<S> = { ok: true; state: S } | { ok: false; error: EngineError };
export type ApplyOutcome<S> = { ok: true; state: S; events: readonly unknown[] } | { ok: false; error: EngineError };

/** What a list of games shows of one (and how a history tells rounds apart). */
export interface GameSummary {
  edition: string;
  players: string[];
  round: number;
  over: boolean;
  winners: number[];
}

export interface GameEngine<S = unknown> {
  /** Builds the first state from setup options (as given to `game.new`), or says why not. */
  setup(options: unknown): SetupResult<S>;
  /** One decision; the state passed in is never changed. */
  apply(state: S, decision: unknown): ApplyOutcome<S>;
  /** What everyone may see. */
  publicView(state: S): unknown;
  /** What one seat may see. */
  playerView(state: S, seat: number): unknown;
  /** The result in the docs/scenarios.md output shape. */
  output(state: S): unknown;
  /** Edition, names, round, whether it is over and who won: all public. */
  summary(state: S): GameSummary;
  /** Number of seats in the game. */
  seats(state: S): number;
  /** The seat a decision is made by, or null when it names none (then only the host may make it). */
  decisionSeat(decision: unknown): number | null;
  /** Events only one seat may see name it; null = public. */
  eventAudience(event: unknown): number | null;
}
