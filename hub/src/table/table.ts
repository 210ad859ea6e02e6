// The Godfather: runs a physical game from sensor streams, consoles and bots. It turns counts, snapshots,
// pulls and host inputs into rules-engine decisions; the engine stays the referee. Which part of the round
// comes next is derived from (engine state + the round's plan), so resuming after a crash is: rebuild the
// plan from the records, then carry on. The timed activities are jobs (job.ts), one module each; a half-finished
// one simply starts again.
import type { CueName, GunMs, HubMs } from "@cng/protocol";
import {
  type AimOptions,
  aimOptions,
  type Bearings,
  bearings,
  inDoubt,
  liveAim,
  type OffsetTrack,
  type Ranges,
  ranges,
} from "../aim/index.js";
import { type CueOptions, type CueTarget, seatColour } from "../feedback/index.js";
import {
  type Applied,
  aimsLast,
  type Bullet,
  type Decision,
  type GameEvent,
  HOLDUP_STEPS,
  holdupBefore,
  isSensed,
  type Owed,
  type Pending,
  type PowerId,
  pending,
  type Seat,
  type State,
} from "../rules/index.js";
import { CountJob } from "./count.js";
import { CoverageWaits } from "./coverage.js";
import { aimOfShooter, armed2, cardOf, type SecondGuns, type Shooter, shooterOf } from "./guns.js";
import type { Job, JobContext } from "./job.js";
import { PhoneJob } from "./phone.js";
import { absorb, newPlan, planned, type RoundPlan } from "./plan.js";
import type {
  InputResult,
  SecretSource,
  TableActivity,
  TableConfig,
  TablePorts,
  TableStatus,
  Waiting,
} from "./ports.js";
import { revealRefusal } from "./powers.js";
import { PrivilegeJob } from "./privilege.js";
import { RecentreJob } from "./recentre-pose.js";
import type { TableRecord } from "./records.js";
import { RevealJob } from "./reveal-window.js";
import { type AimInput, SeatSensors, type TriggerInput } from "./sensors.js";
import { type TableTiming, tableTiming } from "./timing.js";

/** a count's lead-in never grows past this, whatever a gun's link did once */
const MAX_LEAD_IN_MS = 1500;

export class Table {
  readonly timing: TableTiming;
  private readonly aimOpts: AimOptions;
  private readonly bearings: Bearings;
  private readonly ranges: Ranges;
  private readonly sensors: SeatSensors[];
  private current: State;
  private plan: RoundPlan;
  private job: Job | null = null;
  private waiting: Waiting[] = [];
  private advancing = false;
  private turnCued = "";
  /** the Specialist asked this round (`round:seat`), so her window is timed once */
  private specialistAsked = "";
  /** a restarted table: its first count waits for the seated guns to be back (count.ts) */
  private holdForGuns = false;
  /** You-don't-need-it-anymore: owner → the slot of the gun they took (guns.ts) */
  private readonly guns: SecondGuns = new Map();
  private wonCued = false;
  /** what the jobs may use of the table */
  private readonly ctx: JobContext;
  /** verdicts waiting for a gun's stream to reach their instant */
  private readonly coverage: CoverageWaits;

  constructor(
    private readonly config: TableConfig,
    private readonly ports: TablePorts,
    state: State,
  ) {
    const n = state.players.length;
    if (config.layout.seats.length !== n)
      throw new Error(`the layout has ${config.layout.seats.length} seats, the game ${n}`);
    if (config.secrets.length !== n) throw new Error(`give a secret source for each of the ${n} seats`);
    this.timing = tableTiming(config.timing);
    this.aimOpts = aimOptions(config.aim);
    this.bearings = bearings(config.layout, this.aimOpts.gunForwardM);
    this.ranges = ranges(config.layout, this.aimOpts.gunForwardM);
    this.sensors = state.players.map((_, seat) => new SeatSensors(seat, this.timing.clockWindowMs));
    this.current = state;
    this.plan = newPlan(state.round, config.autoStart === true, this.guns);
    this.coverage = new CoverageWaits(ports.clock, (seat) => this.sensors[seat]!);
    this.ctx = this.jobContext();
  }

