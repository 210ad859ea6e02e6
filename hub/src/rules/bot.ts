// A random bot: picks a legal decision for whoever the engine waits for, with its own seeded PRNG.
// The benchmark, the random-game tests and the simulator's bots use it.
import { nthOwed, optionalReveals, owedCount } from "./pending.js";
import { hasGun2 } from "./players.js";
import { chosenOf } from "./powers.js";
import type { Rng } from "./rng.js";
import { aimsLast, picksLast } from "./round.js";
import { BULLETS, type Decision, type LootCard, type Owed, type Seat, type State } from "./types.js";

export interface BotStyle {
  /** chance to lie down at the courage count */
  lieDown: number;
  /** chance to aim at nobody */
  aimNobody: number;
  /** chance to reveal a chosen power when it may be revealed */
  reveal: number;
}

export const RANDOM_STYLE: BotStyle = { lieDown: 0.2, aimNobody: 0.05, reveal: 0.3 };

function randomCard(hand: readonly number[], rng: Rng): number {
  let r = rng.int(hand[0]! + hand[1]! + hand[2]!);
  for (let i = 0; i < 3; i++) {
    if (r < hand[i]!) return i;
    r -= hand[i]!;
  }
  return 2;
}

function randomTarget(state: State, seat: Seat, rng: Rng, avoid = -1): Seat | null {
  const players = state.players;
  const n = players.length;
  // probe a few random seats first: most players are usually alive
  for (let tries = 0; tries < 4; tries++) {
    const t = (seat + 1 + rng.int(n - 1)) % n;
    if (t !== avoid && players[t]!.alive) return t;
  }
  let count = 0;
  for (let t = 0; t < n; t++) if (t !== seat && t !== avoid && players[t]!.alive) count++;
  if (count === 0) return null;
  let r = rng.int(count);
  for (let t = 0; t < n; t++) {
    if (t === seat || t === avoid || !players[t]!.alive) continue;
    if (r-- === 0) return t;
  }
  return null;
}

/** A legal decision for one owed entry. */
export function decide(state: State, owed: Owed, rng: Rng, style: BotStyle = RANDOM_STYLE): Decision {
  const seat = owed.seat;
  const p = state.players[seat]!;
  switch (owed.decision) {
    case "bullet": {
      const hand = owed.gun === 2 ? p.gun2! : p.hand;
      const card = BULLETS[randomCard(hand, rng)]!;
      return owed.gun === 2 ? { type: "bullet", seat, card, gun: 2 } : { type: "bullet", seat, card };
    }
    case "aim": {
      if (state.step === "reaim") return { type: "aim", seat, target: randomTarget(state, seat, rng, state.aim[seat]) };
      const target = rng.chance(style.aimNobody) ? null : randomTarget(state, seat, rng);
      return owed.gun === 2 ? { type: "aim", seat, target, gun: 2 } : { type: "aim", seat, target };
    }
    case "privilege": {
      if (rng.chance(0.5)) return { type: "privilege", seat, order: null };
      const order = randomTarget(state, seat, rng);
      if (order === null) return { type: "privilege", seat, order: null };
      const old = state.aim[order];
      const has = state.players.some((q, t) => q.alive && t !== order && t !== old);
      return { type: "privilege", seat, order: has ? order : null };
    }
    case "courage":
      return { type: "courage", seat, lieDown: rng.chance(style.lieDown) };
    case "doesnt-hurt":
      return { type: "doesnt-hurt", seat, use: rng.chance(0.5) };
    case "phone":
      return { type: "phone", seat, flip: p.role === "cop" && rng.chance(0.5) };
    case "specialist": {
      // her choice: sometimes she keeps the power for later
      if (rng.chance(0.25)) return { type: "specialist", seat, discard: null, use: false };
      const spare = p.hand[1] + p.hand[2];
      if (spare === 0) return { type: "specialist", seat, discard: null };
      return { type: "specialist", seat, discard: rng.int(spare) < p.hand[1] ? "bang" : "click" };
    }
    case "take-gun":
      return {
        type: "take-gun",
        seat,
        from: rng.chance(0.5) ? state.diedNow[rng.int(state.diedNow.length)]! : null,
      };
    case "pick": {
      const options = state.cards.length + (state.token === null ? 1 : 0);
      const i = rng.int(options);
      if (i === state.cards.length) return { type: "pick", seat, card: "godfather" };
      const card: LootCard = state.cards[i]!;
      // with the pile empty of bangs the clip is lost: a picker who names a discard anyway (they cannot know) is fine
      if (card === "clip" && p.hand[1] + p.hand[2] > 0 && (state.discardPile[1] > 0 || rng.chance(0.5))) {
        return { type: "pick", seat, card, discard: rng.int(p.hand[1] + p.hand[2]) < p.hand[1] ? "bang" : "click" };
      }
      return { type: "pick", seat, card };
    }
    default:
      return { type: "courage", seat, lieDown: false };
  }
}

/** The next decision a random bot table would make, or null when the game is over. */
export function randomDecision(state: State, rng: Rng, style: BotStyle = RANDOM_STYLE): Decision | null {
  if (state.over) return null;
  if (state.powers && mayReveal(state)) {
    const may = optionalReveals(state);
    if (may.length > 0 && rng.chance(style.reveal / 4)) {
      const o = may[rng.int(may.length)]!;
      return { type: "reveal", seat: o.seat, power: state.players[o.seat]!.power! };
    }
  }
  const step = state.step;
  if (step === "bullet" || step === "aim" || step === "courage") return simultaneous(state, rng, style);
  const o = nthOwed(state, rng.int(owedCount(state)));
  if (o === null) throw new Error(`the engine waits for nothing in step ${state.step}`);
  return decide(state, o, rng, style);
}

/**
 * The hot path of the bench: the first owed card, aim or courage decision in seat order, found without
 * allocating (within a simultaneous step the order of decisions changes nothing).
 */
function simultaneous(state: State, rng: Rng, style: BotStyle): Decision {
  let k = 0;
  const step = state.step;
  const players = state.players;
  for (let seat = 0; seat < players.length; seat++) {
    const p = players[seat]!;
    if (!p.alive) continue;
    if (step === "courage") {
      if (state.courage[seat] === -1 && k-- === 0) return { type: "courage", seat, lieDown: rng.chance(style.lieDown) };
    } else if (step === "bullet") {
      if (picksLast(p)) continue;
      if (state.card[seat] === null && k-- === 0)
        return { type: "bullet", seat, card: BULLETS[randomCard(p.hand, rng)]! };
      if (p.gun2 !== null && state.card2[seat] === null && p.gun2[0] + p.gun2[1] + p.gun2[2] > 0 && k-- === 0)
        return { type: "bullet", seat, card: BULLETS[randomCard(p.gun2, rng)]!, gun: 2 };
    } else {
      if (aimsLast(p)) continue;
      if (state.aim[seat] === -2 && k-- === 0)
        return { type: "aim", seat, target: rng.chance(style.aimNobody) ? null : randomTarget(state, seat, rng) };
      if (p.gun2 !== null && hasGun2(p) && state.aim2[seat] === -2 && k-- === 0)
        return {
          type: "aim",
          seat,
          target: rng.chance(style.aimNobody) ? null : randomTarget(state, seat, rng),
          gun: 2,
        };
    }
  }
  throw new Error(`the engine waits for nothing in step ${step}`);
}

/** cheap pre-check: someone alive holds an unrevealed power revealed by choice */
function mayReveal(state: State): boolean {
  for (const p of state.players) if (p.alive && !p.revealed && chosenOf(p) !== undefined) return true;
  return false;
}
