// The aim: every living player's target (a second gun's too); a revealed Kid aims after everyone else, in a step of
// his own; in the second edition the player the Godfather orders re-aims.
import { copyState } from "../copy.js";
import { hasGun2 } from "../players.js";
import { aimsLast } from "../powers.js";
import type { Seat, State } from "../types.js";
import { type DecisionRule, fail, isSeat, perGunStep, randomTarget, type StepRule } from "./rule.js";

export const AIM: DecisionRule<"aim"> = {
  made: "guns",
  apply(state, d, who, p) {
    const { seat, target } = d;
    const gun2 = d.gun === 2;
    const step = state.step;
    if (step === "reaim") {
      if (seat !== state.ordered || gun2)
        return fail("wrong-step", seat, `only ${state.names[state.ordered]} re-aims on the Godfather's order`);
    } else if (step === "aim") {
      if (aimsLast(p)) return fail("wrong-step", seat, `${who} is the Kid and aims after everyone else`);
    } else if (step !== "kid-aim" || !aimsLast(p)) {
      return fail("wrong-step", seat, `${who} cannot aim now (step ${step})`);
    }
    if (gun2 && !hasGun2(p)) return fail("not-allowed", seat, `${who} has no second gun in play`);
    if (target !== null) {
      if (!isSeat(state, target)) return fail("bad-target", seat, `${who} aims at no seat ${JSON.stringify(target)}`);
      if (target === seat) return fail("self-aim", seat, `${who} cannot aim at themselves`);
      if (!state.players[target]!.alive)
        return fail("bad-target", seat, `${who} aims at ${state.names[target]}, who is dead`);
    }
    const aims = gun2 ? state.aim2 : state.aim;
    const s = copyState(state);
    if (step === "reaim") {
      if (target === null)
        return fail("bad-target", seat, `${who} must aim at another player on the Godfather's order`);
      if (target === state.aim[seat])
        return fail(
          "bad-target",
          seat,
          `${who} must change target on the Godfather's order, not aim at ${state.names[target]} again`,
        );
    } else if (aims[seat] !== -2) {
      return fail("already-decided", seat, `${who} already aimed this round`);
    }
    const next = aims.slice();
    next[seat] = target ?? -1;
    if (gun2) s.aim2 = next;
    else s.aim = next;
    return { s, settles: 1 };
  },
  bot(state, o, rng, style) {
    const seat = o.seat;
    if (state.step === "reaim") return { type: "aim", seat, target: randomTarget(state, seat, rng, state.aim[seat]) };
    const target = rng.chance(style.aimNobody) ? null : randomTarget(state, seat, rng);
    return o.gun === 2 ? { type: "aim", seat, target, gun: 2 } : { type: "aim", seat, target };
  },
  scenario: {
    fields: [
      { key: "aims", kind: "map" },
      { key: "aims2", kind: "map" },
    ],
    read(state, o, name, round) {
      const seat = o.seat;
      const target = (v: unknown, what: string) => (v === null ? null : round.seatOf(v, what));
      if (state.step === "reaim")
        return [{ type: "aim", seat, target: target(round.privilege?.aim ?? null, "privilege.aim") }, "privilege"];
      const field = o.gun === 2 ? "aims2" : "aims";
      const m = round.map(field);
      if (!Object.hasOwn(m, name))
        throw round.missing(name, `${field}: no aim for ${name}, who is alive (null aims at nobody)`);
      const t = target(m[name], field);
      return [
        o.gun === 2 ? { type: "aim", seat, target: t, gun: 2 } : { type: "aim", seat, target: t },
        `${field}:${name}`,
      ];
    },
  },
};

/** The steps: everyone's, or (late) the ones whose power moves the decision after the others'. */
const openAim = (s: State, seat: Seat, gun: 1 | 2) => (gun === 2 ? s.aim2 : s.aim)[seat] === -2;
export const AIM_STEP = perGunStep("aim", false, aimsLast, openAim);
export const KID_AIM_STEP = perGunStep("aim", true, aimsLast, openAim);

/** Second edition: the player the Godfather ordered re-aims (skipped when he ordered no one). */
export const REAIM_STEP: StepRule = {
  editions: ["second"],
  decision: "aim",
  oneAtATime: true,
  turns: false,
  waitingShown: true,
  enter: (s) => (s.ordered >= 0 ? 1 : 0),
  owed(s, out) {
    out.push({ seat: s.ordered, decision: "aim" });
  },
};
