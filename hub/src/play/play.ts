// The table in the running hub: plugs the real-time Godfather (hub/src/table) into the game session (decisions
// logged before they are acknowledged), the game log (the table's records), the guns (aim, pulls, presence in;
// cues and aim rates out) and the bus (table/state, table/aim). The table itself knows nothing of MQTT.
import {
  type Decision,
  type GameSetup,
  type GunId,
  type LayoutSpec,
  type OpResult,
  ok,
  type PairListening,
  type Result,
  refuse,
  type TableStateMsg,
  type TableStatus,
  type TimingPreset,
} from "@cng/protocol";
import { type AimOptions, aimOptions, type SeatLayout, startTrack } from "../aim/index.js";
import type { Bus } from "../bus/bus.js";
import { cuePattern, FeedbackDispatcher, seatColour } from "../feedback/index.js";
import type { GameHost } from "../game/host.js";
import type { Game } from "../game/session.js";
import { PairListener } from "../guns/pair-listen.js";
import type { GunService } from "../guns/service.js";
import type { GunStreams } from "../guns/streams.js";
import type { Logger } from "../log.js";
import { type Applied, type Bullet, isSensed, type PowerId, type Seat } from "../rules/index.js";
import type { CalibrationStore, StoredCalibration } from "../store/calibrations.js";
import type { Lang, Settings } from "../store/settings.js";
import type { TableLog } from "../store/table-log.js";
import type { Clock } from "../table/clock.js";
import type { InputResult, SecretSource, TablePorts } from "../table/ports.js";
import type { TableRecord } from "../table/records.js";
import { Table } from "../table/table.js";
import { CalibrationWizard } from "./calibration.js";
import { GunCalibrations } from "./calibrations.js";
import { CueSender } from "./cue-sender.js";
import { GunInput } from "./gun-input.js";
import { TablePublisher } from "./publisher.js";
import { AimRates, fastSeats } from "./rates.js";
import { SafeClock } from "./safe-clock.js";
import { layoutOf, parseTableSetup, type TableSetup, tableConfig } from "./setup.js";
import { undoRefusal } from "./undo.js";

export interface PlayDeps {
  bus: Bus;
  /** paired guns' decoded aim and trigger streams */
  streams: GunStreams;
  table: string;
  guns: GunService;
  game: GameHost;
  tableLog: TableLog;
  calibrations: CalibrationStore;
  log: Logger;
  /** the timing preset of a `table` that names none */
  defaultTiming: TimingPreset;
  /** the table's language (Setup), kept across games and restarts */
  settings: Settings;
  /** the hub's time: real in the hub (RealClock), a ManualClock in tests that drive time */
  clock: Clock;
}

interface Running {
  table: Table;
  clock: SafeClock;
  setup: TableSetup;
  layout: SeatLayout;
  secrets: readonly SecretSource[];
  game: number;
  /** the host paused the game: the table's timers are dropped and its inputs refused until resume */
  paused: boolean;
}

export class PlayService {
  private running: Running | null = null;
  readonly dispatcher = new FeedbackDispatcher();
  private readonly input: GunInput;
  private readonly aimOpts: AimOptions = aimOptions();
  readonly wizard: CalibrationWizard;
  /** pair.listen: the next pending gun pulled is paired to the listening seat */
  private readonly pairing: PairListener;
  private readonly cals: GunCalibrations;
  private readonly rates: AimRates;
  private readonly publisher: TablePublisher;
  /** who the decisions being made now are by, for the log */
  private by = "table";
  /** the layout of the last calibrate.start (table/state's `layout` when no table runs) */
  private calLayout: LayoutSpec | null = null;

