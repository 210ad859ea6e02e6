// A count: beats at T and T + pace, "go" at T + 2·pace for every gun in it, then where each one points (aim, re-aim)
// or whether it lies down (courage), read over the reaction window after "3" the rule books play by (aim/draw.ts: a
// gun held from before "3" as held, a draw at "3" at its first steady hold, too slow after the window). The cues go
// out early enough for the slowest gun to have them (its measured downlink); each gun's window is read once its
// stream has reached the instants it needs (coverage.ts), and again as it needs more. An unclear aim is counted
// again, up to the timing's limit; so is a gun whose stream the network held past the bound (it lags: not the
// player's doing); a gun away at the snapshot is waited for (the drop rule), then decided for. The count's next
// re-count waits until every gun of this one is read.
import type { CueName, HubMs } from "@cng/protocol";
import { learnFromSnapshot, readCourage } from "../aim/index.js";
import { type CueTarget, cuePattern } from "../feedback/index.js";
import type { Seat } from "../rules/index.js";
import type { TimerHandle } from "./clock.js";
import { type Coverage, keepWait } from "./coverage.js";
import { heldAt, type Job, type JobContext } from "./job.js";
import { absorb } from "./plan.js";
import type { CountPurpose, TableActivity } from "./ports.js";
import type { TableRecord } from "./records.js";
import type { TriggerInput } from "./sensors.js";

/** how long a pattern's LED steps run before its last colour stays (a beat's white flash, then dark) */
const flashOf = (l: readonly number[] | undefined) =>
  (l ?? []).reduce((a, v, i) => (i % 2 === 1 && i < l!.length - 1 ? a + v : a), 0);
const BEAT_FLASH_MS = flashOf(cuePattern("beat").l);
const GO_FLASH_MS = flashOf(cuePattern("go").l);

/**
 * The count's cues: beats at `t0` and `t0` + pace, "go" at `t0` + 2·pace, to every gun when the count is everyone's
 * (`whole` and every living seat in it), else to its seats; the LED is dark after each beat's flash, and its live
 * colour is shown again then (table.ts).
 */
function countCues(ctx: JobContext, seats: readonly Seat[], t0: HubMs, paceMs: number, whole: boolean): void {
  const goAt = t0 + 2 * paceMs;
  const everyone = whole && ctx.aliveSeats().every((s) => seats.includes(s));
  const targets: CueTarget[] = everyone ? ["all"] : [...seats];
  for (const to of targets) {
    ctx.cue(to, "beat", { at: t0 });
    ctx.cue(to, "beat", { at: t0 + paceMs });
    ctx.cue(to, "go", { at: goAt });
  }
  for (const seat of seats)
    ctx.sensor(seat).flashEnds.push(t0 + BEAT_FLASH_MS, t0 + paceMs + BEAT_FLASH_MS, goAt + GO_FLASH_MS);
}

/** One more re-count for `seat` in `used`, unless it had `max` already. */
function another(used: Map<Seat, number>, seat: Seat, max: number): boolean {
  const n = used.get(seat) ?? 0;
  if (n >= max) return false;
  used.set(seat, n + 1);
  return true;
}

export class CountJob implements Job {
  readonly todo: Set<Seat>;
  private readonly ready: Set<Seat>;
  private readonly attempts = new Map<Seat, number>();
  /** re-counts each seat had because its stream lagged */
  private readonly lags = new Map<Seat, number>();
  /** seats re-counted because their stream lagged at the last snapshot (the table view names them) */
  private readonly lagging = new Set<Seat>();
  /** snapshots waiting for a seat's stream to reach their instant */
  private readonly reading = new Map<Seat, () => void>();
  /** the count on: its seats, "3", and those of them still being read (its window runs on after "3") */
  private running: { seats: Seat[]; goAt: HubMs; paceMs: number; timer: TimerHandle; open: Set<Seat> } | null = null;
  /** timers until the instant a seat's reading needs next */
  private readonly later = new Map<Seat, TimerHandle>();
  private pause: TimerHandle | null = null;
  private readonly dropped = new Map<Seat, TimerHandle>();
  /** after a restart: the count waits for these seats' guns to come back (or the host to release it) */
  private held: Set<Seat> | null = null;

  constructor(
    private readonly ctx: JobContext,
    readonly purpose: CountPurpose,
    seats: Seat[],
    /** reaim: the ordered player and the target they must leave */
    private readonly order?: { seat: Seat; old: Seat | null },
  ) {
    this.todo = new Set(seats);
    this.ready = new Set(seats);
  }

  /** Starts a count as the current job. Always false: the table waits for it. */
  static start(ctx: JobContext, purpose: CountPurpose, seats: Seat[], order?: { seat: Seat; old: Seat | null }): false {
    const job = new CountJob(ctx, purpose, seats, order);
    ctx.begin(job);
    job.run();
    return false;
  }

  get phase() {
    return { kind: "count" as const, purpose: this.purpose };
  }

