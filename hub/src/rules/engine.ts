// apply(state, decision): checks one player's decision against the rules and returns the next state and the
// events, or a typed error and no change. The input state is never mutated: a decision copies the state
// shallowly and replaces only the arrays it changes. Each decision's check and effect is its entry's (steps/).
import { goFrom } from "./round.js";
import { DECISION_RULES } from "./steps/index.js";
import { type DecisionOf, fail, isSeat, type Taken } from "./steps/rule.js";
import type { ApplyResult, Decision, DecisionType, GameEvent, Player, State } from "./types.js";

const NO_EVENTS: readonly GameEvent[] = Object.freeze([]);

/** The decisions it settles are no longer owed; when none is left the round moves on by itself. */
function settle(step: State["step"], t: Taken): ApplyResult {
  const s = t.s;
  if (t.settles > 0) {
    s.owed -= t.settles;
    if (s.owed <= 0) {
      const events = t.ev ?? [];
      goFrom(s, step, events);
      return { ok: true, state: s, events };
    }
  }
  return { ok: true, state: s, events: t.ev ?? NO_EVENTS };
}

function applyKind<K extends DecisionType>(state: State, d: DecisionOf<K>, who: string, p: Player): ApplyResult {
  const rule = Object.hasOwn(DECISION_RULES, d.type) ? DECISION_RULES[d.type as K] : undefined;
  if (rule === undefined)
    return fail("bad-decision", d.seat, `unknown decision type ${JSON.stringify((d as { type: unknown }).type)}`);
  const r = rule.apply(state, d, who, p);
  return "ok" in r ? r : settle(state.step, r);
}

export function apply(state: State, d: Decision): ApplyResult {
  if (d === null || typeof d !== "object") return fail("bad-decision", null, "a decision must be an object");
  const seat = d.seat;
  if (!isSeat(state, seat)) return fail("bad-decision", null, `no player sits at seat ${JSON.stringify(seat)}`);
  const who = state.names[seat]!;
  if (state.over) return fail("game-over", seat, `the game is over; ${who} cannot decide anything`);
  const p = state.players[seat]!;
  if (!p.alive) return fail("dead-player", seat, `${who} is dead and takes no further part`);
  return applyKind(state, d, who, p);
}
