// pending(state): the step the round is in and who still owes which decision. The table and the bots drive
// the game from it. It names the owners of hidden powers, so it stays inside the hub (views hide that).
import { hasGun2 } from "./players.js";
import { aimsLast, chosenOf, picksLast } from "./powers.js";
import { STEP_RULES } from "./steps/index.js";
import type { Owed, Pending, Seat, State } from "./types.js";

/** The decisions the engine waits for now, in seat order (a turn: only the player whose turn it is). */
export function owedDecisions(state: State): Owed[] {
  const out: Owed[] = [];
  if (state.over || state.step === "over") return out;
  STEP_RULES[state.step].owed(state, out);
  return out;
}

/** How many decisions the engine waits for now (a step of one decision at a time: one). */
export function owedCount(state: State): number {
  if (state.over || state.step === "over") return 0;
  return STEP_RULES[state.step].oneAtATime ? 1 : state.owed;
}

/**
 * The k-th owed decision in seat order, without building the whole list (the bots call this per decision).
 * Simultaneous steps only scan the round arrays; the others defer to owedDecisions.
 */
export function nthOwed(state: State, k: number): Owed | null {
  const step = state.step;
  const players = state.players;
  const n = players.length;
  if (step === "bullet" || step === "aim" || step === "courage") {
    for (let seat = 0; seat < n; seat++) {
      const p = players[seat]!;
      if (!p.alive) continue;
      if (step === "courage") {
        if (state.courage[seat] === -1 && k-- === 0) return { seat, decision: "courage" };
      } else if (step === "bullet") {
        if (picksLast(p)) continue;
        if (state.card[seat] === null && k-- === 0) return { seat, decision: "bullet" };
        if (p.gun2 !== null && hasGun2(p) && state.card2[seat] === null && k-- === 0)
          return { seat, decision: "bullet", gun: 2 };
      } else {
        if (aimsLast(p)) continue;
        if (state.aim[seat] === -2 && k-- === 0) return { seat, decision: "aim" };
        if (p.gun2 !== null && hasGun2(p) && state.aim2[seat] === -2 && k-- === 0)
          return { seat, decision: "aim", gun: 2 };
      }
    }
    return null;
  }
  return owedDecisions(state)[k] ?? null;
}

/** Chosen power reveals the engine would accept now (docs/rules.md decision 9). */
export function optionalReveals(state: State): Owed[] {
  const out: Owed[] = [];
  if (!state.powers || state.over) return out;
  state.players.forEach((p, seat) => {
    const chosen = chosenOf(p);
    if (!p.alive || p.revealed || chosen === undefined) return;
    if (typeof chosen.check(state, seat, p) === "number") out.push({ seat, decision: "reveal" });
  });
  return out;
}

export function pending(state: State): Pending {
  const owed = owedDecisions(state);
  let turn: Seat | null = null;
  if (state.step !== "over" && STEP_RULES[state.step].turns) turn = owed[0]?.seat ?? null;
  return { round: state.round, step: state.step, owed, optional: optionalReveals(state), turn };
}
