// Classic powers: the Specialist, after her bbb was used, takes it back (naming an unused card to discard), or
// keeps her power for a later bbb.
import { copyState } from "../copy.js";
import { BULLET_INDEX, type Bullet, type GameEvent } from "../types.js";
import { type DecisionRule, fail, type StepRule } from "./rule.js";

export const SPECIALIST: DecisionRule<"specialist"> = {
  made: "host",
  apply(state, d, who, p) {
    const { seat, discard } = d;
    if (state.step !== "specialist" || !state.specialists.includes(seat))
      return fail("wrong-step", seat, `${who} has no Specialist discard to make now`);
    if (d.use === false) {
      // her choice not to: the power stays hers, unseen, for a later bbb
      const s = copyState(state);
      s.specialists = state.specialists.filter((x) => x !== seat);
      return { s, settles: 1 };
    }
    const spare = p.hand[1] + p.hand[2];
    if (discard === null) {
      if (spare > 0) return fail("bad-decision", seat, `${who} must name the unused card to discard (bang or click)`);
    } else if (discard !== "bang" && discard !== "click") {
      return fail("bad-decision", seat, `the Specialist discards a bang or a click, not ${JSON.stringify(discard)}`);
    } else if (p.hand[BULLET_INDEX[discard]] === 0) {
      return fail("card-used", seat, `${who} has no unused ${discard} card to discard`);
    }
    const h: [number, number, number] = [p.hand[0] + 1, p.hand[1], p.hand[2]];
    if (discard !== null) h[BULLET_INDEX[discard]]--;
    const s = copyState(state);
    const players = state.players.slice();
    players[seat] = { ...p, hand: h, spent: true, revealed: true };
    s.players = players;
    s.specialists = state.specialists.filter((x) => x !== seat);
    const ev: GameEvent[] = [
      { type: "power-revealed", seat, power: p.power! },
      { type: "specialist", seat },
    ];
    return { s, ev, settles: 1 };
  },
  bot(state, o, rng) {
    const seat = o.seat;
    const p = state.players[seat]!;
    // her choice: sometimes she keeps the power for later
    if (rng.chance(0.25)) return { type: "specialist", seat, discard: null, use: false };
    const spare = p.hand[1] + p.hand[2];
    if (spare === 0) return { type: "specialist", seat, discard: null };
    return { type: "specialist", seat, discard: rng.int(spare) < p.hand[1] ? "bang" : "click" };
  },
  scenario: {
    fields: [{ key: "specialist", kind: "map" }],
    read(_state, o, name, round) {
      // no entry: she does not use it (her choice); an entry names the card to discard (null: none left)
      const m = round.map("specialist");
      const tag = `specialist:${name}`;
      if (!Object.hasOwn(m, name)) return [{ type: "specialist", seat: o.seat, discard: null, use: false }, tag];
      return [{ type: "specialist", seat: o.seat, discard: m[name] as Bullet | null }, tag];
    },
  },
};

export const SPECIALIST_STEP: StepRule = {
  editions: ["classic"],
  decision: "specialist",
  oneAtATime: false,
  turns: false,
  waitingShown: false,
  enter(s) {
    s.specialists = s.specialists.filter((seat) => s.players[seat]!.alive);
    return s.specialists.length;
  },
  owed(s, out) {
    for (const seat of s.specialists) out.push({ seat, decision: "specialist" });
  },
};
