// The round machine: which step comes next, what each step waits for, and the automatic parts of a round
// (loot, reveals, wounds, deaths, the classic split, the end). Every function here works on a state that the
// caller already copied (shallow): it replaces arrays and player objects, it never mutates shared ones.

import { copyPlayer } from "./copy.js";
import { hasGun2 } from "./players.js";
import { canTakeGun, deadlyWounds, decidesLast, powerOf, showPower } from "./powers.js";
import { scores, winners } from "./score.js";
import { equalSplit } from "./split.js";
import {
  type Bill,
  BULLET_INDEX,
  type GameEvent,
  type LootCard,
  type Player,
  type Seat,
  type State,
  type Step,
} from "./types.js";

export const ROUNDS = 8;
export const CLASSIC_LOOT = 5;
export const SECOND_LOOT = 8;
/** How many players each edition is for. */
export const PLAYER_COUNT = { classic: { min: 4, max: 6 }, second: { min: 4, max: 8 } } as const;

const CLASSIC_ORDER: readonly Step[] = [
  "bullet",
  "aim",
  "kid-aim",
  "cunning-bullet",
  "courage",
  "split",
  "phone",
  "specialist",
  "take-gun",
];
const SECOND_ORDER: readonly Step[] = ["bullet", "aim", "privilege", "reaim", "courage", "draft"];

/** Alive with a revealed power that makes them aim after everyone else (kid-aim). */
export function aimsLast(p: Player): boolean {
  return decidesLast(p, "aim");
}
/** Alive with a revealed power that makes them pick their card after every aim (cunning-bullet). */
export function picksLast(p: Player): boolean {
  return decidesLast(p, "bullet");
}
/** the first seat clockwise from `from` (inclusive) that is in `seats`; seats is in seat order */
export function rotateFrom(seats: readonly Seat[], from: Seat, n: number): Seat[] {
  for (let k = 0; k < n; k++) {
    const i = seats.indexOf((from + k) % n);
    if (i >= 0) return [...seats.slice(i), ...seats.slice(0, i)];
  }
  return [];
}

/** A packed array of n copies of v (new Array(n).fill makes a holey one, slower to read). */
export function filled<T>(n: number, v: T): T[] {
  const a: T[] = [];
  for (let i = 0; i < n; i++) a.push(v);
  return a;
}

/** Round start: loot on the table, round arrays reset, step "bullet". */
export function startRound(s: State, ev: GameEvent[]): void {
  const n = s.names.length;
  s.round += 1;
  s.card = filled(n, null);
  s.card2 = filled(n, null);
  s.aim = filled(n, -2);
  s.aim2 = filled(n, -2);
  s.courage = filled(n, -1);
  s.hurt = filled(n, 0);
  s.dhUse = filled(n, -2);
  s.ordered = -1;
  s.grenade = false;
  s.sharers = [];
  s.phone = null;
  s.specialists = [];
  s.diedNow = [];
  s.draft = null;
  s.token = null;
  let loot: (Bill | LootCard)[];
  if (s.edition === "classic") {
    loot = s.deck.slice(s.deckPos, s.deckPos + CLASSIC_LOOT);
    const bills: [number, number, number] = [s.bills[0], s.bills[1], s.bills[2]];
    for (const b of loot) bills[b === 5000 ? 0 : b === 10000 ? 1 : 2]++;
    s.bills = bills;
  } else {
    loot = s.deck.slice(s.deckPos, s.deckPos + SECOND_LOOT);
    s.cards = s.cards.concat(loot as LootCard[]);
  }
  s.deckPos += loot.length;
  ev.push({ type: "round-start", round: s.round, godfather: s.godfather, loot });
  const owed = enter(s, "bullet");
  s.step = "bullet";
  s.owed = owed;
  if (owed === 0) goFrom(s, "bullet", ev);
}

/** Leaves `from` (running what happens at its end) and enters the next step that waits for someone. */
export function goFrom(s: State, from: Step, ev: GameEvent[]): void {
  const order = s.edition === "classic" ? CLASSIC_ORDER : SECOND_ORDER;
  let i = order.indexOf(from);
  for (;;) {
    leave(s, order[i]!, ev);
    if (s.over) return;
    i++;
    if (i === order.length) {
      endRound(s, ev);
      if (!s.over) startRound(s, ev);
      return;
    }
    const step = order[i]!;
    const owed = enter(s, step);
    if (owed > 0) {
      s.step = step;
      s.owed = owed;
      ev.push({ type: "step", step });
      return;
    }
  }
}

