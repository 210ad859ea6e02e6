// The Godfather: runs a physical game from sensor streams, consoles and bots. It turns counts, snapshots,
// pulls and host inputs into rules-engine decisions; the engine stays the referee. Which part of the round
// comes next is derived from (engine state + the round's plan), so resuming after a crash is: rebuild the
// plan from the records, then carry on. The timed activities are jobs (job.ts), one module each; a half-finished
// one simply starts again.
import type { GunMs, HubMs } from "@cng/protocol";
import {
  type AimOptions,
  aimOptions,
  type Bearings,
  bearings,
  liveAim,
  type OffsetTrack,
  type Ranges,
  ranges,
} from "../aim/index.js";
import { seatColour } from "../feedback/index.js";
import {
  type Applied,
  type Bullet,
  type Decision,
  HOLDUP_STEPS,
  isSensed,
  type Owed,
  type PowerId,
  pending,
  type Seat,
  type State,
} from "../rules/index.js";
import { CountJob } from "./count.js";
import { CoverageWaits } from "./coverage.js";
import { eventCues } from "./event-cues.js";
import { armed2, type SecondGuns } from "./guns.js";
import { holdupNext } from "./holdup-next.js";
import { HostTurns } from "./host-turns.js";
import type { JobContext } from "./job.js";
import { jobContext, type TableRun } from "./job-context.js";
import { PhoneJob } from "./phone.js";
import { absorb, newPlan, planned } from "./plan.js";
import type { InputResult, SecretSource, TableConfig, TablePorts, TableStatus } from "./ports.js";
import { revealRefusal } from "./powers.js";
import { PrivilegeJob } from "./privilege.js";
import type { TableRecord } from "./records.js";
import { RoundView } from "./round-view.js";
import { type AimInput, leadIn, SeatSensors, type TriggerInput } from "./sensors.js";
import { type TableTiming, tableTiming } from "./timing.js";

