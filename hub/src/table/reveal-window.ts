// A reveal window (physical cards): the players whose card may be a Bang! pull in it (classic: a `bbb` window
// first, then `bang`). A pull out of turn, or for a card the player no longer holds, is refused with a click.
// A pull counts by when it was made (gun time), so a seat silent at the close is closed only once its gun's stream
// has reached the close (a pull in flight is then in: coverage.ts); a gun away, or whose stream the network holds,
// is waited for, then given its own window when the gun is back.
import type { HubMs } from "@cng/protocol";
import type { Seat } from "../rules/index.js";
import type { TimerHandle } from "./clock.js";
import { keepWait } from "./coverage.js";
import type { Job, JobContext } from "./job.js";
import type { TableActivity } from "./ports.js";
import type { RevealWindow } from "./records.js";
import { learnedCards, pullAllowed, windowSeats } from "./reveal.js";
import type { TriggerInput } from "./sensors.js";

/** gun ms a pull made at the close may take to be sent: the trigger's debounce (20 ms) and a turn of the loop */
const PULL_SENT_MS = 60;

/** The window is closed: these seats pulled in it. */
function closeWindow(ctx: JobContext, window: RevealWindow, seats: Seat[]): void {
  ctx.plan.pulls[window] = seats;
  ctx.record({ kind: "pulls", round: ctx.plan.round, window, seats });
}

export class RevealJob implements Job {
  readonly phase = { kind: "reveal" as const };
  private readonly opensAt: HubMs;
  private readonly closesAt: HubMs;
  /** seats whose window was re-opened after their gun came back */
  private readonly own = new Map<Seat, { opensAt: HubMs; closesAt: HubMs }>();
  private readonly pulls = new Set<Seat>();
  private readonly open: Set<Seat>;
  private readonly timers: TimerHandle[] = [];
  private readonly dropped = new Map<Seat, TimerHandle>();
  /** seats whose close waits for their gun's stream */
  private readonly reading = new Map<Seat, () => void>();

  private constructor(
    private readonly ctx: JobContext,
    private readonly window: RevealWindow,
    private readonly seats: Seat[],
  ) {
    const clock = ctx.clock;
    this.opensAt = clock.now() + ctx.leadIn(seats);
    this.closesAt = this.opensAt + ctx.timing.revealWindowMs;
    this.open = new Set(seats);
  }

  /**
   * Opens the next reveal window for these physical guns' slots, or, all closed, hands the learned cards to the plan.
   * True when something was settled without waiting.
   */
  static next(ctx: JobContext, physical: Seat[]): boolean {
    const s = ctx.state;
    const pulls = ctx.plan.pulls;
    const window: RevealWindow | null =
      s.edition === "classic" && pulls.bbb === undefined ? "bbb" : pulls.bang === undefined ? "bang" : null;
    if (window === null) {
      const learned = learnedCards(s, ctx.plan, physical, pulls);
      for (const seat of learned.nobody) ctx.plan.aims.set(seat, null);
      for (const [seat, card] of learned.bullets) ctx.plan.bullets.set(seat, card);
      return true;
    }
    const seats = windowSeats(s, ctx.plan, physical, window, pulls.bbb ?? []);
    if (seats.length === 0) {
      closeWindow(ctx, window, []);
      return true;
    }
    const job = new RevealJob(ctx, window, seats);
    ctx.begin(job);
    ctx.cue("all", "go", { at: job.opensAt });
    job.closeAt(job.closesAt, seats);
    return false;
  }

  trigger(slot: Seat, e: TriggerInput): void {
    if (e.k !== "p") return;
    const w = this.own.get(slot) ?? { opensAt: this.opensAt, closesAt: this.closesAt };
    const at = this.ctx.sensor(slot).clock.toHub(e.t) ?? this.ctx.clock.now();
    if (at < w.opensAt || at > w.closesAt || this.pulls.has(slot)) return;
    // a pull out of turn, or a card the player no longer holds (a fourth Bang!): refused, counts as a click
    if (this.seats.includes(slot) && pullAllowed(this.ctx.state, this.ctx.guns, slot, this.window))
      this.pulls.add(slot);
    else this.ctx.cue(slot, "err");
  }