/** Sets a step up; returns how many decisions it waits for (0: skip it). */
function enter(s: State, step: Step): number {
  const players = s.players;
  let owed = 0;
  switch (step) {
    case "bullet":
      for (const p of players) if (p.alive && !picksLast(p)) owed += 1 + (hasGun2(p) ? 1 : 0);
      return owed;
    case "aim":
      for (const p of players) if (p.alive && !aimsLast(p)) owed += 1 + (hasGun2(p) ? 1 : 0);
      return owed;
    case "kid-aim":
      for (const p of players) if (aimsLast(p)) owed += 1 + (hasGun2(p) ? 1 : 0);
      return owed;
    case "cunning-bullet":
      for (const p of players) if (picksLast(p)) owed += 1 + (hasGun2(p) ? 1 : 0);
      return owed;
    case "privilege":
      return 1;
    case "reaim":
      return s.ordered >= 0 ? 1 : 0;
    case "courage":
      for (const p of players) if (p.alive) owed++;
      return owed;
    case "split": {
      if (!s.powers || s.grenade) return 0;
      const dh = s.dhUse.slice();
      players.forEach((p, seat) => {
        if (p.alive && powerOf(p).sharesHurt?.(p)) {
          dh[seat] = -1;
          owed++;
        }
      });
      s.dhUse = dh;
      return owed;
    }
    case "phone": {
      if (!s.cop || s.round > 6 || s.switchboard >= 3 || s.sharers.length === 0) return 0;
      const order = rotateFrom(s.sharers, s.godfather, s.names.length);
      s.phone = { order, at: 0, flipped: false };
      return order.length;
    }
    case "specialist":
      s.specialists = s.specialists.filter((seat) => players[seat]!.alive);
      return s.specialists.length;
    case "take-gun":
      if (s.diedNow.length === 0) return 0;
      for (const p of players) if (canTakeGun(p)) owed++;
      return owed;
    case "draft": {
      const drafters: Seat[] = [];
      players.forEach((p, seat) => {
        if (p.alive && s.courage[seat] !== 1 && s.hurt[seat] === 0) drafters.push(seat);
      });
      s.sharers = drafters;
      if (drafters.length === 0) return 0;
      s.draft = { order: rotateFrom(drafters, s.godfather, s.names.length), at: 0 };
      return 1;
    }
    default:
      return 0;
  }
}

/** What happens at the end of a step once every decision is in. */
function leave(s: State, step: Step, ev: GameEvent[]): void {
  if (step === "courage") {
    if (s.edition === "classic") resolveClassic(s, ev);
    else resolveSecond(s, ev);
  } else if (step === "split") {
    classicSplit(s, ev);
  } else if (step === "phone" && s.phone !== null) {
    if (s.phone.flipped) s.switchboard++;
    ev.push({ type: "phone", flips: s.switchboard, alerted: s.switchboard >= 3 });
    s.phone = null;
  } else if (step === "draft") {
    s.draft = null;
  }
}

function endRound(s: State, ev: GameEvent[]): void {
  const n = s.names.length;
  let gf = s.godfather;
  if (s.edition === "second" && s.token !== null) gf = s.token;
  for (let k = 0; k < n && !s.players[gf]!.alive; k++) gf = (gf + 1) % n;
  if (gf !== s.godfather) {
    s.godfather = gf;
    ev.push({ type: "godfather", seat: gf });
  }
  if (s.round >= ROUNDS) finish(s, ev);
}

function finish(s: State, ev: GameEvent[]): void {
  s.over = true;
  s.step = "over";
  s.owed = 0;
  s.winners = winners(s);
  ev.push({ type: "game-over", winners: s.winners, scores: scores(s) });
}

// ---- reveals, wounds and deaths ----

/** Spends every card played this round: out of hands, into the common discard pile. */
function spendCards(s: State, players: Player[]): void {
  const pile: [number, number, number] = [s.discardPile[0], s.discardPile[1], s.discardPile[2]];
  players.forEach((p, seat) => {
    const c = s.card[seat];
    if (c != null) {
      const i = BULLET_INDEX[c];
      const h: [number, number, number] = [p.hand[0], p.hand[1], p.hand[2]];
      h[i]--;
      p.hand = h;
      pile[i]++;
    }
    const c2 = s.card2[seat];
    if (c2 != null && p.gun2 !== null) {
      const i = BULLET_INDEX[c2];
      const h: [number, number, number] = [p.gun2[0], p.gun2[1], p.gun2[2]];
      h[i]--;
      p.gun2 = h;
      pile[i]++;
    }
  });
  s.discardPile = pile;
}