  constructor(private readonly d: PlayDeps) {
    this.rates = new AimRates(d.guns, d.clock, () => this.updateRates());
    // a gun's info answers each rate command: one saying another rate than it was told makes it be told again
    d.guns.onGunInfo(() => this.updateRates());
    this.cals = new GunCalibrations(d.calibrations, d.bus, d.table, d.log);
    this.publisher = new TablePublisher({
      bus: d.bus,
      table: d.table,
      publishState: () => d.game.publishState(),
      live: () => this.running?.table.status.live ?? [],
      clock: d.clock,
    });
    const cues = new CueSender(d.bus, d.table, d.log, (to) => this.gunsFor(to));
    this.dispatcher.subscribe((c) => cues.send(c));
    // a paired gun with no seat yet: a pull still flashes it, so the host can tell it is heard
    const identSeatless = (gun: GunId) => cues.send({ to: "all", c: "ident", ...cuePattern("ident") }, [gun]);
    this.input = new GunInput(d.streams, d.guns, {
      aim: (gun, m, at) => {
        const seat = this.seatOf(gun);
        if (seat === null) return;
        this.wizard.aim(seat, m);
        this.publisher.yaw(seat, m.y + this.cals.offset(gun));
        if (this.running?.paused) return;
        this.guard(() =>
          this.running?.table.aim(seat, { t: m.t, yaw: m.y, pitch: m.p, roll: m.r, still: m.s === 1 }, at),
        );
      },
      trigger: (gun, m) => {
        const seat = this.seatOf(gun);
        if (seat === null) {
          if (m.k === "p") identSeatless(gun);
          return;
        }
        if (this.wizard.active(seat)) this.wizard.pull(seat, m);
        else if (this.running?.paused) this.dispatcher.cue(seat, "err");
        else if (this.running) {
          this.guard(() => this.running?.table.trigger(seat, { n: m.n, k: m.k, t: m.t }));
          if (m.k === "h") this.tellTarget(seat);
        }
        // no game: a pull flashes the gun in its seat colour, so a player can check it is paired and heard
        else if (m.k === "p") this.dispatcher.cue(seat, "ident", { colour: seatColour(seat) });
      },
      probe: (gun, h, a) => {
        const seat = this.seatOf(gun);
        if (seat !== null) this.guard(() => this.running?.table.probe(seat, h, a));
      },
    });
    this.wizard = new CalibrationWizard(this.aimOpts, {
      ask: (seat, gun, target) => {
        if (target !== null) this.dispatcher.cue(seat, "turn", { colour: seatColour(target) });
        this.updateRates();
        void gun;
      },
      again: (seat) => this.dispatcher.cue(seat, "ambig"),
      redo: (seat) => this.dispatcher.cue(seat, "ambig"),
      done: (seat, gun, cal, poses, t) => {
        const c: StoredCalibration = {
          gun,
          seat,
          off: cal.offsetDeg,
          t,
          poses,
          spread: cal.spreadDeg,
          at: this.d.clock.now(),
        };
        this.cals.keep(c);
        this.applyCalibration(seat, c);
        this.dispatcher.cue(seat, "lock", { colour: seatColour(seat) });
      },
      changed: () => this.stateChanged(),
    });
    this.pairing = new PairListener(d.guns, (paired) => {
      if (paired) d.log.info(paired, "gun paired by pulling its trigger");
      this.stateChanged();
    });
    d.game.extra = () => this.extra();
  }

  async start(): Promise<void> {
    this.input.start();
    this.d.streams.pendingTriggerConsumer = (gun, m) => this.pairing.pull(gun, m);
    this.d.guns.onPresence((gun, on) => this.presence(gun, on));
    this.publisher.start();
    await this.cals.publishAll();
    const g = this.d.game.session.game;
    const stored = g ? this.d.tableLog.setup(g.id) : null;
    if (g && stored) {
      const setup = parseTableSetup(stored);
      if (!setup.ok) throw new Error(`game ${g.id}: its stored table setup does not parse: ${setup.error.message}`);
      const records = this.d.tableLog.records(g.id) as TableRecord[];
      this.run(g, setup.value, records);
      this.d.log.info({ game: g.id, records: records.length }, "resumed the table");
    }
    await this.d.game.publishState();
    this.updateRates();
  }

  close(): void {
    this.input.close();
    this.rates.close();
    this.d.streams.pendingTriggerConsumer = null;
    this.pairing.close();
    this.running?.clock.dispose();
    this.running = null;
    this.publisher.close();
  }

  get table(): Table | null {
    return this.running?.table ?? null;
  }

  // ---------------------------------------------------------------- ops

  /** game.new: a new game, run by a table when the setup comes with one (its timing: the hub's default). */
  async newGame(setup: GameSetup, table: TableSetup | null): Promise<Result<OpResult<"game.new">>> {
    const game = this.d.game;
    const tableSetup = table && { ...table, timing: table.timing ?? this.d.defaultTiming };
    if (tableSetup) {
      // check the table fits the game before anything is logged
      const dry = game.engine.setup(setup);
      if (!dry.ok) return dry;
      try {
        new Table(tableConfig(tableSetup, dry.value.players.length, 0), this.ports(null), dry.value);
      } catch (e) {
        return refuse("bad-args", (e as Error).message);
      }
    }
    const r = await game.start(setup);
    if (!r.ok) return r;
    const g = r.value;
    this.stop();
    if (tableSetup) {
      this.d.tableLog.saveSetup(g.id, tableSetup);
      this.run(g, tableSetup, []);
    }
    await game.publish(g);
    this.updateRates();
    return ok({ game: g.id, view: game.engine.publicView(g.state), table: this.status() });
  }

