// What the game service needs from the rules engine, and the real one (hub/src/rules) behind it. The session, the
// history and `cng replay` are written against `GameEngine`, typed on the rules' own state and events: the hub has
// one engine, and nothing casts its state back. It takes setups and decisions already decoded (from the network or
// the log: decodeLogged), and answers with the protocol's "ok or a coded error".
import {
  type CodedError,
  type Decision,
  decodeDecision,
  decodeGameSetup,
  type GameResult,
  type GameSetup,
  type Result,
  refuse,
} from "@cng/protocol";
import {
  apply,
  type GameEvent,
  newGame,
  type PlayerView,
  type PublicView,
  playerView,
  publicView,
  type Seat,
  type State,
} from "../rules/index.js";
import { describe } from "../rules/scenario.js";

/** A decision taken in: the next state and what happened. */
export interface Applied {
  state: State;
  events: readonly GameEvent[];
}

/** What a list of games shows of one (and how a history tells rounds apart). */
export interface GameSummary {
  edition: string;
  players: string[];
  round: number;
  over: boolean;
  winners: Seat[];
}

export interface GameEngine {
  /** Builds the first state from a setup, or says why not. */
  setup(options: GameSetup): Result<State>;
  /** One decision, checked by the engine; the state passed in is never changed. */
  apply(state: State, decision: Decision): Result<Applied>;
  /** What everyone may see. */
  publicView(state: State): PublicView;
  /** What one seat may see. */
  playerView(state: State, seat: Seat): PlayerView;
  /** The result in the docs/scenarios.md output shape. */
  output(state: State): GameResult;
  /** Edition, names, round, whether it is over and who won: all public. */
  summary(state: State): GameSummary;
  /** Number of seats in the game. */
  seats(state: State): number;
  /** Events only one seat may see name it; null = public. */
  eventAudience(event: GameEvent): Seat | null;
}

function coded(e: CodedError): CodedError {
  return { code: e.code, message: e.message };
}

export const rulesEngine: GameEngine = {
  setup(options) {
    try {
      const r = newGame(options);
      return r.ok ? { ok: true, value: r.state } : { ok: false, error: coded(r.error) };
    } catch (e) {
      return refuse("bad-options", `setup refused: ${(e as Error).message}`);
    }
  },
  apply(state, decision) {
    try {
      const r = apply(state, decision);
      return r.ok ? { ok: true, value: { state: r.state, events: r.events } } : { ok: false, error: coded(r.error) };
    } catch (e) {
      // The engine should never throw; if it does, the decision is refused and the state kept.
      return refuse("bad-decision", `refused: ${(e as Error).message}`);
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
  eventAudience(ev) {
    const to = (ev as { to?: unknown }).to;
    return typeof to === "number" ? to : null;
  },
};

/** A game's logged setup, decoded again before the engine sees it (the log is JSON on disk). */
export function decodeLoggedSetup(setup: unknown): Result<GameSetup> {
  const d = decodeGameSetup(setup);
  return d.ok ? d : refuse("bad-options", `the logged setup does not decode: ${d.error.message}`);
}

/** A logged decision, decoded again before the engine sees it. */
export function decodeLogged(decision: unknown): Result<Decision> {
  const d = decodeDecision(decision);
  return d.ok ? d : refuse("bad-decision", `the logged decision does not decode: ${d.error.message}`);
}
