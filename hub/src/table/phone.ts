// The cop's phone (classic edition with the cop): the player holding it flips it with the gun's second trigger
// kind ("2"), or passes it on with a double pull; no answer in time passes it on.

import { seatColour } from "../feedback/index.js";
import type { Seat } from "../rules/index.js";
import type { TimerHandle } from "./clock.js";
import type { Job, JobContext } from "./job.js";
import type { TableActivity } from "./ports.js";
import type { TriggerInput } from "./sensors.js";

export class PhoneJob implements Job {
  readonly phase = { kind: "phone" as const };
  private readonly timer: TimerHandle;
  private double: TimerHandle | null = null;

  private constructor(
    private readonly ctx: JobContext,
    readonly seat: Seat,
  ) {
    this.timer = ctx.clock.setTimer(ctx.timing.phoneTimeoutMs, () => this.decide(false));
  }

  static start(ctx: JobContext, seat: Seat): void {
    ctx.begin(new PhoneJob(ctx, seat));
    ctx.cue(seat, "turn", { colour: seatColour(seat) });
  }

  trigger(slot: Seat, e: TriggerInput): void {
    if (slot !== this.seat) return;
    if (e.k === "2") this.decide(true);
    else if (e.k === "p" && this.double === null)
      this.double = this.ctx.clock.setTimer(this.ctx.timing.phoneDoubleMs, () => this.decide(false));
  }

  gunBack(_slot: Seat): void {
    // the phone's own timeout decides for a gun that stays away
  }

  aiming(_slot: Seat): boolean {
    return false;
  }

  activity(): TableActivity {
    return { kind: "phone", seat: this.seat };
  }

  /** The player's answer (or the dashboard's, or the timeout's). */
  decide(flip: boolean): void {
    const ctx = this.ctx;
    if (!ctx.end(this)) return;
    ctx.clock.clearTimer(this.timer);
    if (this.double !== null) ctx.clock.clearTimer(this.double);
    const r = ctx.submit({ type: "phone", seat: this.seat, flip });
    // a refused flip (a gangster, or after the reinforcements) still passes the phone on
    if (!r.ok && flip) ctx.submit({ type: "phone", seat: this.seat, flip: false });
    ctx.advance();
  }
}