  roundStart(): Result<{ round: number }> {
    const t = this.need();
    if (!t.ok) return t;
    return this.result(
      this.act("host", () => t.value.startRound()),
      { round: t.value.state.round },
    );
  }

  secret(seat: Seat, card: Bullet, gun: 2 | undefined, by: string): Result<{ seat: Seat }> {
    const t = this.need();
    if (!t.ok) return t;
    return this.result(
      this.act(by, () => t.value.secret(seat, card, gun)),
      { seat },
    );
  }

  revealPower(seat: Seat, power: PowerId, by: string): Result<{ seat: Seat }> {
    const t = this.need();
    if (!t.ok) return t;
    return this.result(
      this.act(by, () => t.value.revealPower(seat, power)),
      { seat },
    );
  }

  /** The Specialist's own choice, from her console (or the host): take her bbb back, or keep the power. */
  specialist(seat: Seat, use: boolean, discard: Bullet | null, by: string): Result<{ seat: Seat }> {
    const t = this.need();
    if (!t.ok) return t;
    const d: Decision = use ? { type: "specialist", seat, discard } : { type: "specialist", seat, discard: null, use };
    return this.result(
      this.act(by, () => t.value.hostDecide(d)),
      { seat },
    );
  }

  hostDecide(d: Decision): Result<{ game: number; decisions: number }> {
    const t = this.need();
    if (!t.ok) return t;
    const r = this.act("host", () => t.value.hostDecide(d));
    const g = this.d.game.session.game!;
    return this.result(r, { game: g.id, decisions: g.decisions });
  }

  calibrateStart(seat: Seat | null, poses: number, layoutSpec: LayoutSpec | null): Result<OpResult<"calibrate.start">> {
    const act = this.status()?.activity;
    if (act && act.kind !== "phone") return refuse("table", "a count or window is running; calibrate between rounds");
    let spec: LayoutSpec;
    if (layoutSpec !== null) spec = layoutSpec;
    else if (this.running) spec = this.runningLayout(this.running);
    else {
      const most = Math.max(1, ...this.seatedGuns().map((g) => g.seat + 1));
      spec = { round: Math.max(2, most) };
    }
    const layout = layoutOf(spec, 0);
    const guns = this.seatedGuns().filter((g) => seat === null || g.seat === seat);
    if (guns.length === 0)
      return refuse("unknown-gun", seat === null ? "no paired gun has a seat" : `no gun at seat ${seat}`);
    const v = this.wizard.start(guns, poses, layout);
    this.calLayout = spec;
    return ok({ seats: v.map((x) => ({ seat: x.seat, gun: x.gun, targets: x.targets })) });
  }

  /** game.pause: the table's clock stops (no count starts or runs, windows hold) until resume. */
  pause(): Result<{ paused: true }> {
    const t = this.need(true);
    if (!t.ok) return t;
    const run = this.running!;
    if (!run.paused) {
      run.clock.dispose();
      run.paused = true;
      // beats and a "go" already sent for a future time must not sound
      this.dispatcher.cue("all", "off");
      this.d.log.info({ game: run.game }, "game paused");
      this.stateChanged();
    }
    return ok({ paused: true });
  }

  /**
   * game.resume: the table is rebuilt from the log as after a crash, so a half-run count starts again. On a table
   * that is not paused but waits for guns after a restart, it goes on without them (they get the drop rule).
   */
  resume(): Result<{ paused: false }> {
    const t = this.need(true);
    if (!t.ok) return t;
    const run = this.running!;
    if (run.paused) {
      this.rebuild(false);
      this.d.log.info({ game: run.game }, "game resumed");
      this.updateRates();
      this.stateChanged();
    } else {
      this.act("table", () => {
        if (run.table.release())
          this.d.log.info({ game: run.game }, "count released: going on without the missing guns");
        return undefined;
      });
    }
    return ok({ paused: false });
  }

  /** game.undo: takes back the last host-entered decision when nothing since depends on it. */
  async undo(): Promise<Result<OpResult<"game.undo">>> {
    const session = this.d.game.session;
    const g = session.game;
    if (!g) return refuse("no-game", "no game has been started");
    const run = this.running;
    const act = this.status()?.activity;
    if (act && act.kind !== "phone") return refuse("undo", "a count or window is running: undo between them");
    const lastRecord = run ? this.d.tableLog.lastAt(g.id) : null;
    const r = session.undo("host", (last) => undoRefusal(last, { table: run !== null, lastRecordAt: lastRecord }));
    if (!r.ok) return r;
    const { game, undone } = r.value;
    this.d.log.info({ game: g.id, seq: undone.seq, decision: undone.decision }, "decision undone");
    if (run) this.rebuild(run.paused);
    await this.d.game.publish(game);
    this.updateRates();
    return ok({ game: game.id, decisions: game.decisions, undone: undone.decision });
  }

