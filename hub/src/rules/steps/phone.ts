// Classic cop variant: the phone passes among the round's sharers, one at a time; the cop may flip it, and three
// flips alert the reinforcements.
import { copyState } from "../copy.js";
import { rotateFrom } from "../seats.js";
import { type DecisionRule, fail, type StepRule } from "./rule.js";

export const PHONE: DecisionRule<"phone"> = {
  made: "host",
  apply(state, d, who, p) {
    const { seat, flip } = d;
    if (state.step !== "phone" || state.phone === null) {
      const why = state.cop && state.switchboard >= 3 ? ": the reinforcements are already alerted" : "";
      return fail("wrong-step", seat, `the phone is not passing now${why}`);
    }
    const ph = state.phone;
    if (ph.order[ph.at] !== seat)
      return fail("not-your-turn", seat, `the phone is with ${state.names[ph.order[ph.at]!]}, not ${who}`);
    if (flip && p.role !== "cop")
      return fail("not-allowed", seat, `only the cop can flip the phone, and ${who} is not the cop`);
    if (flip && ph.flipped) return fail("not-allowed", seat, "the phone was already flipped this round");
    const s = copyState(state);
    s.phone = { order: ph.order, at: ph.at + 1, flipped: ph.flipped || flip };
    return { s, settles: 1 };
  },
  bot(state, o, rng) {
    return { type: "phone", seat: o.seat, flip: state.players[o.seat]!.role === "cop" && rng.chance(0.5) };
  },
  scenario: {
    fields: [{ key: "phone", kind: "list" }],
    read: (_state, o, name, round) => [
      { type: "phone", seat: o.seat, flip: round.list("phone").includes(name) },
      `phone:${name}`,
    ],
  },
};

export const PHONE_STEP: StepRule = {
  editions: ["classic"],
  decision: "phone",
  oneAtATime: true,
  turns: true,
  waitingShown: true,
  enter(s) {
    if (!s.cop || s.round > 6 || s.switchboard >= 3 || s.sharers.length === 0) return 0;
    const order = rotateFrom(s.sharers, s.godfather, s.names.length);
    s.phone = { order, at: 0, flipped: false };
    return order.length;
  },
  leave(s, ev) {
    if (s.phone === null) return;
    if (s.phone.flipped) s.switchboard++;
    ev.push({ type: "phone", flips: s.switchboard, alerted: s.switchboard >= 3 });
    s.phone = null;
  },
  owed(s, out) {
    if (s.phone) out.push({ seat: s.phone.order[s.phone.at]!, decision: "phone" });
  },
};
