// The table's ports: what the hub core plugs in (clock, engine session, record log, feedback, status), the
// per-seat secret sources, and the status it publishes for the dashboard.
import type { CountPurpose, CueName, TableStatus as PublishedStatus, TableActivity, Waiting } from "@cng/protocol";
import type { AimOptions, SeatLayout } from "../aim/index.js";
import type { CueOptions, CueTarget } from "../feedback/index.js";
import type { Applied, Decision } from "../rules/index.js";
import type { BotStrategy } from "./bots.js";
import type { Clock } from "./clock.js";
import type { Recentre } from "./recentre.js";
import type { TableRecord } from "./records.js";
import type { TableTiming } from "./timing.js";

export interface TablePorts {
  clock: Clock;
  /** the hub's game session: applies through the engine and appends the decision to the game log */
  decide(decision: Decision): Applied;
  /** appends a table record to the log (crash recovery) */
  record(record: TableRecord): void;
  /** feedback: a FeedbackDispatcher's `cue` fits */
  cue(to: CueTarget, name: CueName, opts?: CueOptions): void;
  /** the dashboard's live view */
  status?(status: TableStatus): void;
}

/** Where a seat's secret bullet comes from. */
export type SecretSource =
  /** cards in hand: learned at the reveal (a pull is a Bang!) */
  | { kind: "physical" }
  /** chosen on the player's phone page before the count */
  | { kind: "console" }
  /** a strategy; it also makes the seat's non-sensor decisions (draft, phone, powers) */
  | { kind: "bot"; strategy: BotStrategy };

export interface TableConfig {
  layout: SeatLayout;
  /** by seat */
  secrets: readonly SecretSource[];
  timing?: Partial<TableTiming>;
  aim?: Partial<AimOptions>;
  /**
   * how guns' yaw offsets are kept: "snapshots" (default) learns from clear hold-up snapshots only; "pose" adds a
   * re-centre pose at each round's start (point at the Godfather and pull; recentre.ts)
   */
  recentre?: Recentre;
  /** start each round's hold-up without waiting for the host (demos, bot tables) */
  autoStart?: boolean;
}

// What the table is doing (a count, a window…) and who it waits for: the contract's types (shared/protocol/src/
// table.ts), as `table/state` publishes them.
export type { CountPurpose, TableActivity, Waiting };

/** The table's live status: `table/state`'s `table`, less the host's pause (the play service adds that). */
export type TableStatus = Omit<PublishedStatus, "paused">;

export type InputResult = { ok: true } | { ok: false; error: string };