  /** pair.listen: the seat's light is on; the next pending gun pulled is paired there (null: stop). */
  /** pair.listen's seat and end, or null */
  get pairListening(): PairListening | null {
    return this.pairing.listening;
  }

  pairListen(seat: Seat | null): Result<{ listening: PairListening | null }> {
    return ok({ listening: this.pairing.listen(seat) });
  }

  /**
   * The trigger held while aiming: the gun blinks its target's seat number (1 = the first seat) in that seat's
   * colour — the colour alone is not enough for a colour-blind player. Not in a window where pulls count.
   */
  private tellTarget(seat: Seat): void {
    const t = this.running?.table;
    const kind = t?.status.activity?.kind;
    if (!t || kind === "reveal" || kind === "phone" || kind === "privilege" || kind === "recentre") return;
    const target = t.status.live[seat] ?? null;
    if (target === null) this.dispatcher.cue(seat, "ambig");
    else this.dispatcher.cue(seat, "ident", { colour: seatColour(target), times: target + 1 });
  }

  /** table.lang: the language the table's people read and hear (null: each browser its own). */
  setLang(lang: Lang | null): Result<{ lang: Lang | null }> {
    this.d.settings.setLang(lang);
    this.d.log.info({ lang }, "table language set");
    this.stateChanged();
    return ok({ lang });
  }

  /** The `table/state` payload. */
  state(): TableStateMsg {
    return this.d.game.state();
  }

  // ---------------------------------------------------------------- wiring

  private run(game: Game, setup: TableSetup, records: TableRecord[], paused = false): void {
    const st = game.state;
    const config = tableConfig(setup, st.players.length, game.id);
    const clock = new SafeClock(this.d.log, this.d.clock);
    const ports = this.ports(clock);
    const table = records.length > 0 ? Table.resume(config, ports, st, records) : new Table(config, ports, st);
    this.running = { table, clock, setup, layout: config.layout, secrets: config.secrets, game: game.id, paused };
    if (paused) clock.dispose();
    for (let seat = 0; seat < st.players.length; seat++) {
      table.presence(seat, this.seatOnline(seat));
      const gun = this.gunAt(seat);
      const c = gun ? this.cals.get(gun) : undefined;
      if (c) this.applyCalibration(seat, c);
    }
    if (paused) return;
    this.act("table", () => {
      table.begin();
      return undefined;
    });
  }

  /** A new table for the same game from the session's state and the table's records (as after a restart). */
  private rebuild(paused: boolean): void {
    const run = this.running;
    const g = this.d.game.session.game;
    if (!run || !g) return;
    run.clock.dispose();
    this.run(g, run.setup, this.d.tableLog.records(g.id) as TableRecord[], paused);
  }

  private runningLayout(run: Running): LayoutSpec {
    return run.setup.layout ?? { round: run.layout.seats.length };
  }

  private stop(): void {
    this.running?.clock.dispose();
    this.running = null;
  }

  /** The table's ports on the real things; `clock` null: a dry run that must not act. */
  private ports(clock: SafeClock | null): TablePorts {
    return {
      clock: clock ?? new SafeClock(this.d.log, this.d.clock),
      decide: (d: Decision): Applied => {
        // a bot's own choices are the bot's, even when a host input set them off (undo must tell them apart)
        const bot = this.running?.secrets[d.seat]?.kind === "bot" && !isSensed(d.type);
        const r = this.d.game.session.decide(d, bot ? `bot-${d.seat}` : this.by);
        if (!r.ok) return r;
        const { game, events } = r.value;
        // table/state goes out (coalesced) after the table has taken the decision in, never half-way
        void this.d.game.publish(game, events, false);
        this.stateChanged();
        return ok({ state: game.state, events });
      },
      record: (rec: TableRecord) => {
        const g = this.d.game.session.game;
        if (g) this.d.tableLog.append(g.id, rec, this.d.clock.now());
      },
      cue: (to, name, opts) => this.dispatcher.cue(to, name, opts),
      status: () => this.stateChanged(),
    };
  }

