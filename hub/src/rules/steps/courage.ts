// The courage count: every living player lies down or stays; then the guns still up fire (resolve.ts).
import { copyState } from "../copy.js";
import { resolveHoldUp } from "../resolve.js";
import { type DecisionRule, fail, type StepRule } from "./rule.js";

export const COURAGE: DecisionRule<"courage"> = {
  made: "guns",
  apply(state, d, who) {
    const seat = d.seat;
    if (state.step !== "courage")
      return fail("wrong-step", seat, `${who} cannot lie down or stay now (step ${state.step})`);
    if (state.courage[seat] !== -1) return fail("already-decided", seat, `${who} already chose to lie down or stay`);
    const s = copyState(state);
    const next = state.courage.slice();
    next[seat] = d.lieDown ? 1 : 0;
    s.courage = next;
    return { s, settles: 1 };
  },
  bot: (_state, o, rng, style) => ({ type: "courage", seat: o.seat, lieDown: rng.chance(style.lieDown) }),
  scenario: {
    fields: [{ key: "lieDown", kind: "list" }],
    read: (_state, o, name, round) => [
      { type: "courage", seat: o.seat, lieDown: round.list("lieDown").includes(name) },
      `lieDown:${name}`,
    ],
  },
};

export const COURAGE_STEP: StepRule = {
  editions: ["classic", "second"],
  decision: "courage",
  oneAtATime: false,
  turns: false,
  waitingShown: true,
  enter(s) {
    let owed = 0;
    for (const p of s.players) if (p.alive) owed++;
    return owed;
  },
  leave: resolveHoldUp,
  owed(s, out) {
    for (let seat = 0; seat < s.players.length; seat++)
      if (s.players[seat]!.alive && s.courage[seat] === -1) out.push({ seat, decision: "courage" });
  },
};
