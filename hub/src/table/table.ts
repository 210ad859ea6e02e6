// The Godfather: runs a physical game from sensor streams, consoles and bots. It turns counts, snapshots,
// pulls and host inputs into rules-engine decisions; the engine stays the referee. Which part of the round
// comes next is derived from (engine state + the round's plan), so resuming after a crash is: rebuild the
// plan from the records, then carry on. Timed activities (a count, a reveal window) are transient: a
// half-finished one simply starts again.
import type { CueName, HubMs } from "@cng/protocol";
import {
  type AimOptions,
  aimOptions,
  type Bearings,
  bearings,
  detectLieDown,
  learnFromSnapshot,
  liveAim,
  type OffsetTrack,
  resolveTarget,
} from "../aim/index.js";
import { type CueOptions, type CueTarget, seatColour } from "../feedback/index.js";
import {
  type ApplyResult,
  type Bullet,
  type Decision,
  type GameEvent,
  type Owed,
  type Pending,
  type PowerId,
  pending,
  type Seat,
  type State,
  type Step,
} from "../rules/index.js";
import type { TimerHandle } from "./clock.js";
import { aimOfShooter, armed2, cardOf, type SecondGuns, type Shooter, shooterOf } from "./guns.js";
import { absorb, newPlan, planned, type RoundPlan } from "./plan.js";
import type {
  CountPurpose,
  InputResult,
  SecretSource,
  TableActivity,
  TableConfig,
  TablePorts,
  TableStatus,
  Waiting,
} from "./ports.js";
import { revealRefusal } from "./powers.js";
import { recentred } from "./recentre.js";
import type { RevealWindow, TableRecord } from "./records.js";
import { learnedCards, pullAllowed, windowSeats } from "./reveal.js";
import { type AimInput, SeatSensors, type TriggerInput } from "./sensors.js";
import { type TableTiming, tableTiming } from "./timing.js";

/** Steps of the round's first half: the table runs them from its plan. */
const HOLDUP_STEPS: readonly Step[] = ["bullet", "aim", "kid-aim", "cunning-bullet", "privilege", "reaim", "courage"];
/** Decisions only sensors make (bots make the others for their seats). */
const SENSED: readonly string[] = ["aim", "privilege", "courage"];

interface CountJob {
  kind: "count";
  purpose: CountPurpose;
  todo: Set<Seat>;
  ready: Set<Seat>;
  attempts: Map<Seat, number>;
  running: { seats: Seat[]; goAt: HubMs; paceMs: number; timer: TimerHandle } | null;
  pause: TimerHandle | null;
  dropped: Map<Seat, TimerHandle>;
  /** reaim: the ordered player and the target they must leave */
  order?: { seat: Seat; old: Seat | null };
  /** after a restart: the count waits for these seats' guns to come back (or the host to release it) */
  held: Set<Seat> | null;
}

interface PrivilegeJob {
  kind: "privilege";
  godfather: Seat;
  until: HubMs;
  timer: TimerHandle;
  resolving: TimerHandle | null;
}

interface RevealJob {
  kind: "reveal";
  window: RevealWindow;
  seats: Seat[];
  opensAt: HubMs;
  closesAt: HubMs;
  /** seats whose window was re-opened after their gun came back */
  own: Map<Seat, { opensAt: HubMs; closesAt: HubMs }>;
  pulls: Set<Seat>;
  open: Set<Seat>;
  timers: TimerHandle[];
  dropped: Map<Seat, TimerHandle>;
}

interface PhoneJob {
  kind: "phone";
  seat: Seat;
  timer: TimerHandle;
  double: TimerHandle | null;
}

interface RecentreJob {
  kind: "recentre";
  godfather: Seat;
  /** slots still to pull */
  todo: Set<Seat>;
  until: HubMs;
  timer: TimerHandle;
}

type Job = CountJob | PrivilegeJob | RevealJob | PhoneJob | RecentreJob;

