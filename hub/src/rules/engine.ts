// apply(state, decision): checks one player's decision against the rules and returns the next state and the
// events, or a typed error and no change. The input state is never mutated: a decision copies the state
// shallowly and replaces only the arrays it changes.
import { copyPlayer, copyState } from "./copy.js";
import { handSize, hasGun2 } from "./players.js";
import { canTakeGun, chosenReveal } from "./powers.js";
import { aimsLast, goFrom, picksLast } from "./round.js";
import {
  type ApplyResult,
  BULLET_INDEX,
  type Bullet,
  type Decision,
  type GameEvent,
  LOOT_CARDS,
  type LootCard,
  type Player,
  type PowerId,
  type RuleErrorCode,
  type Seat,
  type State,
} from "./types.js";

const NO_EVENTS: readonly GameEvent[] = Object.freeze([]);

function fail(code: RuleErrorCode, player: Seat | null, message: string): ApplyResult {
  return { ok: false, error: { code, player, message } };
}

function done(s: State, ev: readonly GameEvent[]): ApplyResult {
  return { ok: true, state: s, events: ev };
}

/** One fewer decision owed; when none is left the round moves on by itself. */
function settle(s: State, step: State["step"], ev?: GameEvent[]): ApplyResult {
  s.owed--;
  if (s.owed > 0) return done(s, ev ?? NO_EVENTS);
  const events = ev ?? [];
  goFrom(s, step, events);
  return done(s, events);
}

function isSeat(state: State, x: unknown): x is Seat {
  return typeof x === "number" && Number.isInteger(x) && x >= 0 && x < state.names.length;
}

export function apply(state: State, d: Decision): ApplyResult {
  if (d === null || typeof d !== "object") return fail("bad-decision", null, "a decision must be an object");
  const seat = d.seat;
  if (!isSeat(state, seat)) return fail("bad-decision", null, `no player sits at seat ${JSON.stringify(seat)}`);
  const who = state.names[seat]!;
  if (state.over) return fail("game-over", seat, `the game is over; ${who} cannot decide anything`);
  const p = state.players[seat]!;
  if (!p.alive) return fail("dead-player", seat, `${who} is dead and takes no further part`);
  switch (d.type) {
    case "bullet":
      return bullet(state, seat, who, p, d.card, d.gun === 2);
    case "aim":
      return aim(state, seat, who, p, d.target, d.gun === 2);
    case "courage":
      return courage(state, seat, who, d.lieDown);
    case "reveal":
      return reveal(state, seat, who, p, d.power);
    case "privilege":
      return privilege(state, seat, who, d.order);
    case "doesnt-hurt":
      return doesntHurt(state, seat, who, d.use);
    case "phone":
      return phone(state, seat, who, p, d.flip);
    case "specialist":
      return specialist(state, seat, who, p, d.discard, d.use !== false);
    case "take-gun":
      return takeGun(state, seat, who, p, d.from);
    case "pick":
      return pick(state, seat, who, p, d.card, d.discard);
    default:
      return fail("bad-decision", seat, `unknown decision type ${JSON.stringify((d as { type: unknown }).type)}`);
  }
}

function bullet(state: State, seat: Seat, who: string, p: Player, card: Bullet, gun2: boolean): ApplyResult {
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
  return settle(s, state.step);
}

function aim(state: State, seat: Seat, who: string, p: Player, target: Seat | null, gun2: boolean): ApplyResult {
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
    if (target === null) return fail("bad-target", seat, `${who} must aim at another player on the Godfather's order`);
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
  return settle(s, step);
}

function courage(state: State, seat: Seat, who: string, lieDown: boolean): ApplyResult {
  if (state.step !== "courage")
    return fail("wrong-step", seat, `${who} cannot lie down or stay now (step ${state.step})`);
  if (state.courage[seat] !== -1) return fail("already-decided", seat, `${who} already chose to lie down or stay`);
  const s = copyState(state);
  const next = state.courage.slice();
  next[seat] = lieDown ? 1 : 0;
  s.courage = next;
  return settle(s, "courage");
}