  /** Rebuilds a table after a restart: `state` replayed from the game log, `records` the table's own. */
  static resume(config: TableConfig, ports: TablePorts, state: State, records: readonly TableRecord[]): Table {
    const t = new Table(config, ports, state);
    for (const r of records) absorb(t.plan, r);
    t.holdForGuns = true;
    return t;
  }

  /** Starts (or, after resume, continues) driving the game. */
  begin(): void {
    this.advance();
  }

  get state(): State {
    return this.current;
  }

  get status(): TableStatus {
    return {
      round: this.current.round,
      step: this.current.step,
      over: this.current.over,
      activity: this.activity(),
      waiting: this.waiting.slice(),
      live: this.sensors.map((s) => s.live),
      online: this.sensors.map((s) => s.online),
      guns2: [...this.guns].filter(([seat]) => armed2(this.current, seat)).map(([seat, from]) => ({ seat, from })),
    };
  }

  // ---------------------------------------------------------------- inputs

  /** An aim sample from the seat's gun; `hubRecv` is when the hub received it. */
  aim(seat: Seat, sample: AimInput, hubRecv: HubMs): void {
    const sen = this.sensors[seat];
    if (!sen) return;
    if (!sen.online) this.presence(seat, true);
    if (!sen.addAim(sample, hubRecv)) return;
    this.coverage.sampled(seat);
    const from = this.shooter(seat)?.seat ?? seat;
    const live = liveAim(
      sen.window,
      sample.t,
      sen.offsetAt(sample.t),
      sen.row(this.bearings[from]!),
      from,
      sen.live,
      this.aimOpts,
      (s) => this.alive(s),
    );
    const changed = live.seat !== sen.live;
    sen.live = live.seat;
    sen.between = live.seat === null ? null : live.between;
    if (this.job?.aiming(seat)) {
      const now = this.ports.clock.now();
      // a beat of the count flashed white and left the LED dark: its colour is shown again
      let dark = false;
      while (sen.flashEnds.length > 0 && now >= sen.flashEnds[0]!) {
        if (sen.flashEnds.shift()! > sen.lastLockAt) dark = true;
      }
      const shows = sen.live !== sen.shown || sen.between !== sen.shownBetween || dark;
      if (shows && now - sen.lastLockAt >= this.timing.lockIntervalMs) {
        sen.shown = sen.live;
        sen.shownBetween = sen.between;
        sen.lastLockAt = now;
        const blink = sen.between === null ? {} : { blink: seatColour(sen.between) };
        this.cue(seat, "lock", sen.live === null ? {} : { colour: seatColour(sen.live), ...blink });
      } else if (dark) sen.flashEnds.unshift(now);
    }
    if (changed) this.emit();
  }

  trigger(seat: Seat, e: TriggerInput): void {
    this.job?.trigger(seat, e);
  }

  presence(seat: Seat, online: boolean): void {
    const sen = this.sensors[seat];
    if (!sen || sen.online === online) return;
    sen.online = online;
    // back, it may have rebooted: its clock offset is measured afresh
    if (online) sen.clock.reset();
    if (online) this.job?.gunBack(seat);
    else this.coverage.offline(seat);
    this.emit();
  }

  /** A clock probe of the seat's gun: the `time` answer sent at hub ms `h` reached it at its ms `a`. */
  probe(seat: Seat, h: HubMs, a: GunMs): void {
    this.sensors[seat]?.probe(h, a);
  }

  /** The seat's yaw calibration (null: raw yaw is already a table bearing). */
  calibrate(seat: Seat, track: OffsetTrack | null): void {
    const sen = this.sensors[seat];
    if (sen) sen.track = track;
  }

  /** A console player's secret card. */
  secret(seat: Seat, card: Bullet, gun?: 2): InputResult {
    if (this.source(seat).kind !== "console") return { ok: false, error: `seat ${seat} does not choose on a console` };
    const owes = pending(this.current).owed.some((o) => o.seat === seat && o.decision === "bullet" && o.gun === gun);
    if (!owes) return { ok: false, error: "no card is wanted from this seat now" };
    return this.submitAndGo(gun === 2 ? { type: "bullet", seat, card, gun } : { type: "bullet", seat, card });
  }

  /** A Super Power revealed by choice (console or host). */
  revealPower(seat: Seat, power: PowerId): InputResult {
    const why = revealRefusal(power, this.plan, this.job?.phase ?? null);
    if (why !== null) return { ok: false, error: why };
    return this.submitAndGo({ type: "reveal", seat, power });
  }

