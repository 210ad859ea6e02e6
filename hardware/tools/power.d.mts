/** A board profile as the electrical check reads it (hub/src/sim/espruino/board.ts BoardProfile). */
type Profile = object;

/** What `cng check` makes of the battery pin's count on USB: the wiring fault it means, or undefined. */
export function gaugeFault(b: Profile, count: number): string | undefined;
/** What a dark LED means during `cng check` (on USB, the switch off); undefined on a Puck.js. */
export function ledOnUsb(b: Profile): string | undefined;
/** Why the profile's parts are out of rating in a power mode its page documents. */
export function powerProblems(b: Profile): string[];
