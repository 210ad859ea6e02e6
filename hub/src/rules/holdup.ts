// What a physical table needs to know of the round's order: the steps of its first half (the hold-up, where the
// guns decide) and which decisions only the guns make. Kept here, beside the order the engine runs, so the table
// and the hub's wiring read one list.
import { STEPS } from "@cng/protocol";
import type { DecisionType, Step } from "./types.js";

/** The hold-up, in order: the round's steps up to the courage count (both editions; each runs the steps it has). */
export const HOLDUP_STEPS: readonly Step[] = STEPS.slice(0, STEPS.indexOf("courage") + 1);

/** Decisions only the guns make at a physical table: bots, consoles and the host make the others. */
export const SENSED_DECISIONS: readonly DecisionType[] = ["aim", "privilege", "courage"];

export const isSensed = (d: DecisionType): boolean => SENSED_DECISIONS.includes(d);

/** Whether `step` comes before `than` in the hold-up (a step outside it comes after). */
export function holdupBefore(step: Step, than: Step): boolean {
  const i = HOLDUP_STEPS.indexOf(step);
  return i >= 0 && i < HOLDUP_STEPS.indexOf(than);
}
