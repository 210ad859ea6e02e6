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
  type TimingPreset,
} from "@cng/protocol";
import { type AimOptions, aimOptions } from "../aim/index.js";
import type { Bus } from "../bus/bus.js";
import { cuePattern, FeedbackDispatcher } from "../feedback/index.js";
import type { GameHost } from "../game/host.js";
import { PairListener } from "../guns/pair-listen.js";
import type { GunService } from "../guns/service.js";
import type { GunStreams } from "../guns/streams.js";
import type { Logger } from "../log.js";
import type { Bullet, PowerId, Seat } from "../rules/index.js";
import type { CalibrationStore } from "../store/calibrations.js";
import type { Lang, Settings } from "../store/settings.js";
import type { TableLog } from "../store/table-log.js";
import type { Clock } from "../table/clock.js";
import type { TableRecord } from "../table/records.js";
import type { Table } from "../table/table.js";
import { CalibrationWizard } from "./calibration.js";
import { GunCalibrations } from "./calibrations.js";
import { CueSender } from "./cue-sender.js";
import { GunInput } from "./gun-input.js";
import { gunRoutes } from "./gun-routes.js";
import { TablePublisher } from "./publisher.js";
import { AimRates, fastSeats } from "./rates.js";
import { RunningTable } from "./running-table.js";
import { SeatedGuns } from "./seated-guns.js";
import { layoutOf, parseTableSetup, type TableSetup, tableConfig } from "./setup.js";
import { undoRefusal } from "./undo.js";
import { wizardCues } from "./wizard-cues.js";

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

export class PlayService {
  readonly dispatcher = new FeedbackDispatcher();
  private readonly input: GunInput;
  private readonly aimOpts: AimOptions = aimOptions();
  readonly wizard: CalibrationWizard;
  /** pair.listen: the next pending gun pulled is paired to the listening seat */
  private readonly pairing: PairListener;
  private readonly cals: GunCalibrations;
  private readonly rates: AimRates;
  private readonly publisher: TablePublisher;
  private readonly seated: SeatedGuns;
  private readonly running: RunningTable;
  /** the layout of the last calibrate.start (table/state's `layout` when no table runs) */
  private calLayout: LayoutSpec | null = null;

  constructor(private readonly d: PlayDeps) {
    this.seated = new SeatedGuns(d.guns);
    this.rates = new AimRates(d.guns, d.clock, () => this.updateRates());
    // a gun's info answers each rate command: one saying another rate than it was told makes it be told again
    d.guns.onGunInfo(() => this.updateRates());
    this.cals = new GunCalibrations(d.calibrations, d.bus, d.table, d.log);
    this.running = new RunningTable({
      d,
      dispatcher: this.dispatcher,
      cals: this.cals,
      seated: this.seated,
      aimOpts: this.aimOpts,
      changed: () => this.stateChanged(),
    });
    this.publisher = new TablePublisher({
      bus: d.bus,
      table: d.table,
      publishState: () => d.game.publishState(),
      live: () => this.running.table?.status.live ?? [],
      clock: d.clock,
    });
    const seats = () => this.running.table?.state.players.length ?? Number.POSITIVE_INFINITY;
    const cues = new CueSender(d.bus, d.table, d.log, (to) => this.seated.cueTargets(to, seats()));
    this.dispatcher.subscribe((c) => cues.send(c));
    // a paired gun with no seat yet: a pull still flashes it, so the host can tell it is heard
    const identSeatless = (gun: GunId) => cues.send({ to: "all", c: "ident", ...cuePattern("ident") }, [gun]);
    this.wizard = new CalibrationWizard(
      this.aimOpts,
      wizardCues({
        dispatcher: this.dispatcher,
        cals: this.cals,
        running: this.running,
        clock: d.clock,
        rates: () => this.updateRates(),
        changed: () => this.stateChanged(),
      }),
    );
    const routes = gunRoutes({
      seated: this.seated,
      running: this.running,
      wizard: this.wizard,
      publisher: this.publisher,
      cals: this.cals,
      dispatcher: this.dispatcher,
      identSeatless,
    });
    this.input = new GunInput(d.streams, d.guns, routes);
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
      this.running.run(g, setup.value, records);
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
    this.running.stop();
    this.publisher.close();
  }

