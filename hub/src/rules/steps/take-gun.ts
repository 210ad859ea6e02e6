// Classic powers: You-don't-need-it-anymore may take the gun of a player who died this round.
import { copyState } from "../copy.js";
import { canTakeGun } from "../powers.js";
import type { GameEvent } from "../types.js";
import { type DecisionRule, fail, isSeat, type StepRule } from "./rule.js";

export const TAKE_GUN: DecisionRule<"take-gun"> = {
  made: "host",
  apply(state, d, who, p) {
    const { seat, from } = d;
    if (state.step !== "take-gun" || !canTakeGun(p)) return fail("wrong-step", seat, `${who} cannot take a gun now`);
    const s = copyState(state);
    if (from === null) return { s, settles: 1 };
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
    return { s, ev, settles: 1 };
  },
  bot: (state, o, rng) => ({
    type: "take-gun",
    seat: o.seat,
    from: rng.chance(0.5) ? state.diedNow[rng.int(state.diedNow.length)]! : null,
  }),
  scenario: {
    fields: [{ key: "takeGun", kind: "map" }],
    read(_state, o, name, round) {
      const m = round.map("takeGun");
      const from = Object.hasOwn(m, name) ? round.seatOf(m[name], "takeGun") : null;
      return [{ type: "take-gun", seat: o.seat, from }, `takeGun:${name}`];
    },
  },
};

export const TAKE_GUN_STEP: StepRule = {
  editions: ["classic"],
  decision: "take-gun",
  oneAtATime: false,
  turns: false,
  waitingShown: false,
  enter(s) {
    if (s.diedNow.length === 0) return 0;
    let owed = 0;
    for (const p of s.players) if (canTakeGun(p)) owed++;
    return owed;
  },
  owed(s, out) {
    for (let seat = 0; seat < s.players.length; seat++)
      if (canTakeGun(s.players[seat]!)) out.push({ seat, decision: "take-gun" });
  },
};
