// The round machine: a round's start (loot on the table, the round's arrays), which step comes next (each step's
// entry in steps/ says what it waits for and what happens at its ends), and the round's end. Every function here
// works on a state that the caller already copied (shallow): it replaces arrays and player objects, it never
// mutates shared ones.
import { STEPS } from "@cng/protocol";
import { finish } from "./resolve.js";
import { filled } from "./seats.js";
import { STEP_RULES } from "./steps/index.js";
import type { RoundStep } from "./steps/rule.js";
import type { Bill, Edition, GameEvent, LootCard, State, Step } from "./types.js";

const ROUND_STEPS = STEPS.filter((step): step is RoundStep => step !== "over");

export const ROUNDS = 8;
export const CLASSIC_LOOT = 5;
export const SECOND_LOOT = 8;
/** How many players each edition is for. */
export const PLAYER_COUNT = { classic: { min: 4, max: 6 }, second: { min: 4, max: 8 } } as const;

/** Each edition's steps, in the protocol's order. */
const ORDER: { readonly [E in Edition]: readonly RoundStep[] } = {
  classic: ROUND_STEPS.filter((step) => STEP_RULES[step].editions.includes("classic")),
  second: ROUND_STEPS.filter((step) => STEP_RULES[step].editions.includes("second")),
};

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
  const owed = STEP_RULES.bullet.enter(s);
  s.step = "bullet";
  s.owed = owed;
  if (owed === 0) goFrom(s, "bullet", ev);
}

/** Leaves `from` (running what happens at its end) and enters the next step that waits for someone. */
export function goFrom(s: State, from: Step, ev: GameEvent[]): void {
  const order = ORDER[s.edition];
  let i = order.indexOf(from as RoundStep);
  for (;;) {
    const at = order[i];
    if (at !== undefined) STEP_RULES[at].leave?.(s, ev);
    if (s.over) return;
    i++;
    if (i === order.length) {
      endRound(s, ev);
      if (!s.over) startRound(s, ev);
      return;
    }
    const step = order[i]!;
    const owed = STEP_RULES[step].enter(s);
    if (owed > 0) {
      s.step = step;
      s.owed = owed;
      ev.push({ type: "step", step });
      return;
    }
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
