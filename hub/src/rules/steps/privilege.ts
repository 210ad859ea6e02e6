// Second edition: the Godfather may order one player to re-aim (the re-aim is the aim's, aim.ts).
import { copyState } from "../copy.js";
import { type DecisionRule, fail, isSeat, randomTarget, type StepRule } from "./rule.js";

export const PRIVILEGE: DecisionRule<"privilege"> = {
  made: "guns",
  apply(state, d, who) {
    const { seat, order } = d;
    if (state.edition !== "second")
      return fail("not-allowed", seat, "there is no Godfather's privilege in edition classic");
    if (state.step !== "privilege")
      return fail("wrong-step", seat, `the Godfather's privilege is not now (step ${state.step})`);
    if (seat !== state.godfather) return fail("not-your-turn", seat, `${who} is not the Godfather`);
    const s = copyState(state);
    if (order !== null) {
      if (!isSeat(state, order)) return fail("bad-target", seat, `no player sits at seat ${JSON.stringify(order)}`);
      if (order === seat) return fail("bad-target", seat, `${who} cannot order themselves to re-aim`);
      if (!state.players[order]!.alive) return fail("bad-target", seat, `${state.names[order]} is dead`);
      const old = state.aim[order];
      const choice = state.players.some((q, t) => q.alive && t !== order && t !== old);
      if (!choice) return fail("not-allowed", seat, `${state.names[order]} has no other living player to aim at`);
      s.ordered = order;
    }
    return { s, settles: 1 };
  },
  bot(state, o, rng) {
    const seat = o.seat;
    if (rng.chance(0.5)) return { type: "privilege", seat, order: null };
    const order = randomTarget(state, seat, rng);
    if (order === null) return { type: "privilege", seat, order: null };
    const old = state.aim[order];
    const has = state.players.some((q, t) => q.alive && t !== order && t !== old);
    return { type: "privilege", seat, order: has ? order : null };
  },
  scenario: {
    // `privilege` is {"player": …, "aim": …} or null: the order here, the aim at the re-aim (aim.ts)
    fields: [],
    read(_state, o, _name, round) {
      const p = round.privilege;
      return [
        { type: "privilege", seat: o.seat, order: p === null ? null : round.seatOf(p.player, "privilege") },
        "privilege",
      ];
    },
  },
};

export const PRIVILEGE_STEP: StepRule = {
  editions: ["second"],
  decision: "privilege",
  oneAtATime: true,
  turns: false,
  waitingShown: true,
  enter: () => 1,
  owed(s, out) {
    out.push({ seat: s.godfather, decision: "privilege" });
  },
};
