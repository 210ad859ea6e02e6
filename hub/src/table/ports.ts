// The table's ports: what the hub core plugs in (clock, engine session, record log, feedback, status), the
// per-seat secret sources, and the status it publishes for the dashboard.
import type { CueName, HubMs } from "@cng/protocol";
import type { AimOptions, SeatLayout } from "../aim/index.js";
import type { CueOptions, CueTarget } from "../feedback/index.js";
import type { ApplyResult, Decision, DecisionType, Seat, Step } from "../rules/index.js";
import type { BotStrategy } from "./bots.js";
import type { Clock } from "./clock.js";
import type { Recentre } from "./recentre.js";
import type { RevealWindow, TableRecord } from "./records.js";
import type { TableTiming } from "./timing.js";

export interface TablePorts {
  clock: Clock;
  /** the hub's game session: applies through the engine and appends the decision to the game log */
  decide(decision: Decision): ApplyResult;
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

export type CountPurpose = "aim" | "reaim" | "courage";

/** What the table is doing right now. */
export type TableActivity =
  | { kind: "count"; purpose: CountPurpose; seats: Seat[]; goAt: HubMs | null; paceMs: number; waitingGun: Seat[] }
  | { kind: "privilege"; godfather: Seat; until: HubMs }
  | { kind: "reveal"; window: RevealWindow; seats: Seat[]; opensAt: HubMs; closesAt: HubMs; waitingGun: Seat[] }
  | { kind: "phone"; seat: Seat }
  /** the re-centre pose: `seats` (gun slots) still to point at the Godfather and pull */
  | { kind: "recentre"; godfather: Seat; seats: Seat[]; until: HubMs };

/** Who the table waits for outside an activity. */
export type Waiting =
  | { seat: Seat; for: "secret" }
  | { seat: Seat | null; for: "start" }
  | { seat: Seat; for: "host"; decision: DecisionType }
  /** a restarted table's count waits for this seat's gun to come back (game.resume goes on without it) */
  | { seat: Seat; for: "gun" };

export interface TableStatus {
  round: number;
  step: Step;
  over: boolean;
  activity: TableActivity | null;
  waiting: Waiting[];
  /** per seat: the seat its gun points at now */
  live: (Seat | null)[];
  online: boolean[];
  /** You-don't-need-it-anymore: the gun paired to `from` (a dead seat) is `seat`'s gun 2 */
  guns2: { seat: Seat; from: Seat }[];
}

export type InputResult = { ok: true } | { ok: false; error: string };