  trigger(_slot: Seat, _e: TriggerInput): void {
    // a count reads where guns point, not their triggers
  }

  aiming(slot: Seat): boolean {
    return this.purpose !== "courage" && this.todo.has(slot);
  }

  /** The host goes on without the guns a restarted table waits for; false when this count waits for none. */
  release(): boolean {
    if (this.held === null) return false;
    this.ctx.holdForGuns = false;
    this.run();
    return true;
  }

  gunBack(slot: Seat): void {
    const clock = this.ctx.clock;
    if (this.held?.has(slot)) {
      this.held.delete(slot);
      if (this.held.size === 0) this.run();
      else {
        this.ctx.setWaiting([...this.held].map((s) => ({ seat: s, for: "gun" })));
        this.ctx.emit();
      }
    } else if (this.dropped.has(slot)) {
      clock.clearTimer(this.dropped.get(slot)!);
      this.dropped.delete(slot);
      this.ready.add(slot);
      if (this.running === null && this.pause === null) this.schedulePause();
    }
  }

  activity(): TableActivity {
    const t = this.ctx.timing;
    return {
      kind: "count",
      purpose: this.purpose,
      seats: this.running?.seats ?? [...this.ready],
      goAt: this.running?.goAt ?? null,
      paceMs: this.purpose === "reaim" ? t.shortCountPaceMs : t.countPaceMs,
      drawMs: this.purpose === "courage" ? t.courageMs : t.drawMs,
      waitingGun: [...this.dropped.keys()],
      lagging: [...new Set([...this.lagging, ...this.reading.keys()])].sort((a, b) => a - b),
    };
  }

  /**
   * After a restart the first count waits until every gun in it is back online (a count with nobody's gun up would
   * decide for everyone), or until the host releases it; then a gun still missing gets the drop rule, as when it
   * drops mid-count.
   */
  private run(): void {
    const ctx = this.ctx;
    if (ctx.holdForGuns) {
      const away = [...this.ready].filter((seat) => !ctx.sensor(seat).online);
      if (away.length > 0) {
        this.held = new Set(away);
        ctx.setWaiting(away.map((seat) => ({ seat, for: "gun" })));
        ctx.emit();
        return;
      }
    }
    ctx.holdForGuns = false;
    if (this.held) {
      this.held = null;
      ctx.setWaiting([]);
    }
    const seats = [...this.ready].sort((a, b) => a - b);
    this.ready.clear();
    if (seats.length === 0) return;
    const { clock, timing } = ctx;
    const paceMs = this.purpose === "reaim" ? timing.shortCountPaceMs : timing.countPaceMs;
    const t0 = clock.now() + ctx.leadIn(seats);
    const goAt = t0 + 2 * paceMs;
    countCues(ctx, seats, t0, paceMs, this.purpose !== "reaim");
    // the first instant worth reading: a lie-down from before "3" at once, an aim once a switch at "3" would show
    const first = this.purpose === "courage" ? timing.graceMs : Math.max(timing.graceMs, timing.switchMs);
    this.running = {
      seats,
      goAt,
      paceMs,
      open: new Set(seats),
      timer: clock.setTimer(goAt + first - clock.now(), () => this.snapshot(goAt + first)),
    };
    ctx.emit();
  }

  private snapshot(at: HubMs): void {
    const run = this.running;
    const ctx = this.ctx;
    if (run === null || !ctx.isCurrent(this)) return;
    for (const seat of run.seats) {
      this.lagging.delete(seat);
      this.readAt(seat, run.goAt, at);
    }
    this.emit();
  }

  /** Reads the seat's count once its stream has reached hub time `at` (after a timer while `at` is ahead). */
  private readAt(seat: Seat, goAt: HubMs, at: HubMs): void {
    const ctx = this.ctx;
    const ahead = at - ctx.clock.now();
    if (ahead > 0) {
      this.later.set(
        seat,
        ctx.clock.setTimer(ahead, () => {
          this.later.delete(seat);
          if (ctx.isCurrent(this)) this.readAt(seat, goAt, at);
        }),
      );
      return;
    }
    keepWait(
      this.reading,
      seat,
      (fn) => ctx.whenCovered(seat, at, fn),
      (c) => {
        if (ctx.isCurrent(this)) this.settle(seat, goAt, at, c);
      },
    );
  }

  /** The seat's stream reached `at`, lags, or its gun went away: a verdict, a later read, a re-count or a wait. */
  private settle(seat: Seat, goAt: HubMs, at: HubMs, c: Coverage): void {
    if (c === "covered") {
      const next = this.read(seat, goAt, at);
      if (next !== null) {
        // always on from here (the gun's clock offset may have moved a millisecond meanwhile)
        this.readAt(seat, goAt, Math.max(next, at + 1));
        return;
      }
    } else if (c === "lagging" && this.lagged(seat)) this.emit();
    else this.waitForGun(seat);
    const run = this.running;
    run?.open.delete(seat);
    if (run !== null && run.open.size === 0) {
      this.running = null;
      this.emit();
    }
    if (this.ready.size > 0 && this.pause === null && this.running === null) this.schedulePause();
    this.done();
  }