function reveal(state: State, seat: Seat, who: string, p: Player, power: PowerId): ApplyResult {
  if (!state.powers) return fail("not-allowed", seat, "this game is played without Super Powers");
  if (p.power !== power) return fail("not-allowed", seat, `${who} does not hold ${power}`);
  if (p.revealed) return fail("already-decided", seat, `${who} already revealed ${power}`);
  const chosen = chosenReveal(power);
  if (chosen === undefined)
    return fail("not-allowed", seat, `${power} reveals itself when its moment comes, not by choice`);
  const owedDrop = chosen.check(state, seat, p);
  if (typeof owedDrop !== "number") return fail(owedDrop.code, seat, owedDrop.why(who));
  const step = state.step;
  const s = copyState(state);
  const players = state.players.slice();
  players[seat] = { ...p, revealed: true };
  s.players = players;
  const ev: GameEvent[] = [{ type: "power-revealed", seat, power }];
  if (owedDrop === 0) return done(s, ev);
  s.owed -= owedDrop - 1;
  return settle(s, step, ev);
}

function privilege(state: State, seat: Seat, who: string, order: Seat | null): ApplyResult {
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
  return settle(s, "privilege");
}

function doesntHurt(state: State, seat: Seat, who: string, use: boolean): ApplyResult {
  if (state.step !== "split" || state.dhUse[seat] === -2)
    return fail("wrong-step", seat, `${who} has no It-doesn't-even-hurt choice to make now`);
  if (state.dhUse[seat] !== -1) return fail("already-decided", seat, `${who} already decided`);
  const s = copyState(state);
  const next = state.dhUse.slice();
  next[seat] = use ? 1 : 0;
  s.dhUse = next;
  return settle(s, "split");
}

function phone(state: State, seat: Seat, who: string, p: Player, flip: boolean): ApplyResult {
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
  return settle(s, "phone");
}

function specialist(
  state: State,
  seat: Seat,
  who: string,
  p: Player,
  discard: Bullet | null,
  use: boolean,
): ApplyResult {
  if (state.step !== "specialist" || !state.specialists.includes(seat))
    return fail("wrong-step", seat, `${who} has no Specialist discard to make now`);
  if (!use) {
    // her choice not to: the power stays hers, unseen, for a later bbb
    const s = copyState(state);
    s.specialists = state.specialists.filter((x) => x !== seat);
    return settle(s, "specialist");
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
  return settle(s, "specialist", ev);
}

function takeGun(state: State, seat: Seat, who: string, p: Player, from: Seat | null): ApplyResult {
  if (state.step !== "take-gun" || !canTakeGun(p)) return fail("wrong-step", seat, `${who} cannot take a gun now`);
  const s = copyState(state);
  if (from === null) return settle(s, "take-gun");
  if (!isSeat(state, from) || !state.diedNow.includes(from))
    return fail("bad-target", seat, `${who} can only take the gun of a player who died this round`);
  const dead = state.players[from]!;
  const players = state.players.slice();
  players[seat] = { ...p, gun2: dead.hand, spent: true, revealed: true };
  players[from] = { ...dead, hand: [0, 0, 0] };
  s.players = players;
  const ev: GameEvent[] = [
    { type: "power-revealed", seat, power: p.power! },
    { type: "gun-taken", seat, from },
  ];
  return settle(s, "take-gun", ev);
}

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
): string | ApplyResult {
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

function pick(
  state: State,
  seat: Seat,
  who: string,
  p: Player,
  card: LootCard | "godfather",
  discard?: Bullet,
): ApplyResult {
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
  if (s.cards.length === 0 && s.token !== null) {
    goFrom(s, "draft", ev);
    return done(s, ev);
  }
  s.draft = { order: draft.order, at: (draft.at + 1) % draft.order.length };
  return done(s, ev);
}