  /** The host starts this round's hold-up. */
  startRound(): InputResult {
    if (this.current.over) return { ok: false, error: "the game is over" };
    if (this.plan.started) return { ok: false, error: "the round is already started" };
    this.plan.started = true;
    this.record({ kind: "start", round: this.plan.round });
    this.advance();
    return { ok: true };
  }

  /**
   * What sensors cannot give: draft picks, It-doesn't-even-hurt, take-gun, the Specialist's discard, a phone
   * flip, or the Godfather's privilege given (or passed) on the dashboard.
   */
  hostDecide(d: Decision): InputResult {
    const job = this.job;
    if (d.type === "privilege") {
      if (!(job instanceof PrivilegeJob) || d.seat !== job.godfather)
        return { ok: false, error: "no privilege is open" };
      if (d.order !== null && !this.canReorder(job.godfather, d.order, this.aimOf(d.order)))
        return { ok: false, error: "that player cannot be ordered" };
      job.give(d.order);
      return { ok: true };
    }
    if (job instanceof PhoneJob && d.type === "phone" && d.seat === job.seat) {
      job.decide(d.flip);
      return { ok: true };
    }
    if (isSensed(d.type) || d.type === "bullet")
      return { ok: false, error: `${d.type} comes from the guns or the player's console` };
    return this.submitAndGo(d);
  }

  /** The host goes on without the guns a restarted table waits for: the count runs, the missing ones get the drop rule. */
  release(): boolean {
    return this.job instanceof CountJob && this.job.release();
  }

  // ---------------------------------------------------------------- driving

  private advance(): void {
    if (this.job !== null || this.advancing) return;
    this.advancing = true;
    try {
      for (let guard = 0; guard < 10_000; guard++) {
        this.flush();
        const s = this.current;
        this.waiting = [];
        if (s.over) {
          if (!this.wonCued) {
            this.wonCued = true;
            for (const w of s.winners) this.cue(w, "win", { colour: seatColour(w) });
          }
          return;
        }
        if (this.plan.round !== s.round) {
          this.plan = newPlan(s.round, this.config.autoStart === true, this.guns);
          continue;
        }
        const p = pending(s);
        const bot = p.owed.find((o) => this.source(o.seat).kind === "bot" && !isSensed(o.decision));
        if (bot) {
          if (!this.botDecides(bot)) return;
          continue;
        }
        if (HOLDUP_STEPS.includes(s.step)) {
          if (this.holdupPart(p)) continue;
          return;
        }
        const o = p.owed[0];
        if (o === undefined) throw new Error(`the engine waits for nothing in step ${s.step}`);
        if (o.decision === "phone") {
          PhoneJob.start(this.ctx, o.seat);
          return;
        }
        if (o.decision === "pick") {
          const key = `${s.round}:${s.draft?.at}:${o.seat}`;
          if (key !== this.turnCued) {
            this.turnCued = key;
            this.cue(o.seat, "turn", { colour: seatColour(o.seat) });
          }
        }
        this.waiting = p.owed.map((x) => ({ seat: x.seat, for: "host", decision: x.decision }));
        for (const x of p.owed) if (x.decision === "specialist") this.askSpecialist(x.seat);
        return;
      }
      throw new Error("the table made no progress");
    } finally {
      this.advancing = false;
      this.emit();
    }
  }

