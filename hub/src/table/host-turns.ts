// The round's second half, where the host, a player's console or a bot decides: the host is shown whom the round
// waits for, the player whose turn it is to pick sees it on the gun, the cop's phone passes as a job of its own, and
// the Specialist's choice is open for a reveal window (no answer: she keeps her power).
import { seatColour } from "../feedback/index.js";
import { type Decision, type Owed, pending, type Seat } from "../rules/index.js";
import type { JobContext } from "./job.js";
import { PhoneJob } from "./phone.js";
import type { InputResult } from "./ports.js";

export class HostTurns {
  /** the turn last shown (`round:at:seat`), so a gun is told once */
  private turnCued = "";
  /** the Specialist asked this round (`round:seat`), so her window is timed once */
  private specialistAsked = "";

  constructor(
    private readonly ctx: JobContext,
    /** takes a decision in and drives on */
    private readonly decide: (d: Decision) => InputResult,
  ) {}

  /** What the owed decisions need now: the phone's job, or the host's list (and a turn shown, a window timed). */
  wait(owed: readonly Owed[]): void {
    const ctx = this.ctx;
    const s = ctx.state;
    const o = owed[0];
    if (o === undefined) throw new Error(`the engine waits for nothing in step ${s.step}`);
    if (o.decision === "phone") {
      PhoneJob.start(ctx, o.seat);
      return;
    }
    if (o.decision === "pick") {
      const key = `${s.round}:${s.draft?.at}:${o.seat}`;
      if (key !== this.turnCued) {
        this.turnCued = key;
        ctx.cue(o.seat, "turn", { colour: seatColour(o.seat) });
      }
    }
    ctx.setWaiting(owed.map((x) => ({ seat: x.seat, for: "host", decision: x.decision })));
    for (const x of owed) if (x.decision === "specialist") this.askSpecialist(x.seat);
  }

  /**
   * The Specialist's bbb was used: her console or the host may take it back (naming the card to discard) within the
   * reveal window; no answer means she does not use her power (her choice, kept for later).
   */
  private askSpecialist(seat: Seat): void {
    const ctx = this.ctx;
    const round = ctx.state.round;
    const key = `${round}:${seat}`;
    if (this.specialistAsked === key) return;
    this.specialistAsked = key;
    ctx.clock.setTimer(ctx.timing.revealWindowMs, () => {
      const owed = pending(ctx.state).owed.some((o) => o.seat === seat && o.decision === "specialist");
      if (!owed || ctx.state.round !== round) return;
      this.decide({ type: "specialist", seat, discard: null, use: false });
    });
  }
}