  /**
   * Reads the seat's count whose "3" is at hub time `goAt`, its stream in up to `at`: decides, or says the hub time it
   * needs the stream up to (null once decided).
   */
  private read(seat: Seat, goAt: HubMs, at: HubMs): HubMs | null {
    const ctx = this.ctx;
    const sen = ctx.sensor(seat);
    const go = sen.clock.toGun(goAt)!;
    const upTo = sen.clock.toGun(at)!;
    const toHub = (t: number) => goAt + (t - go);
    const timing = ctx.timing;
    if (this.purpose === "courage") {
      const v = readCourage(sen.window, go, upTo, timing, ctx.aimOpts);
      if (v.kind === "wait") return toHub(v.untilT);
      this.courageVerdict(seat, v.result.kind === "down");
      return null;
    }
    const from = heldAt(ctx, seat);
    const v = sen.draw(go, upTo, timing, ctx.bearings[from]!, from, ctx.aimOpts, (s) => ctx.alive(s));
    if (v.kind === "wait") return toHub(v.untilT);
    const r = v.result;
    const target = r.kind === "target" ? r.seat : null;
    if (sen.track !== null) {
      // every reading that saw a heading is one more mark for the gun's yaw offset, an unsure one too (a re-aim
      // asked for below is then read with what it taught)
      const at = v.kind === "read" ? v.t : upTo;
      sen.track = learnFromSnapshot(sen.track, at, r, ctx.bearings[from]!, ctx.aimOpts, ctx.ranges[from]).track;
    }
    if (this.purpose === "aim") {
      if (r.kind === "ambiguous" && this.retry(seat, "ambig")) return null;
      this.aimVerdict(seat, target);
    } else {
      const order = this.order!;
      if (target !== null && target !== order.old) this.reaimVerdict(target);
      else if (!this.retry(seat, r.kind === "ambiguous" ? "ambig" : "err")) this.reaimVerdict(null);
    }
    return null;
  }

  /** The network held the seat's stream past the bound: counted again (false: too often, the drop rule then). */
  private lagged(seat: Seat): boolean {
    if (!another(this.lags, seat, this.ctx.timing.maxLagRecounts)) return false;
    this.lagging.add(seat);
    this.ready.add(seat);
    return true;
  }

  private emit(): void {
    if (this.ctx.isCurrent(this)) this.ctx.emit();
  }

  private retry(seat: Seat, cue: CueName): boolean {
    if (!another(this.attempts, seat, this.ctx.timing.maxRecounts)) return false;
    this.ready.add(seat);
    this.ctx.cue(seat, cue);
    return true;
  }

  private schedulePause(): void {
    this.pause = this.ctx.clock.setTimer(this.ctx.timing.recountPauseMs, () => {
      this.pause = null;
      if (this.ctx.isCurrent(this)) this.run();
    });
  }

  private waitForGun(seat: Seat): void {
    this.dropped.set(
      seat,
      this.ctx.clock.setTimer(this.ctx.timing.dropWaitMs, () => {
        this.dropped.delete(seat);
        if (!this.ctx.isCurrent(this)) return;
        // too slow: nobody, stays up, or (re-aim) the privilege lapses
        if (this.purpose === "aim") this.aimVerdict(seat, null);
        else if (this.purpose === "courage") this.courageVerdict(seat, false);
        else this.reaimVerdict(null);
        this.done();
      }),
    );
    this.ctx.emit();
  }

  private aimVerdict(seat: Seat, target: Seat | null): void {
    this.verdict({ kind: "aim", round: this.ctx.plan.round, seat, target });
  }

  private courageVerdict(seat: Seat, lieDown: boolean): void {
    this.verdict({ kind: "courage", round: this.ctx.plan.round, seat, lieDown });
  }

  private reaimVerdict(target: Seat | null): void {
    const order = target === null ? null : this.order!.seat;
    this.verdict({ kind: "privilege", round: this.ctx.plan.round, order, target });
  }

  /** A verdict: its seat (a re-aim: the count) is done; the round's plan takes it in and the log keeps it. */
  private verdict(r: Extract<TableRecord, { kind: "aim" | "courage" | "privilege" }>): void {
    if (r.kind === "privilege") this.todo.clear();
    else this.todo.delete(r.seat);
    absorb(this.ctx.plan, r);
    this.ctx.record(r);
  }

  private done(): void {
    if (!this.ctx.isCurrent(this) || this.todo.size > 0) return;
    if (this.pause !== null) this.ctx.clock.clearTimer(this.pause);
    for (const cancel of this.reading.values()) cancel();
    this.reading.clear();
    for (const timer of this.later.values()) this.ctx.clock.clearTimer(timer);
    this.later.clear();
    this.ctx.end(this);
    this.ctx.advance();
  }
}