  /** The round's first half. True when something was settled without waiting (loop again). */
  private holdupPart(p: Pending): boolean {
    const s = this.current;
    const ctx = this.ctx;
    const consoleOwed = p.owed.filter((o) => o.decision === "bullet" && this.source(o.seat).kind === "console");
    if (consoleOwed.length > 0) {
      this.waiting = consoleOwed.map((o) => ({ seat: o.seat, for: "secret" }));
      return false;
    }
    if (!this.plan.started) {
      this.waiting = [{ seat: s.godfather, for: "start" }];
      return false;
    }
    if (!this.plan.recentred) {
      const posing = this.recentreSlots();
      if (posing.length > 0) return RecentreJob.start(ctx, posing);
    }
    const alive = this.aliveSeats();
    const kid = alive.find((seat) => aimsLast(s.players[seat]!));
    const guns = this.activeSlots();
    // the Kid aims after everyone else: a count of its own once the others' aims are known
    const aims = guns.filter((slot) => this.shooter(slot)!.seat !== kid && !this.aimKnown(slot));
    if (aims.length > 0) return CountJob.start(ctx, "aim", aims);
    const kidAims = guns.filter((slot) => this.shooter(slot)!.seat === kid && !this.aimKnown(slot));
    if (kidAims.length > 0) return CountJob.start(ctx, "aim", kidAims);
    if (s.edition === "second" && !this.privilegeKnown()) return PrivilegeJob.start(ctx);
    // with two guns the owner lies down as one player: their own gun (gun 1) says it
    const courage = alive.filter((seat) => !this.courageKnown(seat));
    if (courage.length > 0) return CountJob.start(ctx, "courage", courage);
    const physical = guns.filter((slot) => {
      const sh = this.shooter(slot)!;
      return this.source(sh.seat).kind === "physical" && cardOf(s, sh) === null;
    });
    if (physical.length > 0) return RevealJob.next(ctx, physical);
    throw new Error(`the table is stuck in step ${s.step}`);
  }

  /** Hands the engine every decision of the plan it asks for, in its order. */
  private flush(): void {
    for (;;) {
      const s = this.current;
      let d: Decision | null = null;
      for (const o of pending(s).owed) {
        d = planned(s, this.plan, o);
        if (d) break;
      }
      if (d === null) return;
      const r = this.submit(d);
      if (!r.ok) throw new Error(`the engine refused the table's own decision: ${r.error.message}`);
    }
  }

  private submit(d: Decision): Applied {
    const r = this.ports.decide(d);
    if (r.ok) {
      this.current = r.value.state;
      this.onEvents(r.value.events);
    }
    return r;
  }

  private submitAndGo(d: Decision): InputResult {
    const r = this.submit(d);
    if (!r.ok) return { ok: false, error: r.error.message };
    this.advance();
    return { ok: true };
  }

  private botDecides(o: Owed): boolean {
    const src = this.source(o.seat);
    if (src.kind !== "bot") return false;
    const r = this.submit(src.strategy(this.current, o));
    if (r.ok) return true;
    this.cue(o.seat, "err");
    this.waiting = [{ seat: o.seat, for: "host", decision: o.decision }];
    return false;
  }

  private onEvents(events: readonly GameEvent[]): void {
    for (const e of events) {
      if (e.type === "wound") this.cue(e.seat, "wound");
      else if (e.type === "death") this.cue(e.seat, "dead");
      else if (e.type === "gun-taken") {
        // the dead seat's gun (still paired there) is the owner's gun 2 from now on
        this.guns.set(e.seat, e.from);
        this.record({ kind: "gun-taken", round: this.current.round, seat: e.seat, from: e.from });
        this.cue(e.from, "turn", { colour: seatColour(e.seat) });
      }
    }
  }

  /**
   * The Specialist's bbb was used: her console or the host may take it back (naming the card to discard) within the
   * reveal window; no answer means she does not use her power (her choice, kept for later).
   */
  private askSpecialist(seat: Seat): void {
    const round = this.current.round;
    const key = `${round}:${seat}`;
    if (this.specialistAsked === key) return;
    this.specialistAsked = key;
    this.ports.clock.setTimer(this.timing.revealWindowMs, () => {
      const owed = pending(this.current).owed.some((o) => o.seat === seat && o.decision === "specialist");
      if (!owed || this.current.round !== round) return;
      this.submitAndGo({ type: "specialist", seat, discard: null, use: false });
    });
  }

  // ---------------------------------------------------------------- helpers

