// Chosen power reveals at a physical table (RULES decision 9). The engine gates them by step, but with
// physical cards its step stays "bullet" until the reveal (the cards are learned last), so the table adds the
// timing the rules mean: the Kid and the Cunning reveal before aiming, the Insane before the courage count.
import { chosenReveal, type PowerId } from "../rules/index.js";
import type { RoundPlan } from "./plan.js";
import type { CountPurpose } from "./ports.js";

/** What the table is running now, as far as reveals care. */
export type Phase =
  | { kind: "count"; purpose: CountPurpose }
  | { kind: "privilege" | "reveal" | "phone" | "recentre" }
  | null;

/** Why the table refuses this chosen reveal now, or null when the engine may judge it. */
export function revealRefusal(power: PowerId, plan: RoundPlan, phase: Phase): string | null {
  const before = chosenReveal(power)?.before;
  const aiming = plan.aims.size > 0 || (phase?.kind === "count" && phase.purpose === "aim");
  if (before === "aim" && aiming) return `${power} is revealed before aiming: this round's count has started`;
  if (before === "courage") {
    const pastAim =
      plan.courage.size > 0 ||
      plan.privilege !== undefined ||
      Object.keys(plan.pulls).length > 0 ||
      (phase !== null && phase.kind !== "recentre" && (phase.kind !== "count" || phase.purpose !== "aim"));
    if (pastAim) return `${power} is revealed at a round start (steps 1-3): the courage count has started`;
  }
  return null;
}