/** Lie-downs, and every gun aimed at someone lying down is lowered. Returns who lies down. */
function lieDowns(s: State, players: Player[], ev: GameEvent[]): boolean[] {
  const down = s.courage.map((c, seat) => c === 1 && players[seat]!.alive);
  players.forEach((p, seat) => {
    if (!down[seat]) return;
    ev.push({ type: "lie-down", seat });
    if (s.edition === "classic") p.shame++;
    if (s.cop && p.role === "cop" && s.switchboard >= 3) s.copDownsSinceAlert++;
  });
  players.forEach((p, seat) => {
    if (!p.alive || down[seat]) return;
    const t1 = s.aim[seat]!;
    if (t1 >= 0 && down[t1]) ev.push({ type: "lower-gun", seat, gun: 1, target: t1 });
    const t2 = s.aim2[seat]!;
    if (s.card2[seat] !== null && t2 >= 0 && down[t2]) ev.push({ type: "lower-gun", seat, gun: 2, target: t2 });
  });
  return down;
}

/** One wound lands on `target`, unless the target's power blocks it; a power may show itself either way. */
function wound(s: State, players: Player[], target: Seat, by: Seat | null, stepHurt: number[], ev: GameEvent[]): void {
  const p = players[target]!;
  const power = powerOf(p);
  if (power.blocksWound?.(s, target)) {
    showPower(p, target, ev);
    ev.push({ type: "wound-blocked", seat: target, by });
    return;
  }
  p.wounds++;
  s.hurt[target]!++;
  stepHurt[target]!++;
  ev.push({ type: "wound", seat: target, by, wounds: p.wounds });
  if (power.showsWounded?.(p)) showPower(p, target, ev);
}

/** End of a reveal step: a grenade, then deaths, then the early end. */
function endOfShots(s: State, players: Player[], down: boolean[], stepHurt: number[], ev: GameEvent[]): void {
  if (s.powers && !s.grenade) {
    const thrower = players.findIndex((p, seat) => stepHurt[seat]! > 0 && powerOf(p).throwsGrenade?.(p) === true);
    if (thrower >= 0) {
      players[thrower]!.spent = true;
      s.grenade = true;
      ev.push({ type: "grenade", seat: thrower });
      players.forEach((p, seat) => {
        if (p.alive && !down[seat] && s.hurt[seat] === 0) wound(s, players, seat, null, stepHurt, ev);
      });
    }
  }
  let alive = 0;
  players.forEach((p, seat) => {
    if (p.alive && p.wounds >= deadlyWounds(p)) {
      p.alive = false;
      if (s.edition === "classic") {
        s.removedByDeath += p.money;
      } else {
        s.removedByDeath += p.cashCards + p.diamonds + p.paintings;
        p.cashCards = 0;
        p.diamonds = 0;
        p.diamondValue = 0;
        p.paintings = 0;
      }
      p.money = 0;
      s.diedNow = [...s.diedNow, seat];
      ev.push({ type: "death", seat });
    }
    if (p.alive) alive++;
  });
  if (alive <= 1) finish(s, ev); // decision 1: the game ends at the end of this step
}

/** What both editions' resolutions start with: own copies of the players, no hurt yet, cards spent, lie-downs. */
function beginResolve(s: State, ev: GameEvent[]) {
  const n = s.names.length;
  const players = s.players.map(copyPlayer);
  s.players = players;
  s.hurt = filled(n, 0);
  spendCards(s, players);
  const down = lieDowns(s, players, ev);
  return { n, players, down };
}

