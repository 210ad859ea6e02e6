// The Godfather's privilege (second edition): a window in which the Godfather points at a player and pulls; that
// player is ordered to re-aim (a short count of its own, count.ts). No pull in time, or a pass from the dashboard:
// no privilege this round.
import type { HubMs } from "@cng/protocol";
import { seatColour } from "../feedback/index.js";
import type { Seat } from "../rules/index.js";
import type { TimerHandle } from "./clock.js";
import { CountJob } from "./count.js";
import type { Job, JobContext } from "./job.js";
import type { TableActivity } from "./ports.js";
import type { TriggerInput } from "./sensors.js";

/** The privilege is settled: who was ordered (null: nobody) and at whom they now aim. */
export function settlePrivilege(ctx: JobContext, order: Seat | null, target: Seat | null): void {
  ctx.plan.privilege = { order, target };
  ctx.record({ kind: "privilege", round: ctx.plan.round, order, target });
}

export class PrivilegeJob implements Job {
  readonly phase = { kind: "privilege" as const };
  private readonly until: HubMs;
  private readonly timer: TimerHandle;
  /** a pull being read: the cancel of its wait for the samples */
  private resolving: (() => void) | null = null;

  private constructor(
    private readonly ctx: JobContext,
    readonly godfather: Seat,
  ) {
    this.until = ctx.clock.now() + ctx.timing.privilegeWindowMs;
    this.timer = ctx.clock.setTimer(ctx.timing.privilegeWindowMs, () => this.finish(null, null));
  }

  /** Opens the window; true when there is none to open (a dead Godfather: settled at once). */
  static start(ctx: JobContext): boolean {
    const gf = ctx.state.godfather;
    if (!ctx.alive(gf)) {
      settlePrivilege(ctx, null, null);
      return true;
    }
    ctx.begin(new PrivilegeJob(ctx, gf));
    ctx.cue(gf, "turn", { colour: seatColour(gf) });
    return false;
  }

  /** The Godfather pulled: read where the gun pointed at the pull, once its stream has reached the pull. */
  trigger(slot: Seat, e: TriggerInput): void {
    if (slot !== this.godfather || e.k !== "p" || this.resolving !== null) return;
    const ctx = this.ctx;
    const gf = this.godfather;
    const sen = ctx.sensor(gf);
    let settled = false;
    const cancel = ctx.whenCovered(gf, sen.clock.toHub(e.t) ?? ctx.clock.now(), (c) => {
      settled = true;
      this.resolving = null;
      if (!ctx.isCurrent(this)) return;
      // the network held the samples (or the gun went away): the Godfather may pull again
      if (c !== "covered") return ctx.cue(gf, "ambig");
      const r = sen.target(e.t, ctx.bearings[gf]!, gf, ctx.aimOpts, (s) => ctx.alive(s));
      const old = r.kind === "target" ? ctx.aimOf(r.seat) : null;
      if (r.kind === "target" && ctx.canReorder(gf, r.seat, old)) this.order(r.seat, old);
      else ctx.cue(gf, r.kind === "ambiguous" ? "ambig" : "err");
    });
    // (read at once when the samples were already in)
    if (!settled) this.resolving = cancel;
  }

  gunBack(_slot: Seat): void {
    // the window runs on: a Godfather whose gun is away can still be given the privilege on the dashboard
  }

  aiming(slot: Seat): boolean {
    return slot === this.godfather;
  }

  activity(): TableActivity {
    return { kind: "privilege", godfather: this.godfather, until: this.until };
  }

  /** The dashboard: the Godfather orders `order` (already checked with canReorder) to re-aim, or passes (null). */
  give(order: Seat | null): void {
    if (order === null) this.finish(null, null);
    else this.order(order, this.ctx.aimOf(order));
  }

  private order(order: Seat, old: Seat | null): void {
    this.clearTimers();
    this.ctx.end(this);
    this.ctx.cue(order, "turn", { colour: seatColour(order) });
    CountJob.start(this.ctx, "reaim", [order], { seat: order, old });
  }

  private finish(order: Seat | null, target: Seat | null): void {
    if (!this.ctx.isCurrent(this)) return;
    this.clearTimers();
    this.ctx.end(this);
    settlePrivilege(this.ctx, order, target);
    this.ctx.advance();
  }

  private clearTimers(): void {
    this.ctx.clock.clearTimer(this.timer);
    this.resolving?.();
    this.resolving = null;
  }
}