export class Table {
  readonly timing: TableTiming;
  private readonly aimOpts: AimOptions;
  private readonly bearings: Bearings;
  private readonly sensors: SeatSensors[];
  private current: State;
  private plan: RoundPlan;
  private job: Job | null = null;
  private waiting: Waiting[] = [];
  private advancing = false;
  private turnCued = "";
  /** the Specialist asked this round (`round:seat`), so her window is timed once */
  private specialistAsked = "";
  /** a restarted table: its first count waits for the seated guns to be back (see runCount) */
  private holdForGuns = false;
  /** You-don't-need-it-anymore: owner → the slot of the gun they took (guns.ts) */
  private readonly guns: SecondGuns = new Map();
  private wonCued = false;

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
    this.bearings = bearings(config.layout);
    this.sensors = state.players.map((_, seat) => new SeatSensors(seat, this.timing.clockWindowMs));
    this.current = state;
    this.plan = newPlan(state.round, config.autoStart === true, this.guns);
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
    if (!sen?.addAim(sample, hubRecv)) return;
    if (!sen.online) this.presence(seat, true);
    const from = this.shooter(seat)?.seat ?? seat;
    const live = liveAim(
      sen.window,
      sample.t,
      sen.offsetAt(sample.t),
      this.bearings[from]!,
      from,
      sen.live,
      this.aimOpts,
      (s) => this.alive(s),
    ).seat;
    const changed = live !== sen.live;
    sen.live = live;
    if (this.aiming(seat) && sen.live !== sen.shown) {
      const now = this.ports.clock.now();
      if (now - sen.lastLockAt >= this.timing.lockIntervalMs) {
        sen.shown = sen.live;
        sen.lastLockAt = now;
        this.cue(seat, "lock", sen.live === null ? {} : { colour: seatColour(sen.live) });
      }
    }
    if (changed) this.emit();
  }

  trigger(seat: Seat, e: TriggerInput): void {
    const sen = this.sensors[seat];
    if (!sen?.firstTime(e)) return;
    const job = this.job;
    if (job === null) return;
    if (job.kind === "recentre" && e.k === "p") this.recentrePull(job, seat, e);
    else if (job.kind === "privilege" && seat === job.godfather && e.k === "p") this.privilegePull(job, e);
    else if (job.kind === "reveal" && e.k === "p") this.revealPull(job, seat, e);
    else if (job.kind === "phone" && seat === job.seat) {
      if (e.k === "2") this.phoneDecide(job, true);
      else if (e.k === "p" && job.double === null)
        job.double = this.ports.clock.setTimer(this.timing.phoneDoubleMs, () => this.phoneDecide(job, false));
    }
  }

  presence(seat: Seat, online: boolean): void {
    const sen = this.sensors[seat];
    if (!sen || sen.online === online) return;
    sen.online = online;
    if (online) this.gunBack(seat);
    this.emit();
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
    const job = this.job;
    const phase =
      job === null ? null : job.kind === "count" ? { kind: job.kind, purpose: job.purpose } : { kind: job.kind };
    const why = revealRefusal(power, this.plan, phase);
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
      if (job?.kind !== "privilege" || d.seat !== job.godfather) return { ok: false, error: "no privilege is open" };
      if (d.order === null) {
        this.endPrivilege(job, null, null);
        return { ok: true };
      }
      const old = this.aimOf(d.order);
      if (!this.canReorder(job.godfather, d.order, old)) return { ok: false, error: "that player cannot be ordered" };
      this.orderReaim(job, d.order, old);
      return { ok: true };
    }
    if (job?.kind === "phone" && d.type === "phone" && d.seat === job.seat) {
      this.phoneDecide(job, d.flip);
      return { ok: true };
    }
    if (SENSED.includes(d.type) || d.type === "bullet")
      return { ok: false, error: `${d.type} comes from the guns or the player's console` };
    return this.submitAndGo(d);
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
        const bot = p.owed.find((o) => this.source(o.seat).kind === "bot" && !SENSED.includes(o.decision));
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
          this.startPhone(o.seat);
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
    const consoleOwed = p.owed.filter((o) => o.decision === "bullet" && this.source(o.seat).kind === "console");
    if (consoleOwed.length > 0) {
      this.waiting = consoleOwed.map((o) => ({ seat: o.seat, for: "secret" }));
      return false;
    }
    if (!this.plan.started) {
      this.waiting = [{ seat: s.godfather, for: "start" }];
      return false;
    }
    if (!this.plan.recentred && this.config.recentre === "pose") return this.startRecentre();
    const alive = this.aliveSeats();
    const kid = alive.find((seat) => s.players[seat]!.power === "the-kid" && s.players[seat]!.revealed);
    const guns = this.activeSlots();
    // the Kid aims after everyone else: a count of its own once the others' aims are known
    const aims = guns.filter((slot) => this.shooter(slot)!.seat !== kid && !this.aimKnown(slot));
    if (aims.length > 0) return this.startCount("aim", aims);
    const kidAims = guns.filter((slot) => this.shooter(slot)!.seat === kid && !this.aimKnown(slot));
    if (kidAims.length > 0) return this.startCount("aim", kidAims);
    if (s.edition === "second" && !this.privilegeKnown()) return this.startPrivilege();
    // with two guns the owner lies down as one player: their own gun (gun 1) says it
    const courage = alive.filter((seat) => !this.courageKnown(seat));
    if (courage.length > 0) return this.startCount("courage", courage);
    const physical = guns.filter((slot) => {
      const sh = this.shooter(slot)!;
      return this.source(sh.seat).kind === "physical" && cardOf(s, sh) === null;
    });
    if (physical.length > 0) return this.reveal(physical);
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

  private submit(d: Decision): ApplyResult {
    const r = this.ports.decide(d);
    if (r.ok) {
      this.current = r.state;
      this.onEvents(r.events);
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

  // ---------------------------------------------------------------- counts

  private startCount(purpose: CountPurpose, seats: Seat[], order?: CountJob["order"]): false {
    const job: CountJob = {
      kind: "count",
      purpose,
      todo: new Set(seats),
      ready: new Set(seats),
      attempts: new Map(),
      running: null,
      pause: null,
      dropped: new Map(),
      held: null,
    };
    if (order) job.order = order;
    this.job = job;
    this.runCount(job);
    return false;
  }

  /**
   * Beats at T and T + pace, "go" at T + 2·pace: one `at` per beat, the same for every gun. After a restart the first
   * count waits until every gun in it is back online (a count with nobody's gun up would decide for everyone), or
   * until the host releases it; then a gun still missing gets the drop rule, as when it drops mid-count.
   */
  private runCount(job: CountJob): void {
    if (this.holdForGuns) {
      const away = [...job.ready].filter((seat) => !this.sensors[seat]!.online);
      if (away.length > 0) {
        job.held = new Set(away);
        this.waiting = away.map((seat) => ({ seat, for: "gun" }));
        this.emit();
        return;
      }
    }
    this.holdForGuns = false;
    if (job.held) {
      job.held = null;
      this.waiting = [];
    }
    const seats = [...job.ready].sort((a, b) => a - b);
    job.ready.clear();
    if (seats.length === 0) return;
    const clock = this.ports.clock;
    const paceMs = job.purpose === "reaim" ? this.timing.shortCountPaceMs : this.timing.countPaceMs;
    const t0 = clock.now() + this.timing.leadInMs;
    const goAt = t0 + 2 * paceMs;
    const everyone = job.purpose !== "reaim" && this.aliveSeats().every((s) => seats.includes(s));
    const targets: CueTarget[] = everyone ? ["all"] : seats;
    for (const to of targets) {
      this.cue(to, "beat", { at: t0 });
      this.cue(to, "beat", { at: t0 + paceMs });
      this.cue(to, "go", { at: goAt });
    }
    const wait = goAt + this.timing.graceMs + this.timing.sampleSlackMs - clock.now();
    job.running = { seats, goAt, paceMs, timer: clock.setTimer(wait, () => this.snapshot(job)) };
    this.emit();
  }

  private snapshot(job: CountJob): void {
    const run = job.running;
    if (run === null || this.job !== job) return;
    job.running = null;
    const at = run.goAt + this.timing.graceMs;
    for (const seat of run.seats) {
      const sen = this.sensors[seat]!;
      if (!sen.online) {
        this.waitForGun(job, seat);
        continue;
      }
      const gunT = sen.clock.toGun(at);
      if (job.purpose === "courage") {
        const down = gunT === null ? false : detectLieDown(sen.window, gunT, this.aimOpts).kind === "down";
        this.courageVerdict(job, seat, down);
        continue;
      }
      // a taken gun is held at its new owner's seat
      const from = this.shooter(seat)?.seat ?? seat;
      const r =
        gunT === null
          ? null
          : resolveTarget(sen.window, gunT, sen.offsetAt(gunT), this.bearings[from]!, from, this.aimOpts, (s) =>
              this.alive(s),
            );
      const target = r?.kind === "target" ? r.seat : null;
      if (r !== null && gunT !== null && r.kind === "target" && sen.track !== null) {
        // a clear snapshot is one more measurement of the gun's yaw offset
        sen.track = learnFromSnapshot(sen.track, gunT, r, this.bearings[from]!, this.aimOpts).track;
      }
      if (job.purpose === "aim") {
        if (r?.kind === "ambiguous" && this.retry(job, seat, "ambig")) continue;
        this.aimVerdict(job, seat, target);
      } else {
        const order = job.order!;
        if (target !== null && target !== order.old) this.reaimVerdict(job, target);
        else if (!this.retry(job, seat, r?.kind === "ambiguous" ? "ambig" : "err")) this.reaimVerdict(job, null);
      }
    }
    if (job.ready.size > 0 && job.pause === null) this.schedulePause(job);
    this.countDone(job);
  }

  private retry(job: CountJob, seat: Seat, cue: CueName): boolean {
    const used = job.attempts.get(seat) ?? 0;
    if (used >= this.timing.maxRecounts) return false;
    job.attempts.set(seat, used + 1);
    job.ready.add(seat);
    this.cue(seat, cue);
    return true;
  }

  private schedulePause(job: CountJob): void {
    job.pause = this.ports.clock.setTimer(this.timing.recountPauseMs, () => {
      job.pause = null;
      if (this.job === job) this.runCount(job);
    });
  }

  private waitForGun(job: CountJob, seat: Seat): void {
    job.dropped.set(
      seat,
      this.ports.clock.setTimer(this.timing.dropWaitMs, () => {
        job.dropped.delete(seat);
        if (this.job !== job) return;
        // too slow: nobody, stays up, or (re-aim) the privilege lapses
        if (job.purpose === "aim") this.aimVerdict(job, seat, null);
        else if (job.purpose === "courage") this.courageVerdict(job, seat, false);
        else this.reaimVerdict(job, null);
        this.countDone(job);
      }),
    );
    this.emit();
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

  /** The host goes on without the guns a restarted table waits for: the count runs, the missing ones get the drop rule. */
  release(): boolean {
    const job = this.job;
    if (job?.kind !== "count" || job.held === null) return false;
    this.holdForGuns = false;
    this.runCount(job);
    return true;
  }

  private gunBack(seat: Seat): void {
    const job = this.job;
    if (job?.kind === "count" && job.held?.has(seat)) {
      job.held.delete(seat);
      if (job.held.size === 0) this.runCount(job);
      else {
        this.waiting = [...job.held].map((s) => ({ seat: s, for: "gun" }));
        this.emit();
      }
    } else if (job?.kind === "count" && job.dropped.has(seat)) {
      this.ports.clock.clearTimer(job.dropped.get(seat)!);
      job.dropped.delete(seat);
      job.ready.add(seat);
      if (job.running === null && job.pause === null) this.schedulePause(job);
    } else if (job?.kind === "reveal" && job.dropped.has(seat)) {
      this.ports.clock.clearTimer(job.dropped.get(seat)!);
      job.dropped.delete(seat);
      this.reopen(job, seat);
    }
  }

  private aimVerdict(job: CountJob, seat: Seat, target: Seat | null): void {
    job.todo.delete(seat);
    this.plan.aims.set(seat, target);
    this.record({ kind: "aim", round: this.plan.round, seat, target });
  }

  private courageVerdict(job: CountJob, seat: Seat, lieDown: boolean): void {
    job.todo.delete(seat);
    this.plan.courage.set(seat, lieDown);
    this.record({ kind: "courage", round: this.plan.round, seat, lieDown });
  }

  private reaimVerdict(job: CountJob, target: Seat | null): void {
    job.todo.clear();
    const order = target === null ? null : job.order!.seat;
    this.plan.privilege = { order, target };
    this.record({ kind: "privilege", round: this.plan.round, order, target });
  }

  private countDone(job: CountJob): void {
    if (this.job !== job || job.todo.size > 0) return;
    if (job.pause !== null) this.ports.clock.clearTimer(job.pause);
    this.job = null;
    this.advance();
  }

  // ---------------------------------------------------------------- the Godfather's privilege

  private startPrivilege(): boolean {
    const gf = this.current.godfather;
    if (!this.alive(gf)) {
      this.setPrivilege(null, null);
      return true;
    }
    const clock = this.ports.clock;
    const until = clock.now() + this.timing.privilegeWindowMs;
    const job: PrivilegeJob = { kind: "privilege", godfather: gf, until, timer: 0, resolving: null };
    job.timer = clock.setTimer(this.timing.privilegeWindowMs, () => this.endPrivilege(job, null, null));
    this.job = job;
    this.cue(gf, "turn", { colour: seatColour(gf) });
    return false;
  }

  /** The Godfather pulled: read where the gun pointed at the pull, once the samples around it are in. */
  private privilegePull(job: PrivilegeJob, e: TriggerInput): void {
    if (job.resolving !== null) return;
    job.resolving = this.ports.clock.setTimer(this.timing.sampleSlackMs, () => {
      job.resolving = null;
      if (this.job !== job) return;
      const gf = job.godfather;
      const sen = this.sensors[gf]!;
      const r = resolveTarget(sen.window, e.t, sen.offsetAt(e.t), this.bearings[gf]!, gf, this.aimOpts, (s) =>
        this.alive(s),
      );
      const old = r.kind === "target" ? this.aimOf(r.seat) : null;
      if (r.kind === "target" && this.canReorder(gf, r.seat, old)) this.orderReaim(job, r.seat, old);
      else this.cue(gf, r.kind === "ambiguous" ? "ambig" : "err");
    });
  }

  private canReorder(gf: Seat, order: Seat, old: Seat | null): boolean {
    if (order === gf || !this.alive(order)) return false;
    return this.aliveSeats().some((t) => t !== order && t !== old);
  }

  private orderReaim(job: PrivilegeJob, order: Seat, old: Seat | null): void {
    this.clearPrivilegeTimers(job);
    this.job = null;
    this.cue(order, "turn", { colour: seatColour(order) });
    this.startCount("reaim", [order], { seat: order, old });
  }

  private endPrivilege(job: PrivilegeJob, order: Seat | null, target: Seat | null): void {
    if (this.job !== job) return;
    this.clearPrivilegeTimers(job);
    this.job = null;
    this.setPrivilege(order, target);
    this.advance();
  }

  private clearPrivilegeTimers(job: PrivilegeJob): void {
    this.ports.clock.clearTimer(job.timer);
    if (job.resolving !== null) this.ports.clock.clearTimer(job.resolving);
  }

  private setPrivilege(order: Seat | null, target: Seat | null): void {
    this.plan.privilege = { order, target };
    this.record({ kind: "privilege", round: this.plan.round, order, target });
  }

  // ---------------------------------------------------------------- reveal windows (physical cards)

  /** Opens the next reveal window, or, all closed, hands the learned cards to the plan. */
  private reveal(physical: Seat[]): boolean {
    const s = this.current;
    const pulls = this.plan.pulls;
    const window: RevealWindow | null =
      s.edition === "classic" && pulls.bbb === undefined ? "bbb" : pulls.bang === undefined ? "bang" : null;
    if (window === null) {
      const learned = learnedCards(s, this.plan, physical, pulls);
      for (const seat of learned.nobody) this.plan.aims.set(seat, null);
      for (const [seat, card] of learned.bullets) this.plan.bullets.set(seat, card);
      return true;
    }
    const seats = windowSeats(s, this.plan, physical, window, pulls.bbb ?? []);
    if (seats.length === 0) {
      this.closeWindow(window, []);
      return true;
    }
    const clock = this.ports.clock;
    const opensAt = clock.now() + this.timing.leadInMs;
    const closesAt = opensAt + this.timing.revealWindowMs;
    const job: RevealJob = {
      kind: "reveal",
      window,
      seats,
      opensAt,
      closesAt,
      own: new Map(),
      pulls: new Set(),
      open: new Set(seats),
      timers: [],
      dropped: new Map(),
    };
    this.job = job;
    this.cue("all", "go", { at: opensAt });
    job.timers.push(
      clock.setTimer(closesAt + this.timing.sampleSlackMs - clock.now(), () => this.closeFor(job, seats)),
    );
    return false;
  }

  private revealPull(job: RevealJob, seat: Seat, e: TriggerInput): void {
    const w = job.own.get(seat) ?? job;
    const at = this.sensors[seat]!.clock.toHub(e.t) ?? this.ports.clock.now();
    if (at < w.opensAt || at > w.closesAt || job.pulls.has(seat)) return;
    // a pull out of turn, or a card the player no longer holds (a fourth Bang!): refused, counts as a click
    if (job.seats.includes(seat) && pullAllowed(this.current, this.guns, seat, job.window)) job.pulls.add(seat);
    else this.cue(seat, "err");
  }

  /** The window closes for these seats; a silent seat whose gun is away is waited for. */
  private closeFor(job: RevealJob, seats: Seat[]): void {
    if (this.job !== job) return;
    for (const seat of seats) {
      if (!job.pulls.has(seat) && !this.sensors[seat]!.online) {
        job.dropped.set(
          seat,
          this.ports.clock.setTimer(this.timing.dropWaitMs, () => {
            job.dropped.delete(seat);
            job.open.delete(seat);
            this.windowDone(job);
          }),
        );
      } else job.open.delete(seat);
    }
    this.windowDone(job);
  }

  private reopen(job: RevealJob, seat: Seat): void {
    const clock = this.ports.clock;
    const opensAt = clock.now() + this.timing.leadInMs;
    const closesAt = opensAt + this.timing.revealWindowMs;
    job.own.set(seat, { opensAt, closesAt });
    this.cue(seat, "go", { at: opensAt });
    job.timers.push(
      clock.setTimer(closesAt + this.timing.sampleSlackMs - clock.now(), () => this.closeFor(job, [seat])),
    );
    this.emit();
  }

  private windowDone(job: RevealJob): void {
    if (this.job !== job || job.open.size > 0) return;
    for (const t of job.timers) this.ports.clock.clearTimer(t);
    this.job = null;
    this.closeWindow(
      job.window,
      [...job.pulls].sort((a, b) => a - b),
    );
    this.advance();
  }

  private closeWindow(window: RevealWindow, seats: Seat[]): void {
    this.plan.pulls[window] = seats;
    this.record({ kind: "pulls", round: this.plan.round, window, seats });
  }

  // ---------------------------------------------------------------- the re-centre pose (recentre.ts)

  private startRecentre(): boolean {
    const gf = this.current.godfather;
    const seats = this.activeSlots().filter((slot) => this.shooter(slot)!.seat !== gf);
    if (!this.alive(gf) || seats.length === 0) {
      this.endRecentre(null);
      return true;
    }
    const clock = this.ports.clock;
    const job: RecentreJob = {
      kind: "recentre",
      godfather: gf,
      todo: new Set(seats),
      until: clock.now() + this.timing.recentreWindowMs,
      timer: 0,
    };
    job.timer = clock.setTimer(this.timing.recentreWindowMs, () => this.endRecentre(job));
    this.job = job;
    for (const slot of seats) this.cue(slot, "turn", { colour: seatColour(gf) });
    return false;
  }

  /** A pull while pointing at the Godfather: read the pose once the samples around it are in. */
  private recentrePull(job: RecentreJob, slot: Seat, e: TriggerInput): void {
    if (!job.todo.has(slot)) return;
    job.todo.delete(slot);
    this.ports.clock.setTimer(this.timing.sampleSlackMs, () => {
      const sen = this.sensors[slot]!;
      const from = this.shooter(slot)?.seat ?? slot;
      const track = recentred(sen, e.t, this.bearings[from]![job.godfather]!, this.aimOpts);
      if (track !== null) sen.track = track;
      if (this.job === job) {
        if (track === null && sen.track !== null) {
          // no steady reading: the player may pull again
          job.todo.add(slot);
          this.cue(slot, "ambig");
        } else this.cue(slot, "lock", { colour: seatColour(job.godfather) });
        if (job.todo.size === 0) this.endRecentre(job);
      }
    });
  }

  private endRecentre(job: RecentreJob | null): void {
    if (job !== null) {
      if (this.job !== job) return;
      this.ports.clock.clearTimer(job.timer);
      this.job = null;
    }
    this.plan.recentred = true;
    this.record({ kind: "recentred", round: this.plan.round });
    if (job !== null) this.advance();
  }

  // ---------------------------------------------------------------- the cop's phone

  private startPhone(seat: Seat): void {
    const job: PhoneJob = { kind: "phone", seat, timer: 0, double: null };
    job.timer = this.ports.clock.setTimer(this.timing.phoneTimeoutMs, () => this.phoneDecide(job, false));
    this.job = job;
    this.cue(seat, "turn", { colour: seatColour(seat) });
  }

  private phoneDecide(job: PhoneJob, flip: boolean): void {
    if (this.job !== job) return;
    this.ports.clock.clearTimer(job.timer);
    if (job.double !== null) this.ports.clock.clearTimer(job.double);
    this.job = null;
    const r = this.submit({ type: "phone", seat: job.seat, flip });
    // a refused flip (a gangster, or after the reinforcements) still passes the phone on
    if (!r.ok && flip) this.submit({ type: "phone", seat: job.seat, flip: false });
    this.advance();
  }

  // ---------------------------------------------------------------- helpers

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
  private activeSlots(): Seat[] {
    const out: Seat[] = [];
    for (let slot = 0; slot < this.current.players.length; slot++) if (this.shooter(slot) !== null) out.push(slot);
    return out;
  }

  private courageKnown(seat: Seat): boolean {
    return this.plan.courage.has(seat) || (this.sameRound() && this.current.courage[seat] !== -1);
  }

  private privilegeKnown(): boolean {
    if (this.plan.privilege !== undefined) return true;
    return !["bullet", "aim", "kid-aim", "cunning-bullet", "privilege"].includes(this.current.step);
  }

  /** The seat's aim this round as far as the table knows it. */
  private aimOf(seat: Seat): Seat | null {
    if (this.plan.aims.has(seat)) return this.plan.aims.get(seat)!;
    const a = this.current.aim[seat]!;
    return a >= 0 ? a : null;
  }

  /** Whether the seat's LED should follow its live target. */
  private aiming(seat: Seat): boolean {
    const job = this.job;
    if (job?.kind === "count") return job.purpose !== "courage" && job.todo.has(seat);
    return job?.kind === "privilege" && job.godfather === seat;
  }

  private cue(to: CueTarget, name: CueName, opts?: CueOptions): void {
    this.ports.cue(to, name, opts);
  }

  private record(r: TableRecord): void {
    this.ports.record(r);
  }

  private activity(): TableActivity | null {
    const job = this.job;
    if (job === null) return null;
    switch (job.kind) {
      case "count":
        return {
          kind: "count",
          purpose: job.purpose,
          seats: job.running?.seats ?? [...job.ready],
          goAt: job.running?.goAt ?? null,
          paceMs: job.purpose === "reaim" ? this.timing.shortCountPaceMs : this.timing.countPaceMs,
          waitingGun: [...job.dropped.keys()],
        };
      case "privilege":
        return { kind: "privilege", godfather: job.godfather, until: job.until };
      case "reveal":
        return {
          kind: "reveal",
          window: job.window,
          seats: job.seats,
          opensAt: job.opensAt,
          closesAt: job.closesAt,
          waitingGun: [...job.dropped.keys()],
        };
      case "phone":
        return { kind: "phone", seat: job.seat };
      case "recentre":
        return { kind: "recentre", godfather: job.godfather, seats: [...job.todo], until: job.until };
    }
  }

  private emit(): void {
    this.ports.status?.(this.status);
  }
}