function resolveClassic(s: State, ev: GameEvent[]): void {
  const { n, players, down } = beginResolve(s, ev);
  const shot1 = filled(n, false);
  const shot2 = filled(n, false);

  // Step 5: every Bang! Bang! Bang! still up is revealed at once.
  const hits: number[] = []; // pairs target, shooter
  for (let seat = 0; seat < n; seat++) {
    const p = players[seat]!;
    if (!p.alive || down[seat]) continue;
    for (let g = 1; g <= 2; g++) {
      const gun = g as 1 | 2;
      const card = gun === 1 ? s.card[seat] : s.card2[seat];
      if (card !== "bbb") continue;
      const t = (gun === 1 ? s.aim : s.aim2)[seat]!;
      if (t >= 0 && down[t]) continue; // lowered
      (gun === 1 ? shot1 : shot2)[seat] = true;
      ev.push({ type: "shot", seat, gun, card, target: t >= 0 ? t : null });
      if (t >= 0) hits.push(t, seat);
      // a power may answer a bbb that was used: fired at a standing player (a bbb at nobody is not)
      if (gun === 1 && t >= 0 && powerOf(p).answersBbb?.(p)) s.specialists = [...s.specialists, seat];
    }
  }
  let stepHurt = filled(n, 0);
  for (let i = 0; i < hits.length; i += 2) wound(s, players, hits[i]!, hits[i + 1]!, stepHurt, ev);
  const hurtIn5 = s.hurt.slice();
  endOfShots(s, players, down, stepHurt, ev);
  if (s.over || s.grenade) return;

  // Step 6: Bang! and Clic from everyone still up who neither shot nor was hit in step 5.
  hits.length = 0;
  for (let seat = 0; seat < n; seat++) {
    const p = players[seat]!;
    if (!p.alive || down[seat] || hurtIn5[seat]! > 0) continue;
    for (let g = 1; g <= 2; g++) {
      const gun = g as 1 | 2;
      const card = gun === 1 ? s.card[seat] : s.card2[seat];
      if (card === null || card === undefined || (gun === 1 ? shot1 : shot2)[seat]) continue;
      const t = (gun === 1 ? s.aim : s.aim2)[seat]!;
      if (t >= 0 && down[t]) continue;
      ev.push({ type: "shot", seat, gun, card, target: t >= 0 ? t : null });
      // decision 2: a bullet aimed at a player who died at the end of step 5 has no effect
      if (card === "bang" && t >= 0 && players[t]!.alive) hits.push(t, seat);
    }
  }
  stepHurt = filled(n, 0);
  for (let i = 0; i < hits.length; i += 2) wound(s, players, hits[i]!, hits[i + 1]!, stepHurt, ev);
  endOfShots(s, players, down, stepHurt, ev);
}

function resolveSecond(s: State, ev: GameEvent[]): void {
  const { n, players, down } = beginResolve(s, ev);
  const hits: number[] = [];
  players.forEach((p, seat) => {
    const card = s.card[seat];
    if (!p.alive || down[seat] || card == null) return;
    const t = s.aim[seat]!;
    if (t >= 0 && down[t]) return;
    ev.push({ type: "shot", seat, gun: 1, card, target: t >= 0 ? t : null });
    if (card === "bang" && t >= 0) hits.push(t, seat);
  });
  const stepHurt = filled(n, 0);
  for (let i = 0; i < hits.length; i += 2) wound(s, players, hits[i]!, hits[i + 1]!, stepHurt, ev);
  endOfShots(s, players, down, stepHurt, ev);
}

/** Classic step 7: the equal split among the standing, unwounded players (and It-doesn't-even-hurt). */
function classicSplit(s: State, ev: GameEvent[]): void {
  if (s.edition !== "classic") return;
  const sharers: Seat[] = [];
  let players = s.players;
  if (!s.grenade) {
    players.forEach((p, seat) => {
      if (!p.alive) return;
      const standing = s.courage[seat] !== 1 && s.hurt[seat] === 0;
      if (standing || s.dhUse[seat] === 1) sharers.push(seat);
    });
  }
  if (s.dhUse.includes(1)) {
    players = players.slice();
    s.dhUse.forEach((use, seat) => {
      if (use !== 1) return;
      const p = players[seat]!;
      players[seat] = { ...p, spent: true, revealed: true };
      ev.push({ type: "power-revealed", seat, power: p.power! });
    });
  }
  s.sharers = sharers;
  const r = equalSplit(s.bills, sharers.length);
  if (r.each > 0) {
    if (players === s.players) players = players.slice();
    for (const seat of sharers) {
      const q = copyPlayer(players[seat]!);
      q.money += r.each;
      players[seat] = q;
    }
    s.bills = [s.bills[0] - r.used[0], s.bills[1] - r.used[1], s.bills[2] - r.used[2]];
  }
  s.players = players;
  const took: Bill[] = [];
  for (let i = 0; i < r.used[2]; i++) took.push(20000);
  for (let i = 0; i < r.used[1]; i++) took.push(10000);
  for (let i = 0; i < r.used[0]; i++) took.push(5000);
  ev.push({ type: "split", sharers, each: r.each, took });
}