  /** Runs a table input with `by` as the author of whatever decisions it makes. */
  private act(by: string, fn: () => InputResult | undefined): InputResult {
    const before = this.by;
    this.by = by;
    try {
      return fn() ?? { ok: true };
    } finally {
      this.by = before;
    }
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.d.log.error({ err: e }, "the table failed on a gun input");
    }
  }

  private result<T>(r: InputResult, done: T): Result<T> {
    return r.ok ? ok(done) : refuse("table", r.error);
  }

  /** The running table; refused while paused unless `evenPaused`. */
  private need(evenPaused = false): Result<Table> {
    if (!this.d.game.session.game) return refuse("no-game", "no game has been started");
    if (!this.running) return refuse("no-table", "this game has no table: start it with game.new {table: ...}");
    if (this.running.paused && !evenPaused) return refuse("paused", "the game is paused: game.resume first");
    return ok(this.running.table);
  }

  private status(): TableStatus | null {
    const run = this.running;
    if (!run) return null;
    // paused: whatever ran is dropped (it starts again on resume), so nothing runs
    return run.paused ? { ...run.table.status, activity: null, paused: true } : { ...run.table.status, paused: false };
  }

  private applyCalibration(seat: Seat, c: StoredCalibration): void {
    this.running?.table.calibrate(seat, startTrack(c.off, c.t, this.aimOpts, c.poses));
  }

  /**
   * Drops a gun's yaw calibration (its IMU mounting changed: the filter starts again from yaw 0, so the offset no
   * longer holds). Its seat is calibrated again with the wizard. True when there was one.
   */
  async forgetCalibration(gun: GunId): Promise<boolean> {
    if (!(await this.cals.forget(gun))) return false;
    this.stateChanged();
    return true;
  }

  // ---------------------------------------------------------------- guns and seats

  private seatedGuns(): { seat: Seat; gun: GunId }[] {
    return this.d.guns.registry
      .all()
      .filter((g) => g.paired && g.seat !== null)
      .map((g) => ({ seat: g.seat!, gun: g.id }));
  }

  private seatOf(gun: GunId): Seat | null {
    const g = this.d.guns.registry.get(gun);
    return g?.paired ? g.seat : null;
  }

  /** The gun at a seat: an online one first. */
  private gunAt(seat: Seat): string | null {
    const at = this.d.guns.registry.all().filter((g) => g.paired && g.seat === seat);
    return (at.find((g) => g.on) ?? at[0])?.id ?? null;
  }

  private seatOnline(seat: Seat): boolean {
    return this.d.guns.registry.all().some((g) => g.paired && g.seat === seat && g.on);
  }

  private gunsFor(to: Seat | "all"): string[] {
    const reg = this.d.guns.registry.all().filter((g) => g.paired && g.seat !== null && g.on);
    const n = this.running?.table.state.players.length ?? Number.POSITIVE_INFINITY;
    return reg.filter((g) => (to === "all" ? g.seat! < n : g.seat === to)).map((g) => g.id);
  }

  private presence(gun: GunId, on: boolean): void {
    if (on) this.rates.forget(gun);
    const seat = this.seatOf(gun);
    if (seat !== null) this.guard(() => this.running?.table.presence(seat, this.seatOnline(seat)));
    this.updateRates();
    this.stateChanged();
  }

  /** 50 Hz for the guns whose aim matters now (the wizard's too), a few Hz for the others. */
  private updateRates(): void {
    const fast = fastSeats(this.running?.table.status.activity ?? null);
    for (const { seat } of this.seatedGuns()) if (this.wizard.active(seat)) fast.add(seat);
    this.rates.update(fast);
  }

  // ---------------------------------------------------------------- viewers

  private stateChanged(): void {
    this.updateRates();
    this.publisher.stateChanged();
  }

  private extra() {
    const st = this.running?.table.state ?? this.d.game.session.game?.state;
    const names: string[] = st?.names ?? [];
    const count = names.length > 0 ? names.length : Math.max(0, ...this.seatedGuns().map((g) => g.seat + 1));
    const run = this.running;
    const seats = Array.from({ length: count }, (_, seat) => ({
      seat,
      name: names[seat] ?? null,
      gun: this.gunAt(seat),
      colour: seatColour(seat),
      online: this.seatOnline(seat),
      // You-don't-need-it-anymore: this dead seat's gun is now that seat's gun 2 (it stays paired here)
      gun2Of: run?.table.status.guns2.find((g) => g.from === seat)?.seat ?? null,
    }));
    const layout = run ? this.runningLayout(run) : this.calLayout;
    return {
      table: this.status(),
      seats,
      calibration: this.wizard.view(),
      layout,
      pairing: this.pairing.listening,
      lang: this.d.settings.lang(),
    };
  }
}
