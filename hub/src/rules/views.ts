// What each player may know, and what the table display shows. Never the deck order, never another
// player's hand, card, hidden power or role; aims and lie-downs only once everyone has committed to them.

import type { PlayerView, PublicPlayer, PublicView } from "@cng/protocol";
import { owedDecisions } from "./pending.js";
import { DEADLY_WOUNDS, handSize } from "./players.js";
import { deadlyWounds } from "./powers.js";
import { money, scores } from "./score.js";
import { STEP_RULES } from "./steps/index.js";
import type { Bill, Bullet, Seat, State } from "./types.js";

// the views' shapes are the table contract's: what the engine computes here is what table/state and
// player/<n>/view carry
export type { PlayerView, PublicPlayer, PublicView };

function billsList(counts: readonly number[]): Bill[] {
  const out: Bill[] = [];
  for (let i = 0; i < counts[2]!; i++) out.push(20000);
  for (let i = 0; i < counts[1]!; i++) out.push(10000);
  for (let i = 0; i < counts[0]!; i++) out.push(5000);
  return out;
}

export function publicView(state: State): PublicView {
  const owed = owedDecisions(state);
  const shown = state.step !== "over" && STEP_RULES[state.step].waitingShown;
  const waiting = new Set(shown ? owed.map((o) => o.seat) : []);
  const aimsShown = state.step !== "bullet" && state.step !== "aim";
  const courageShown = state.step !== "courage";
  const score = scores(state);
  const players = state.players.map((p, seat): PublicPlayer => {
    const v: PublicPlayer = {
      seat,
      name: state.names[seat]!,
      alive: p.alive,
      wounds: p.wounds,
      // a secret power stays secret: an Unbreakable not yet revealed dies, as far as anyone knows, at DEADLY_WOUNDS
      deadly: p.revealed || state.over ? deadlyWounds(p) : DEADLY_WOUNDS,
      shame: p.shame,
      money: money(state, seat),
      cards: handSize(p.hand),
      power: p.revealed || state.over ? p.power : null,
      role: state.over ? p.role : null,
      hurt: state.hurt[seat] ?? 0,
      waiting: waiting.has(seat),
    };
    if (state.over) v.score = score[seat]!;
    if (state.edition === "second") v.loot = { cash: p.cashCards, diamonds: p.diamonds, paintings: p.paintings };
    if (p.gun2 !== null) v.gun2Cards = handSize(p.gun2);
    const a = state.aim[seat] ?? -2;
    if (aimsShown && a !== -2) v.aim = a >= 0 ? a : null;
    const a2 = state.aim2[seat] ?? -2;
    if (aimsShown && a2 !== -2) v.aim2 = a2 >= 0 ? a2 : null;
    const c = state.courage[seat] ?? -1;
    if (courageShown && c !== -1) v.lyingDown = c === 1;
    return v;
  });
  const view: PublicView = {
    edition: state.edition,
    round: state.round,
    step: state.step,
    over: state.over,
    winners: state.winners.slice(),
    godfather: state.godfather,
    table:
      state.edition === "classic"
        ? { bills: billsList(state.bills) }
        : { cards: state.cards.slice(), token: state.token },
    deckLeft: state.deck.length - state.deckPos,
    discardPile: handSize(state.discardPile),
    sharers: state.sharers.slice(),
    turn: state.step === "draft" || state.step === "phone" ? (owed[0]?.seat ?? null) : null,
    players,
  };
  if (state.cop) view.switchboard = state.switchboard;
  return view;
}

function handRecord(h: readonly number[]): Record<Bullet, number> {
  return { bbb: h[0]!, bang: h[1]!, click: h[2]! };
}

export function playerView(state: State, seat: Seat): PlayerView {
  const p = state.players[seat];
  if (p === undefined) throw new RangeError(`no seat ${seat}`);
  const view = publicView(state);
  return {
    ...view,
    me: {
      seat,
      hand: handRecord(p.hand),
      gun2: p.gun2 === null ? null : handRecord(p.gun2),
      card: state.card[seat] ?? null,
      card2: state.card2[seat] ?? null,
      power: p.power,
      role: p.role,
    },
  };
}
