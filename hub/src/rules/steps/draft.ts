// Second edition: the loot draft, one pick at a time clockwise from the Godfather among the standing, unwounded
// players, until the table is empty and the New Godfather token taken.
import { copyPlayer, copyState } from "../copy.js";
import { handSize } from "../players.js";
import { rotateFrom } from "../seats.js";
import {
  BULLET_INDEX,
  type Bullet,
  type GameEvent,
  LOOT_CARDS,
  type LootCard,
  type Player,
  type Seat,
  type State,
} from "../types.js";
import { type DecisionOf, type DecisionRule, fail, type Refused, type StepRule, type Taken } from "./rule.js";

/**
 * A clip picked in the draft (into `s` and `q`): a bang from the discard pile into the hand, and a card of the
 * player's choice out of it; lost when the pile holds no bang. The pick's effect, or why it is refused.
 */
function pickClip(
  state: State,
  s: State,
  seat: Seat,
  who: string,
  p: Player,
  q: Player,
  discard: Bullet | undefined,
): string | Refused {
  const pile = state.discardPile;
  s.lootUsed++;
  if (pile[1] === 0) {
    // lost: a discard named with it is ignored (the picker could not know the pile held no bang)
    if (discard !== undefined && discard !== "bang" && discard !== "click")
      return fail("bad-decision", seat, `unknown bullet card ${JSON.stringify(discard)}`);
    return "lost";
  }
  const h: [number, number, number] = [p.hand[0], p.hand[1] + 1, p.hand[2]];
  const nextPile: [number, number, number] = [pile[0], pile[1] - 1, pile[2]];
  if (handSize(p.hand) === 0) {
    if (discard !== undefined) return fail("bad-decision", seat, `${who} holds no card to discard`);
  } else {
    if (discard === undefined)
      return fail("bad-decision", seat, `${who} must name the card the clip makes them discard`);
    if (discard !== "bang" && discard !== "click")
      return fail("bad-decision", seat, `unknown bullet card ${JSON.stringify(discard)}`);
    const i = BULLET_INDEX[discard];
    if (p.hand[i] === 0) return fail("card-used", seat, `${who} holds no ${discard} card to discard`);
    h[i]--;
    nextPile[i]++;
  }
  q.hand = h;
  s.discardPile = nextPile;
  return "takes a bang"; // which card they discard stays secret
}

function pick(state: State, d: DecisionOf<"pick">, who: string, p: Player): Taken | Refused {
  const { seat, card, discard } = d;
  if (state.edition !== "second") return fail("not-allowed", seat, "there is no loot draft in edition classic");
  if (state.step !== "draft" || state.draft === null)
    return fail("wrong-step", seat, `there is no draft now (step ${state.step})`);
  const draft = state.draft;
  const turn = draft.order[draft.at]!;
  if (turn !== seat) return fail("not-your-turn", seat, `it is ${state.names[turn]}'s turn to pick, not ${who}'s`);
  const s = copyState(state);
  const ev: GameEvent[] = [];
  if (card === "godfather") {
    if (discard !== undefined) return fail("bad-decision", seat, "only a clip comes with a card to discard");
    if (state.token !== null)
      return fail("not-on-table", seat, `${state.names[state.token]} already took the New Godfather token`);
    s.token = seat;
    ev.push({ type: "pick", seat, card });
  } else {
    if (!LOOT_CARDS.includes(card)) return fail("bad-decision", seat, `unknown loot card ${JSON.stringify(card)}`);
    const at = state.cards.indexOf(card);
    if (at < 0) return fail("not-on-table", seat, `there is no ${card} on the table`);
    const q: Player = copyPlayer(p);
    let effect: string | undefined;
    if (card === "clip") {
      const r = pickClip(state, s, seat, who, p, q, discard);
      if (typeof r !== "string") return r;
      effect = r;
    } else {
      if (discard !== undefined) return fail("bad-decision", seat, "only a clip comes with a card to discard");
      if (card === "first-aid") {
        effect = `heals ${p.wounds}`;
        q.wounds = 0;
        s.lootUsed++;
      } else if (card === "painting") {
        q.paintings++;
      } else if (card.startsWith("cash:")) {
        q.cashCards++;
        q.money += Number(card.slice(5));
      } else {
        q.diamonds++;
        q.diamondValue += Number(card.slice(8));
      }
    }
    const cards = state.cards.slice();
    cards.splice(at, 1);
    s.cards = cards;
    const players = state.players.slice();
    players[seat] = q;
    s.players = players;
    ev.push(effect === undefined ? { type: "pick", seat, card } : { type: "pick", seat, card, effect });
  }
  // the draft ends with the last card and the token taken
  if (s.cards.length === 0 && s.token !== null) return { s, ev, settles: 1 };
  s.draft = { order: draft.order, at: (draft.at + 1) % draft.order.length };
  return { s, ev, settles: 0 };
}

export const PICK: DecisionRule<"pick"> = {
  made: "host",
  apply: pick,
  bot(state, o, rng) {
    const seat = o.seat;
    const p = state.players[seat]!;
    const options = state.cards.length + (state.token === null ? 1 : 0);
    const i = rng.int(options);
    if (i === state.cards.length) return { type: "pick", seat, card: "godfather" };
    const card: LootCard = state.cards[i]!;
    // with the pile empty of bangs the clip is lost: a picker who names a discard anyway (they cannot know) is fine
    if (card === "clip" && p.hand[1] + p.hand[2] > 0 && (state.discardPile[1] > 0 || rng.chance(0.5))) {
      return { type: "pick", seat, card, discard: rng.int(p.hand[1] + p.hand[2]) < p.hand[1] ? "bang" : "click" };
    }
    return { type: "pick", seat, card };
  },
  scenario: null,
};

export const DRAFT_STEP: StepRule = {
  editions: ["second"],
  decision: "pick",
  oneAtATime: true,
  turns: true,
  waitingShown: true,
  enter(s) {
    const drafters: Seat[] = [];
    s.players.forEach((p, seat) => {
      if (p.alive && s.courage[seat] !== 1 && s.hurt[seat] === 0) drafters.push(seat);
    });
    s.sharers = drafters;
    if (drafters.length === 0) return 0;
    s.draft = { order: rotateFrom(drafters, s.godfather, s.names.length), at: 0 };
    return 1;
  },
  leave(s) {
    s.draft = null;
  },
  owed(s, out) {
    if (s.draft) out.push({ seat: s.draft.order[s.draft.at]!, decision: "pick" });
  },
};
