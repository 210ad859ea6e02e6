// What a physical table needs to know of the round's order: the steps of its first half (the hold-up, where the
// guns decide). Kept here, beside the order the engine runs, so the table and the hub's wiring read one list.
import { STEPS } from "@cng/protocol";
import type { Step } from "./types.js";

/** The hold-up, in order: the round's steps up to the courage count (both editions; each runs the steps it has). */
export const HOLDUP_STEPS: readonly Step[] = STEPS.slice(0, STEPS.indexOf("courage") + 1);

/** Whether `step` comes before `than` in the hold-up (a step outside it comes after). */
export function holdupBefore(step: Step, than: Step): boolean {
  const i = HOLDUP_STEPS.indexOf(step);
  return i >= 0 && i < HOLDUP_STEPS.indexOf(than);
}
