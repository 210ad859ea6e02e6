// The table the running game has, if any: built from the session's state and the table's records (at a start, a
// resume, an undo, a restart), its ports on the real things (decisions through the game session, records into the
// log, cues to the guns), paused and resumed, and every input run with its author for the log.
import { type Decision, type LayoutSpec, ok, type Result, refuse, type TableStatus } from "@cng/protocol";
import { type AimOptions, type SeatLayout, startTrack } from "../aim/index.js";
import type { FeedbackDispatcher } from "../feedback/index.js";
import type { GameHost } from "../game/host.js";
import type { Game } from "../game/session.js";
import type { Logger } from "../log.js";
import { type Applied, isSensed, type Seat } from "../rules/index.js";
import type { StoredCalibration } from "../store/calibrations.js";
import type { TableLog } from "../store/table-log.js";
import type { Clock } from "../table/clock.js";
import type { InputResult, SecretSource, TablePorts } from "../table/ports.js";
import type { TableRecord } from "../table/records.js";
import { Table } from "../table/table.js";
import type { GunCalibrations } from "./calibrations.js";
import { SafeClock } from "./safe-clock.js";
import type { SeatedGuns } from "./seated-guns.js";
import { type TableSetup, tableConfig } from "./setup.js";

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

export interface RunningTableDeps {
  d: { game: GameHost; tableLog: TableLog; log: Logger; clock: Clock };
  dispatcher: FeedbackDispatcher;
  cals: GunCalibrations;
  seated: SeatedGuns;
  aimOpts: AimOptions;
  /** the table's status changed: table/state goes out */
  changed(): void;
}

export class RunningTable {
  private running: Running | null = null;
  /** who the decisions being made now are by, for the log */
  private by = "table";

  constructor(private readonly x: RunningTableDeps) {}

  get table(): Table | null {
    return this.running?.table ?? null;
  }

  get paused(): boolean {
    return this.running?.paused === true;
  }

  /** The running game's layout as its setup gave it (a round table of its seats when it gave none). */
  get layout(): LayoutSpec | null {
    const run = this.running;
    return run && (run.setup.layout ?? { round: run.layout.seats.length });
  }

  /** The table for `game`: new, or as it was from its records; started unless `paused`. */
  run(game: Game, setup: TableSetup, records: TableRecord[], paused = false): void {
    const st = game.state;
    const config = tableConfig(setup, st.players.length, game.id);
    const clock = new SafeClock(this.x.d.log, this.x.d.clock);
    const ports = this.ports(clock);
    const table = records.length > 0 ? Table.resume(config, ports, st, records) : new Table(config, ports, st);
    this.running = { table, clock, setup, layout: config.layout, secrets: config.secrets, game: game.id, paused };
    if (paused) clock.dispose();
    for (let seat = 0; seat < st.players.length; seat++) {
      table.presence(seat, this.x.seated.online(seat));
      const gun = this.x.seated.at(seat);
      const c = gun ? this.x.cals.get(gun) : undefined;
      if (c) this.calibrate(seat, c);
    }
    if (paused) return;
    this.act("table", () => {
      table.begin();
      return undefined;
    });
  }

  /** A new table for the same game from the session's state and the table's records (as after a restart). */
  rebuild(paused: boolean): void {
    const run = this.running;
    const g = this.x.d.game.session.game;
    if (!run || !g) return;
    run.clock.dispose();
    this.run(g, run.setup, this.x.d.tableLog.records(g.id) as TableRecord[], paused);
  }

  stop(): void {
    this.running?.clock.dispose();
    this.running = null;
  }

  /** The table's clock stops: no count starts or runs, windows hold; false when it was paused already. */
  pause(): boolean {
    const run = this.running;
    if (!run || run.paused) return false;
    run.clock.dispose();
    run.paused = true;
    // beats and a "go" already sent for a future time must not sound
    this.x.dispatcher.cue("all", "off");
    this.x.d.log.info({ game: run.game }, "game paused");
    return true;
  }

  /** Rebuilt from the log when paused (true); else a count waiting for guns after a restart goes on without them. */
  resume(): boolean {
    const run = this.running;
    if (!run) return false;
    if (run.paused) {
      this.rebuild(false);
      this.x.d.log.info({ game: run.game }, "game resumed");
      return true;
    }
    this.act("table", () => {
      if (run.table.release())
        this.x.d.log.info({ game: run.game }, "count released: going on without the missing guns");
      return undefined;
    });
    return false;
  }

  /** A table for a dry run of a setup, to check it fits the game: it must not act. */
  dryRun(config: ConstructorParameters<typeof Table>[0], state: ConstructorParameters<typeof Table>[2]): void {
    new Table(config, this.ports(null), state);
  }

  /** Runs a table input with `by` as the author of whatever decisions it makes. */
  act(by: string, fn: () => InputResult | undefined): InputResult {
    const before = this.by;
    this.by = by;
    try {
      return fn() ?? { ok: true };
    } finally {
      this.by = before;
    }
  }

  /** A host's or a console's input to the running table, by `by`: refused as the table refuses it, else `done`. */
  input<T extends object>(
    by: string,
    fn: (t: Table) => InputResult | undefined,
    done: T | ((t: Table) => T),
  ): Result<T> {
    const t = this.need();
    if (!t.ok) return t;
    const r = this.act(by, () => fn(t.value));
    if (!r.ok) return refuse("table", r.error);
    return ok(typeof done === "function" ? done(t.value) : done);
  }

  /** A gun's input to the table: a failure is logged, never thrown back at the gun's stream. */
  guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.x.d.log.error({ err: e }, "the table failed on a gun input");
    }
  }

  /** The running table; refused while paused unless `evenPaused`. */
  need(evenPaused = false): Result<Table> {
    if (!this.x.d.game.session.game) return refuse("no-game", "no game has been started");
    if (!this.running) return refuse("no-table", "this game has no table: start it with game.new {table: ...}");
    if (this.running.paused && !evenPaused) return refuse("paused", "the game is paused: game.resume first");
    return ok(this.running.table);
  }

  status(): TableStatus | null {
    const run = this.running;
    if (!run) return null;
    // paused: whatever ran is dropped (it starts again on resume), so nothing runs
    return run.paused ? { ...run.table.status, activity: null, paused: true } : { ...run.table.status, paused: false };
  }

  calibrate(seat: Seat, c: StoredCalibration): void {
    this.running?.table.calibrate(seat, startTrack(c.off, c.t, this.x.aimOpts, c.poses));
  }

  /** The table's ports on the real things; `clock` null: a dry run that must not act. */
  private ports(clock: SafeClock | null): TablePorts {
    const { d } = this.x;
    return {
      clock: clock ?? new SafeClock(d.log, d.clock),
      decide: (dec: Decision): Applied => {
        // a bot's own choices are the bot's, even when a host input set them off (undo must tell them apart)
        const bot = this.running?.secrets[dec.seat]?.kind === "bot" && !isSensed(dec.type);
        const r = d.game.session.decide(dec, bot ? `bot-${dec.seat}` : this.by);
        if (!r.ok) return r;
        const { game, events } = r.value;
        // table/state goes out (coalesced) after the table has taken the decision in, never half-way
        void d.game.publish(game, events, false);
        this.x.changed();
        return ok({ state: game.state, events });
      },
      record: (rec: TableRecord) => {
        const g = d.game.session.game;
        if (g) d.tableLog.append(g.id, rec, d.clock.now());
      },
      cue: (to, name, opts) => this.x.dispatcher.cue(to, name, opts),
      status: () => this.x.changed(),
    };
  }
}
