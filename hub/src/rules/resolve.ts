// The hold-up's end: cards spent, lie-downs, the shots of each edition, wounds, a grenade, deaths, and the game's
// end. Works on a state the caller already copied (shallow): it replaces arrays and player objects, it never mutates
// shared ones.
import { copyPlayer } from "./copy.js";
import { deadlyWounds, powerOf, showPower } from "./powers.js";
import { scores, winners } from "./score.js";
import { filled } from "./seats.js";
import { BULLET_INDEX, type GameEvent, type Player, type Seat, type State } from "./types.js";

/** The courage count is over: every gun still up fires, as the edition says. */
export function resolveHoldUp(s: State, ev: GameEvent[]): void {
  if (s.edition === "classic") resolveClassic(s, ev);
  else resolveSecond(s, ev);
}

/** The game is over: the winners and the final scores. */
export function finish(s: State, ev: GameEvent[]): void {
  s.over = true;
  s.step = "over";
  s.owed = 0;
  s.winners = winners(s);
  ev.push({ type: "game-over", winners: s.winners, scores: scores(s) });
}

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
