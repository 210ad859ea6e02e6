// pending(state): the step the round is in and who still owes which decision. The table and the bots drive
// the game from it. It names the owners of hidden powers, so it stays inside the hub (views hide that).
import { hasGun2 } from "./players.js";
import { canTakeGun, chosenOf } from "./powers.js";
import { aimsLast, picksLast } from "./round.js";
import type { Owed, Pending, Seat, State } from "./types.js";

/** The decisions the engine waits for now, in seat order (draft and phone: only the player whose turn it is). */
export function owedDecisions(state: State): Owed[] {
  const out: Owed[] = [];
  if (state.over) return out;
  const players = state.players;
  const n = players.length;
  switch (state.step) {
    case "bullet":
    case "cunning-bullet": {
      const cunning = state.step === "cunning-bullet";
      for (let seat = 0; seat < n; seat++) {
        const p = players[seat]!;
        if (!p.alive || picksLast(p) !== cunning) continue;
        if (state.card[seat] === null) out.push({ seat, decision: "bullet" });
        if (hasGun2(p) && state.card2[seat] === null) out.push({ seat, decision: "bullet", gun: 2 });
      }
      return out;
    }
    case "aim":
    case "kid-aim": {
      const kid = state.step === "kid-aim";
      for (let seat = 0; seat < n; seat++) {
        const p = players[seat]!;
        if (!p.alive || aimsLast(p) !== kid) continue;
        if (state.aim[seat] === -2) out.push({ seat, decision: "aim" });
        if (hasGun2(p) && state.aim2[seat] === -2) out.push({ seat, decision: "aim", gun: 2 });
      }
      return out;
    }
    case "privilege":
      out.push({ seat: state.godfather, decision: "privilege" });
      return out;
    case "reaim":
      out.push({ seat: state.ordered, decision: "aim" });
      return out;
    case "courage":
      for (let seat = 0; seat < n; seat++)
        if (players[seat]!.alive && state.courage[seat] === -1) out.push({ seat, decision: "courage" });
      return out;
    case "split":
      for (let seat = 0; seat < n; seat++) if (state.dhUse[seat] === -1) out.push({ seat, decision: "doesnt-hurt" });
      return out;
    case "phone":
      if (state.phone) out.push({ seat: state.phone.order[state.phone.at]!, decision: "phone" });
      return out;
    case "specialist":
      for (const seat of state.specialists) out.push({ seat, decision: "specialist" });
      return out;
    case "take-gun":
      for (let seat = 0; seat < n; seat++) if (canTakeGun(players[seat]!)) out.push({ seat, decision: "take-gun" });
      return out;
    case "draft":
      if (state.draft) out.push({ seat: state.draft.order[state.draft.at]!, decision: "pick" });
      return out;
    default:
      return out;
  }
}

/** How many decisions the engine waits for now (draft, phone, privilege, re-aim: one at a time). */
export function owedCount(state: State): number {
  if (state.over) return 0;
  const step = state.step;
  if (step === "draft" || step === "phone" || step === "privilege" || step === "reaim") return 1;
  return state.owed;
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
  if (state.step === "draft" || state.step === "phone") turn = owed[0]?.seat ?? null;
  return { round: state.round, step: state.step, owed, optional: optionalReveals(state), turn };
}
