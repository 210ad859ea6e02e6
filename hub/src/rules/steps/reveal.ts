// A Super Power revealed by choice (RULES decision 9): allowed at moments its entry in powers.ts names, it moves
// the owner's owed decisions of this step to a later one (the Kid's aim, the Cunning's card).
import { copyState } from "../copy.js";
import { chosenReveal } from "../powers.js";
import type { GameEvent } from "../types.js";
import { type DecisionRule, fail } from "./rule.js";

export const REVEAL: DecisionRule<"reveal"> = {
  made: "choice",
  apply(state, d, who, p) {
    const { seat, power } = d;
    if (!state.powers) return fail("not-allowed", seat, "this game is played without Super Powers");
    if (p.power !== power) return fail("not-allowed", seat, `${who} does not hold ${power}`);
    if (p.revealed) return fail("already-decided", seat, `${who} already revealed ${power}`);
    const chosen = chosenReveal(power);
    if (chosen === undefined)
      return fail("not-allowed", seat, `${power} reveals itself when its moment comes, not by choice`);
    const owedDrop = chosen.check(state, seat, p);
    if (typeof owedDrop !== "number") return fail(owedDrop.code, seat, owedDrop.why(who));
    const s = copyState(state);
    const players = state.players.slice();
    players[seat] = { ...p, revealed: true };
    s.players = players;
    const ev: GameEvent[] = [{ type: "power-revealed", seat, power }];
    return { s, ev, settles: owedDrop };
  },
  bot: (state, o) => ({ type: "reveal", seat: o.seat, power: state.players[o.seat]!.power! }),
  scenario: null,
};
