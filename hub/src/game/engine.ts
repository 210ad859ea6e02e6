// What the game service needs from the rules engine, and the real one (hub/src/rules) behind it. The session, the
// history and `cng replay` are written against `GameEngine`, typed on the rules' own state and events: the hub has
// one engine, and nothing casts its state back.
import {
  apply,
  type Decision,
  type GameEvent,
  newGame,
  type PlayerView,
  type PublicView,
  playerView,
  publicView,
  type Seat,
  type SetupOptions,
  type State,
} from "../rules/index.js";
import { describe } from "../rules/scenario.js";

export interface EngineError {
  code: string;
  message: string;
}

export type SetupResult = { ok: true; state: State } | { ok: false; error: EngineError };
export type ApplyOutcome = { ok: true; state: State; events: readonly GameEvent[] } | { ok: false; error: EngineError };

/** What a list of games shows of one (and how a history tells rounds apart). */
export interface GameSummary {
  edition: string;
  players: string[];
  round: number;
  over: boolean;
  winners: Seat[];
}

export interface GameEngine {
  /** Builds the first state from setup options (as given to `game.new`), or says why not. */
  setup(options: unknown): SetupResult;
  /** One decision, checked by the engine; the state passed in is never changed. */
  apply(state: State, decision: unknown): ApplyOutcome;
  /** What everyone may see. */
  publicView(state: State): PublicView;
  /** What one seat may see. */
  playerView(state: State, seat: Seat): PlayerView;
  /** The result in the docs/scenarios.md output shape. */
  output(state: State): unknown;
  /** Edition, names, round, whether it is over and who won: all public. */
  summary(state: State): GameSummary;
  /** Number of seats in the game. */
  seats(state: State): number;
  /** The seat a decision is made by, or null when it names none (then only the host may make it). */
  decisionSeat(decision: unknown): Seat | null;
  /** Events only one seat may see name it; null = public. */
  eventAudience(event: GameEvent): Seat | null;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === "object" && !Array.isArray(x);
}

export const rulesEngine: GameEngine = {
  setup(options) {
    if (!isObject(options)) return { ok: false, error: { code: "bad-options", message: "setup must be an object" } };
    try {
      const r = newGame(options as unknown as SetupOptions);
      return r.ok ? { ok: true, state: r.state } : { ok: false, error: r.error };
    } catch (e) {
      return { ok: false, error: { code: "bad-options", message: `setup refused: ${(e as Error).message}` } };
    }
  },
  apply(state, decision) {
    if (!isObject(decision)) return { ok: false, error: { code: "bad-decision", message: "a decision is an object" } };
    try {
      const r = apply(state, decision as unknown as Decision);
      return r.ok ? { ok: true, state: r.state, events: r.events } : { ok: false, error: r.error };
    } catch (e) {
      // The engine should never throw; if it does, the decision is refused and the state kept.
      return { ok: false, error: { code: "bad-decision", message: `refused: ${(e as Error).message}` } };
    }
  },
  publicView: (s) => publicView(s),
  playerView: (s, seat) => playerView(s, seat),
  // the docs/scenarios.md output shape, as `cng rules play` prints it
  output: (s) => describe(s),
  summary: (s) => ({
    edition: s.edition,
    players: s.names.slice(),
    round: s.round,
    over: s.over,
    winners: s.winners.slice(),
  }),
  seats: (s) => s.players.length,
  decisionSeat(d) {
    return isObject(d) && typeof d.seat === "number" ? d.seat : null;
  },
  eventAudience(ev) {
    const to = (ev as { to?: unknown }).to;
    return typeof to === "number" ? to : null;
  },
};
