// A random bot: picks a legal decision for whoever the engine waits for, with its own seeded PRNG.
// The benchmark, the random-game tests and the simulator's bots use it.
import { nthOwed, optionalReveals, owedCount } from "./pending.js";
import { hasGun2 } from "./players.js";
import { aimsLast, chosenOf, picksLast } from "./powers.js";
import type { Rng } from "./rng.js";
import { DECISION_RULES } from "./steps/index.js";
import { type BotStyle, randomCard, randomTarget } from "./steps/rule.js";
import { BULLETS, type Decision, type Owed, type State } from "./types.js";

export const RANDOM_STYLE: BotStyle = { lieDown: 0.2, aimNobody: 0.05, reveal: 0.3 };

/** A legal decision for one owed entry. */
export function decide(state: State, owed: Owed, rng: Rng, style: BotStyle = RANDOM_STYLE): Decision {
  return DECISION_RULES[owed.decision].bot(state, owed, rng, style);
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
