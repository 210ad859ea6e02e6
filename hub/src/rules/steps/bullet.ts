// The secret card: every living player picks one (a second gun's too); a revealed Cunning picks after every aim,
// in a step of her own.
import { copyState } from "../copy.js";
import { hasGun2 } from "../players.js";
import { picksLast } from "../powers.js";
import { BULLET_INDEX, BULLETS, type Bullet, type Seat, type State } from "../types.js";
import { type DecisionRule, fail, perGunStep, randomCard } from "./rule.js";

export const BULLET: DecisionRule<"bullet"> = {
  made: "cards",
  apply(state, d, who, p) {
    const seat = d.seat;
    const card = d.card;
    const gun2 = d.gun === 2;
    if (state.step === "bullet") {
      if (picksLast(p)) return fail("wrong-step", seat, `${who} is the Cunning and picks a card after every aim`);
    } else if (state.step !== "cunning-bullet" || !picksLast(p)) {
      return fail("wrong-step", seat, `${who} cannot pick a bullet card now (step ${state.step})`);
    }
    if (!(card in BULLET_INDEX) || (card === "bbb" && state.edition === "second"))
      return fail("bad-decision", seat, `unknown ${state.edition} bullet card ${JSON.stringify(card)}`);
    const hand = gun2 ? p.gun2 : p.hand;
    if (gun2 && !hasGun2(p)) return fail("not-allowed", seat, `${who} has no second gun with cards`);
    const picked = gun2 ? state.card2 : state.card;
    if (picked[seat] !== null) return fail("already-decided", seat, `${who} already picked a card this round`);
    if (hand![BULLET_INDEX[card]] === 0)
      return fail("card-used", seat, `${who} has no unused ${card} card${gun2 ? " for the second gun" : ""}`);
    const s = copyState(state);
    const next = picked.slice();
    next[seat] = card;
    if (gun2) s.card2 = next;
    else s.card = next;
    return { s, settles: 1 };
  },
  bot(state, o, rng) {
    const p = state.players[o.seat]!;
    const card = BULLETS[randomCard(o.gun === 2 ? p.gun2! : p.hand, rng)]!;
    return o.gun === 2 ? { type: "bullet", seat: o.seat, card, gun: 2 } : { type: "bullet", seat: o.seat, card };
  },
  scenario: {
    fields: [
      { key: "bullets", kind: "map" },
      { key: "bullets2", kind: "map" },
    ],
    read(_state, o, name, round) {
      const field = o.gun === 2 ? "bullets2" : "bullets";
      const m = round.map(field);
      if (!Object.hasOwn(m, name)) throw round.missing(name, `${field}: no card for ${name}, who is alive`);
      const card = m[name] as Bullet;
      const seat = o.seat;
      return [
        o.gun === 2 ? { type: "bullet", seat, card, gun: 2 } : { type: "bullet", seat, card },
        `${field}:${name}`,
      ];
    },
  },
};

/** The steps: everyone's, or (late) the ones whose power moves the decision after the others'. */
const openBullet = (s: State, seat: Seat, gun: 1 | 2) => (gun === 2 ? s.card2 : s.card)[seat] === null;
export const BULLET_STEP = perGunStep("bullet", false, picksLast, openBullet);
export const CUNNING_BULLET_STEP = perGunStep("bullet", true, picksLast, openBullet);
