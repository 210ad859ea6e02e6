// The re-centre pose (table option `recentre: "pose"`, recentre.ts): at a round's start every gun but the
// Godfather's points at the Godfather and pulls; each pull re-centres that gun's yaw offset. The window's end, or
// the last pull, ends it.
import type { HubMs } from "@cng/protocol";
import { seatColour } from "../feedback/index.js";
import type { Seat } from "../rules/index.js";
import type { TimerHandle } from "./clock.js";
import { heldAt, type Job, type JobContext } from "./job.js";
import type { TableActivity } from "./ports.js";
import { recentred } from "./recentre.js";
import type { TriggerInput } from "./sensors.js";

/** This round's pose is over (or not asked for). */
function settleRecentre(ctx: JobContext): void {
  ctx.plan.recentred = true;
  ctx.record({ kind: "recentred", round: ctx.plan.round });
}

export class RecentreJob implements Job {
  readonly phase = { kind: "recentre" as const };
  /** slots still to pull */
  private readonly todo: Set<Seat>;
  private readonly until: HubMs;
  private readonly timer: TimerHandle;

  private constructor(
    private readonly ctx: JobContext,
    private readonly godfather: Seat,
    slots: Seat[],
  ) {
    this.todo = new Set(slots);
    this.until = ctx.clock.now() + ctx.timing.recentreWindowMs;
    this.timer = ctx.clock.setTimer(ctx.timing.recentreWindowMs, () => this.finish());
  }

  /** Starts the pose; true when there is nobody to pose (settled at once). */
  static start(ctx: JobContext, activeSlots: Seat[]): boolean {
    const gf = ctx.state.godfather;
    const slots = activeSlots.filter((slot) => ctx.shooter(slot)!.seat !== gf);
    if (!ctx.alive(gf) || slots.length === 0) {
      settleRecentre(ctx);
      return true;
    }
    ctx.begin(new RecentreJob(ctx, gf, slots));
    for (const slot of slots) ctx.cue(slot, "turn", { colour: seatColour(gf) });
    return false;
  }

  /** A pull while pointing at the Godfather: read the pose once the gun's stream has reached the pull. */
  trigger(slot: Seat, e: TriggerInput): void {
    if (e.k !== "p" || !this.todo.has(slot)) return;
    this.todo.delete(slot);
    const ctx = this.ctx;
    const sen = ctx.sensor(slot);
    ctx.whenCovered(slot, sen.clock.toHub(e.t) ?? ctx.clock.now(), (c) => {
      const from = heldAt(ctx, slot);
      const seat = { target: this.godfather, from, rangeM: ctx.ranges[from]![this.godfather]! };
      const track =
        c === "covered" ? recentred(sen, e.t, ctx.bearings[from]![this.godfather]!, ctx.aimOpts, seat) : null;
      if (track !== null) sen.track = track;
      if (!ctx.isCurrent(this)) return;
      if (track === null && sen.track !== null) {
        // no steady reading: the player may pull again
        this.todo.add(slot);
        ctx.cue(slot, "ambig");
      } else ctx.cue(slot, "lock", { colour: seatColour(this.godfather) });
      if (this.todo.size === 0) this.finish();
    });
  }

  gunBack(_slot: Seat): void {
    // a gun back in time may still pull; the window does not wait
  }

  aiming(_slot: Seat): boolean {
    return false;
  }

  activity(): TableActivity {
    return { kind: "recentre", godfather: this.godfather, seats: [...this.todo], until: this.until };
  }

  private finish(): void {
    if (!this.ctx.end(this)) return;
    this.ctx.clock.clearTimer(this.timer);
    settleRecentre(this.ctx);
    this.ctx.advance();
  }
}