  gunBack(slot: Seat): void {
    if (!this.dropped.has(slot)) return;
    this.ctx.clock.clearTimer(this.dropped.get(slot)!);
    this.dropped.delete(slot);
    // its own window, from now
    const clock = this.ctx.clock;
    const opensAt = clock.now() + this.ctx.leadIn([slot]);
    const closesAt = opensAt + this.ctx.timing.revealWindowMs;
    this.own.set(slot, { opensAt, closesAt });
    this.ctx.cue(slot, "go", { at: opensAt });
    this.closeAt(closesAt, [slot]);
    this.ctx.emit();
  }

  aiming(_slot: Seat): boolean {
    return false;
  }

  activity(): TableActivity {
    return {
      kind: "reveal",
      window: this.window,
      seats: this.seats,
      opensAt: this.opensAt,
      closesAt: this.closesAt,
      waitingGun: [...this.dropped.keys()],
      lagging: [...this.reading.keys()].sort((a, b) => a - b),
    };
  }

  private closeAt(closesAt: HubMs, seats: Seat[]): void {
    const clock = this.ctx.clock;
    this.timers.push(clock.setTimer(closesAt - clock.now(), () => this.closeFor(seats, closesAt)));
  }

  /** The window closes for these seats: each silent one once its gun's stream has reached the close. */
  private closeFor(seats: Seat[], closesAt: HubMs): void {
    if (!this.ctx.isCurrent(this)) return;
    for (const seat of seats) this.closeWhenIn(seat, closesAt);
    this.done();
  }

  private closeWhenIn(seat: Seat, closesAt: HubMs): void {
    const ctx = this.ctx;
    if (this.pulls.has(seat)) {
      this.open.delete(seat);
      return;
    }
    keepWait(
      this.reading,
      seat,
      (fn) => ctx.whenCovered(seat, closesAt + PULL_SENT_MS, fn),
      (c) => {
        if (!ctx.isCurrent(this)) return;
        if (c === "covered" || this.pulls.has(seat)) this.open.delete(seat);
        else this.waitForGun(seat, closesAt);
        this.done();
        if (ctx.isCurrent(this)) ctx.emit();
      },
    );
  }

  /**
   * The seat's gun is away, or its stream is held: it is waited for. Back online, it gets a window of its own
   * (gunBack); its stream catching up closes it with what it sent; neither in time, it closes silent.
   */
  private waitForGun(seat: Seat, closesAt: HubMs): void {
    const ctx = this.ctx;
    const giveUp = ctx.clock.now() + ctx.timing.dropWaitMs;
    this.dropped.set(
      seat,
      ctx.clock.setTimer(ctx.timing.dropWaitMs, () => {
        this.dropped.delete(seat);
        this.reading.get(seat)?.();
        this.reading.delete(seat);
        this.open.delete(seat);
        this.done();
      }),
    );
    if (!ctx.sensor(seat).online) return;
    const again = () =>
      keepWait(
        this.reading,
        seat,
        (fn) => ctx.whenCovered(seat, closesAt + PULL_SENT_MS, fn),
        (c) => {
          if (!ctx.isCurrent(this) || !this.dropped.has(seat)) return;
          if (c === "covered") {
            ctx.clock.clearTimer(this.dropped.get(seat)!);
            this.dropped.delete(seat);
            this.open.delete(seat);
            this.done();
          } else if (c === "lagging" && ctx.clock.now() < giveUp) again();
        },
      );
    again();
  }

  private done(): void {
    const ctx = this.ctx;
    if (!ctx.isCurrent(this) || this.open.size > 0) return;
    for (const t of this.timers) ctx.clock.clearTimer(t);
    for (const cancel of this.reading.values()) cancel();
    this.reading.clear();
    ctx.end(this);
    closeWindow(
      ctx,
      this.window,
      [...this.pulls].sort((a, b) => a - b),
    );
    ctx.advance();
  }
}