  private jobContext(): JobContext {
    // getters: the state and the plan are replaced as the game goes
    const t = this;
    return {
      timing: this.timing,
      clock: this.ports.clock,
      aimOpts: this.aimOpts,
      bearings: this.bearings,
      ranges: this.ranges,
      guns: this.guns,
      get state() {
        return t.current;
      },
      get plan() {
        return t.plan;
      },
      get holdForGuns() {
        return t.holdForGuns;
      },
      set holdForGuns(v: boolean) {
        t.holdForGuns = v;
      },
      sensor: (slot) => this.sensors[slot]!,
      shooter: (slot) => this.shooter(slot),
      alive: (seat) => this.alive(seat),
      aliveSeats: () => this.aliveSeats(),
      aimOf: (seat) => this.aimOf(seat),
      canReorder: (gf, order, old) => this.canReorder(gf, order, old),
      cue: (to, name, opts) => this.cue(to, name, opts),
      leadIn: (slots) => this.leadIn(slots),
      whenCovered: (slot, hubT, fn) => this.coverage.wait(slot, hubT, this.timing.lagBoundMs, fn),
      record: (r) => this.record(r),
      submit: (d) => this.submit(d),
      emit: () => this.emit(),
      setWaiting: (w) => {
        this.waiting = w;
      },
      isCurrent: (job) => this.job === job,
      begin: (job) => {
        this.job = job;
      },
      end: (job) => {
        if (this.job !== job) return false;
        this.job = null;
        return true;
      },
      advance: () => this.advance(),
    };
  }

  private source(seat: Seat): SecretSource {
    return this.config.secrets[seat]!;
  }

  private alive(seat: Seat): boolean {
    return this.current.players[seat]?.alive === true;
  }

  private aliveSeats(): Seat[] {
    const out: Seat[] = [];
    this.current.players.forEach((p, seat) => {
      if (p.alive) out.push(seat);
    });
    return out;
  }

  private sameRound(): boolean {
    return this.current.round === this.plan.round;
  }

  /** Whether the aim of the gun in this slot is known. */
  private aimKnown(slot: Seat): boolean {
    const sh = this.shooter(slot);
    return this.plan.aims.has(slot) || sh === null || (this.sameRound() && aimOfShooter(this.current, sh) !== -2);
  }

  /** The shooter the gun in this slot acts as (null: a dead player's gun nobody took). */
  private shooter(slot: Seat): Shooter | null {
    return shooterOf(this.current, this.guns, slot);
  }

  /** The slots of every gun in play: each living player's own, then any taken gun still armed. */
  /**
   * Who points at the Godfather at this round's start: every gun ("pose"), only the guns whose offset is in doubt
   * (snapshots), asked before the round's first aim, or nobody ("none").
   */
  private recentreSlots(): Seat[] {
    const slots = this.activeSlots();
    if (this.config.recentre === "pose") return slots;
    if (this.config.recentre === "none" || this.plan.aims.size > 0) return [];
    return slots.filter((slot) => {
      const track = this.sensors[slot]!.track;
      return track !== null && inDoubt(track, this.aimOpts);
    });
  }

  private activeSlots(): Seat[] {
    const out: Seat[] = [];
    for (let slot = 0; slot < this.current.players.length; slot++) if (this.shooter(slot) !== null) out.push(slot);
    return out;
  }

  private courageKnown(seat: Seat): boolean {
    return this.plan.courage.has(seat) || (this.sameRound() && this.current.courage[seat] !== -1);
  }

  private privilegeKnown(): boolean {
    return this.plan.privilege !== undefined || !holdupBefore(this.current.step, "reaim");
  }

  /** The seat's aim this round as far as the table knows it. */
  private aimOf(seat: Seat): Seat | null {
    if (this.plan.aims.has(seat)) return this.plan.aims.get(seat)!;
    const a = this.current.aim[seat]!;
    return a >= 0 ? a : null;
  }

  private canReorder(gf: Seat, order: Seat, old: Seat | null): boolean {
    if (order === gf || !this.alive(order)) return false;
    return this.aliveSeats().some((t) => t !== order && t !== old);
  }

  /** The lead-in for cues to these slots: the slowest gun's recent downlink plus a margin, never under the timing's. */
  private leadIn(slots: readonly Seat[]): number {
    let worst = 0;
    for (const s of slots) worst = Math.max(worst, this.sensors[s]?.downlink.worstMs ?? 0);
    return Math.min(MAX_LEAD_IN_MS, Math.max(this.timing.leadInMs, worst + this.timing.leadMarginMs));
  }

  private cue(to: CueTarget, name: CueName, opts?: CueOptions): void {
    this.ports.cue(to, name, opts);
  }

  private record(r: TableRecord): void {
    this.ports.record(r);
  }

  private activity(): TableActivity | null {
    return this.job?.activity() ?? null;
  }

  private emit(): void {
    this.ports.status?.(this.status);
  }
}