  get table(): Table | null {
    return this.running.table;
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
        this.running.dryRun(tableConfig(tableSetup, dry.value.players.length, 0), dry.value);
      } catch (e) {
        return refuse("bad-args", (e as Error).message);
      }
    }
    const r = await game.start(setup);
    if (!r.ok) return r;
    const g = r.value;
    this.running.stop();
    if (tableSetup) {
      this.d.tableLog.saveSetup(g.id, tableSetup);
      this.running.run(g, tableSetup, []);
    }
    await game.publish(g);
    this.updateRates();
    return ok({ game: g.id, view: game.engine.publicView(g.state), table: this.running.status() });
  }

  roundStart(): Result<{ round: number }> {
    return this.running.input(
      "host",
      (t) => t.startRound(),
      (t) => ({ round: t.state.round }),
    );
  }

  secret(seat: Seat, card: Bullet, gun: 2 | undefined, by: string): Result<{ seat: Seat }> {
    return this.running.input(by, (t) => t.secret(seat, card, gun), { seat });
  }

  revealPower(seat: Seat, power: PowerId, by: string): Result<{ seat: Seat }> {
    return this.running.input(by, (t) => t.revealPower(seat, power), { seat });
  }

  /** The Specialist's own choice, from her console (or the host): take her bbb back, or keep the power. */
  specialist(seat: Seat, use: boolean, discard: Bullet | null, by: string): Result<{ seat: Seat }> {
    const d: Decision = use ? { type: "specialist", seat, discard } : { type: "specialist", seat, discard: null, use };
    return this.running.input(by, (t) => t.hostDecide(d), { seat });
  }

  hostDecide(d: Decision): Result<{ game: number; decisions: number }> {
    return this.running.input(
      "host",
      (t) => t.hostDecide(d),
      () => {
        const g = this.d.game.session.game!;
        return { game: g.id, decisions: g.decisions };
      },
    );
  }

  calibrateStart(seat: Seat | null, poses: number, layoutSpec: LayoutSpec | null): Result<OpResult<"calibrate.start">> {
    const act = this.running.status()?.activity;
    if (act && act.kind !== "phone") return refuse("table", "a count or window is running; calibrate between rounds");
    const running = this.running.layout;
    let spec: LayoutSpec;
    if (layoutSpec !== null) spec = layoutSpec;
    else if (running) spec = running;
    else {
      const most = Math.max(1, ...this.seated.all().map((g) => g.seat + 1));
      spec = { round: Math.max(2, most) };
    }
    const layout = layoutOf(spec, 0);
    const guns = this.seated.all().filter((g) => seat === null || g.seat === seat);
    if (guns.length === 0)
      return refuse("unknown-gun", seat === null ? "no paired gun has a seat" : `no gun at seat ${seat}`);
    const v = this.wizard.start(guns, poses, layout);
    this.calLayout = spec;
    return ok({ seats: v.map((x) => ({ seat: x.seat, gun: x.gun, targets: x.targets })) });
  }

  /** game.pause: the table's clock stops (no count starts or runs, windows hold) until resume. */
  pause(): Result<{ paused: true }> {
    const t = this.running.need(true);
    if (!t.ok) return t;
    if (this.running.pause()) this.stateChanged();
    return ok({ paused: true });
  }

  /**
   * game.resume: the table is rebuilt from the log as after a crash, so a half-run count starts again. On a table
   * that is not paused but waits for guns after a restart, it goes on without them (they get the drop rule).
   */
  resume(): Result<{ paused: false }> {
    const t = this.running.need(true);
    if (!t.ok) return t;
    if (this.running.resume()) {
      this.updateRates();
      this.stateChanged();
    }
    return ok({ paused: false });
  }

  /** game.undo: takes back the last host-entered decision when nothing since depends on it. */
  async undo(): Promise<Result<OpResult<"game.undo">>> {
    const session = this.d.game.session;
    const g = session.game;
    if (!g) return refuse("no-game", "no game has been started");
    const run = this.running.table !== null;
    const act = this.running.status()?.activity;
    if (act && act.kind !== "phone") return refuse("undo", "a count or window is running: undo between them");
    const lastRecord = run ? this.d.tableLog.lastAt(g.id) : null;
    const r = session.undo("host", (last) => undoRefusal(last, { table: run, lastRecordAt: lastRecord }));
    if (!r.ok) return r;
    const { game, undone } = r.value;
    this.d.log.info({ game: g.id, seq: undone.seq, decision: undone.decision }, "decision undone");
    if (run) this.running.rebuild(this.running.paused);
    await this.d.game.publish(game);
    this.updateRates();
    return ok({ game: game.id, decisions: game.decisions, undone: undone.decision });
  }

  /** pair.listen's seat and end, or null */
  get pairListening(): PairListening | null {
    return this.pairing.listening;
  }

  /** pair.listen: the seat's light is on; the next pending gun pulled is paired there (null: stop). */
  pairListen(seat: Seat | null): Result<{ listening: PairListening | null }> {
    return ok({ listening: this.pairing.listen(seat) });
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

  private presence(gun: GunId, on: boolean): void {
    if (on) this.rates.forget(gun);
    const seat = this.seated.seatOf(gun);
    if (seat !== null) this.running.guard(() => this.running.table?.presence(seat, this.seated.online(seat)));
    this.updateRates();
    this.stateChanged();
  }

  /** 50 Hz for the guns whose aim matters now (the wizard's too), a few Hz for the others. */
  private updateRates(): void {
    const fast = fastSeats(this.running.table?.status.activity ?? null);
    for (const { seat } of this.seated.all()) if (this.wizard.active(seat)) fast.add(seat);
    this.rates.update(fast);
  }

  // ---------------------------------------------------------------- viewers

  private stateChanged(): void {
    this.updateRates();
    this.publisher.stateChanged();
  }

  private extra() {
    const table = this.running.table;
    const st = table?.state ?? this.d.game.session.game?.state;
    const names: string[] = st?.names ?? [];
    const count = names.length > 0 ? names.length : Math.max(0, ...this.seated.all().map((g) => g.seat + 1));
    const layout = this.running.layout ?? this.calLayout;
    return {
      table: this.running.status(),
      seats: this.seated.view(names, count, table?.status.guns2 ?? []),
      calibration: this.wizard.view(),
      layout,
      pairing: this.pairing.listening,
      lang: this.d.settings.lang(),
    };
  }
}
