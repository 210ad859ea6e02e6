// What the engine's events do at the table: a wound or a death shows on the gun; a gun taken from a dead player
// becomes its new owner's gun 2 (recorded, so a restarted table knows) and shows the owner's colour.
import { seatColour } from "../feedback/index.js";
import type { GameEvent } from "../rules/index.js";
import type { JobContext } from "./job.js";

export function eventCues(ctx: JobContext, events: readonly GameEvent[]): void {
  for (const e of events) {
    if (e.type === "wound") ctx.cue(e.seat, "wound");
    else if (e.type === "death") ctx.cue(e.seat, "dead");
    else if (e.type === "gun-taken") {
      // the dead seat's gun (still paired there) is the owner's gun 2 from now on
      ctx.guns.set(e.seat, e.from);
      ctx.record({ kind: "gun-taken", round: ctx.state.round, seat: e.seat, from: e.from });
      ctx.cue(e.from, "turn", { colour: seatColour(e.seat) });
    }
  }
}
