// The real rules engine (hub/src/rules) behind the hub's GameEngine interface.
import {
  apply,
  type Decision,
  newGame,
  playerView,
  publicView,
  type SetupOptions,
  type State,
} from "../rules/index.js";
import { describe } from "../rules/scenario.js";
import type { GameEngine } from "./engine.js";

function isObject(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === "object" && !Array.isArray(x);
}

export const rulesEngine: GameEngine<State> = {
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
    return isObject(ev) && typeof ev.to === "number" ? ev.to : null;
  },
};