export class Table {
  readonly timing: TableTiming;
  private readonly aimOpts: AimOptions;
  private readonly bearings: Bearings;
  private readonly ranges: Ranges;
  private readonly sensors: SeatSensors[];
  /** the state, the plan, the job and who it waits for: shared with the jobs' context */
  private readonly run: TableRun;
  private advancing = false;
  private readonly turns: HostTurns;
  /** You-don't-need-it-anymore: owner → the slot of the gun they took (guns.ts) */
  private readonly guns: SecondGuns = new Map();
  private wonCued = false;
  /** what the jobs may use of the table */
  private readonly ctx: JobContext;
  private readonly view: RoundView;
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
    this.run = {
      state,
      plan: newPlan(state.round, config.autoStart === true, this.guns),
      job: null,
      waiting: [],
      holdForGuns: false,
    };
    this.coverage = new CoverageWaits(ports.clock, (seat) => this.sensors[seat]!);
    this.view = new RoundView(this.run, config, this.guns, this.sensors, this.aimOpts);
    const parts = { timing: this.timing, aimOpts: this.aimOpts, bearings: this.bearings, ranges: this.ranges };
    this.ctx = jobContext(
      this.run,
      { ...parts, guns: this.guns, view: this.view, sensors: this.sensors, coverage: this.coverage },
      {
        clock: ports.clock,
        cue: (to, name, opts) => ports.cue(to, name, opts),
        leadIn: (slots) => leadIn(this.sensors, slots, this.timing),
        record: (r) => ports.record(r),
        submit: (d) => this.submit(d),
        emit: () => this.emit(),
        advance: () => this.advance(),
      },
    );
    this.turns = new HostTurns(this.ctx, (d) => this.submitAndGo(d));
  }

  /** Rebuilds a table after a restart: `state` replayed from the game log, `records` the table's own. */
  static resume(config: TableConfig, ports: TablePorts, state: State, records: readonly TableRecord[]): Table {
    const t = new Table(config, ports, state);
    for (const r of records) absorb(t.run.plan, r);
    t.run.holdForGuns = true;
    return t;
  }

  /** Starts (or, after resume, continues) driving the game. */
  begin(): void {
    this.advance();
  }

  get state(): State {
    return this.run.state;
  }

  get status(): TableStatus {
    return {
      round: this.run.state.round,
      step: this.run.state.step,
      over: this.run.state.over,
      activity: this.run.job?.activity() ?? null,
      waiting: this.run.waiting.slice(),
      live: this.sensors.map((s) => s.live),
      online: this.sensors.map((s) => s.online),
      guns2: [...this.guns].filter(([seat]) => armed2(this.run.state, seat)).map(([seat, from]) => ({ seat, from })),
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
    const from = this.view.shooter(seat)?.seat ?? seat;
    const live = liveAim(
      sen.window,
      sample.t,
      sen.offsetAt(sample.t),
      sen.row(this.bearings[from]!),
      from,
      sen.live,
      this.aimOpts,
      (s) => this.view.alive(s),
    );
    const changed = live.seat !== sen.live;
    sen.live = live.seat;
    sen.between = live.seat === null ? null : live.between;
    if (this.run.job?.aiming(seat)) {
      const lock = sen.lockCue(this.ports.clock.now(), this.timing.lockIntervalMs);
      if (lock) {
        const colours = lock.colour === undefined ? {} : { colour: seatColour(lock.colour) };
        this.ports.cue(
          seat,
          "lock",
          lock.blink === undefined ? colours : { ...colours, blink: seatColour(lock.blink) },
        );
      }
    }
    if (changed) this.emit();
  }

  trigger(seat: Seat, e: TriggerInput): void {
    this.run.job?.trigger(seat, e);
  }

  presence(seat: Seat, online: boolean): void {
    const sen = this.sensors[seat];
    if (!sen || sen.online === online) return;
    sen.online = online;
    // back, it may have rebooted: its clock offset is measured afresh
    if (online) sen.clock.reset();
    if (online) this.run.job?.gunBack(seat);
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
    const owes = pending(this.run.state).owed.some((o) => o.seat === seat && o.decision === "bullet" && o.gun === gun);
    if (!owes) return { ok: false, error: "no card is wanted from this seat now" };
    return this.submitAndGo(gun === 2 ? { type: "bullet", seat, card, gun } : { type: "bullet", seat, card });
  }

  /** A Super Power revealed by choice (console or host). */
  revealPower(seat: Seat, power: PowerId): InputResult {
    const why = revealRefusal(power, this.run.plan, this.run.job?.phase ?? null);
    if (why !== null) return { ok: false, error: why };
    return this.submitAndGo({ type: "reveal", seat, power });
  }

  /** The host starts this round's hold-up. */
  startRound(): InputResult {
    if (this.run.state.over) return { ok: false, error: "the game is over" };
    if (this.run.plan.started) return { ok: false, error: "the round is already started" };
    this.run.plan.started = true;
    this.ports.record({ kind: "start", round: this.run.plan.round });
    this.advance();
    return { ok: true };
  }

  /**
   * What sensors cannot give: draft picks, It-doesn't-even-hurt, take-gun, the Specialist's discard, a phone
   * flip, or the Godfather's privilege given (or passed) on the dashboard.
   */
  hostDecide(d: Decision): InputResult {
    const job = this.run.job;
    if (d.type === "privilege") {
      if (!(job instanceof PrivilegeJob) || d.seat !== job.godfather)
        return { ok: false, error: "no privilege is open" };
      if (d.order !== null && !this.view.canReorder(job.godfather, d.order, this.view.aimOf(d.order)))
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
    return this.run.job instanceof CountJob && this.run.job.release();
  }

  // ---------------------------------------------------------------- driving

  private advance(): void {
    if (this.run.job !== null || this.advancing) return;
    this.advancing = true;
    try {
      for (let guard = 0; guard < 10_000; guard++) {
        this.flush();
        const s = this.run.state;
        this.run.waiting = [];
        if (s.over) {
          if (!this.wonCued) {
            this.wonCued = true;
            for (const w of s.winners) this.ports.cue(w, "win", { colour: seatColour(w) });
          }
          return;
        }
        if (this.run.plan.round !== s.round) {
          this.run.plan = newPlan(s.round, this.config.autoStart === true, this.guns);
          continue;
        }
        const p = pending(s);
        const bot = p.owed.find((o) => this.source(o.seat).kind === "bot" && !isSensed(o.decision));
        if (bot) {
          if (!this.botDecides(bot)) return;
          continue;
        }
        if (HOLDUP_STEPS.includes(s.step)) {
          if (holdupNext(this.ctx, this.view, p, (seat) => this.source(seat))) continue;
          return;
        }
        this.turns.wait(p.owed);
        return;
      }
      throw new Error("the table made no progress");
    } finally {
      this.advancing = false;
      this.emit();
    }
  }

  /** Hands the engine every decision of the plan it asks for, in its order. */
  private flush(): void {
    for (;;) {
      const s = this.run.state;
      let d: Decision | null = null;
      for (const o of pending(s).owed) {
        d = planned(s, this.run.plan, o);
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
      this.run.state = r.value.state;
      eventCues(this.ctx, r.value.events);
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
    const r = this.submit(src.strategy(this.run.state, o));
    if (r.ok) return true;
    this.ports.cue(o.seat, "err");
    this.run.waiting = [{ seat: o.seat, for: "host", decision: o.decision }];
    return false;
  }

  // ---------------------------------------------------------------- helpers

  private source(seat: Seat): SecretSource {
    return this.config.secrets[seat]!;
  }

  private emit(): void {
    this.ports.status?.(this.status);
  }
}
