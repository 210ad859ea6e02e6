// One timed activity at a time: a count, the Godfather's privilege window, a reveal window, the re-centre pose or
// the cop's phone. Each is a module of its own (count.ts, privilege.ts, reveal-window.ts, recentre-pose.ts,
// phone.ts) behind this interface; table.ts picks the next one from the engine's state and the round's plan, routes
// sensor input to it, and moves on when it ends. A job is transient: after a restart a half-done one starts again.
import type { CueName, HubMs } from "@cng/protocol";
import type { AimOptions, Bearings, Ranges } from "../aim/index.js";
import type { CueOptions, CueTarget } from "../feedback/index.js";
import type { Applied, Decision, Seat, State } from "../rules/index.js";
import type { Clock } from "./clock.js";
import type { Coverage } from "./coverage.js";
import type { SecondGuns, Shooter } from "./guns.js";
import type { RoundPlan } from "./plan.js";
import type { TableActivity, Waiting } from "./ports.js";
import type { Phase } from "./powers.js";
import type { TableRecord } from "./records.js";
import type { SeatSensors, TriggerInput } from "./sensors.js";
import type { TableTiming } from "./timing.js";

export interface Job {
  /** a trigger event from the gun in this slot (repeats already dropped) */
  trigger(slot: Seat, e: TriggerInput): void;
  /** the gun in this slot is back online */
  gunBack(slot: Seat): void;
  /** whether the slot's LED follows its live target now */
  aiming(slot: Seat): boolean;
  /** what the dashboard shows */
  activity(): TableActivity;
  /** what chosen power reveals care about (powers.ts) */
  readonly phase: NonNullable<Phase>;
}

/** What a job may use of the table. */
export interface JobContext {
  readonly timing: TableTiming;
  readonly clock: Clock;
  readonly aimOpts: AimOptions;
  readonly bearings: Bearings;
  /** how far each seat is from each gun (a near seat's mark teaches the offset less) */
  readonly ranges: Ranges;
  readonly state: State;
  readonly plan: RoundPlan;
  readonly guns: SecondGuns;
  sensor(slot: Seat): SeatSensors;
  /** the shooter the gun in this slot acts as (null: a dead player's gun nobody took) */
  shooter(slot: Seat): Shooter | null;
  alive(seat: Seat): boolean;
  aliveSeats(): Seat[];
  /** the seat's aim this round as far as the table knows it */
  aimOf(seat: Seat): Seat | null;
  canReorder(godfather: Seat, order: Seat, old: Seat | null): boolean;
  cue(to: CueTarget, name: CueName, opts?: CueOptions): void;
  /** how far ahead of their time cues to these slots go out (the timing's lead-in, or the slowest gun's downlink) */
  leadIn(slots: readonly Seat[]): number;
  /** calls `fn` once the slot's stream reaches hub time `hubT` (coverage.ts), or it lags at the bound, or goes away */
  whenCovered(slot: Seat, hubT: HubMs, fn: (c: Coverage) => void): () => void;
  record(r: TableRecord): void;
  submit(d: Decision): Applied;
  /** the dashboard's view changed */
  emit(): void;
  setWaiting(w: Waiting[]): void;
  /** a restarted table's first count waits for its guns (count.ts); reading it does not clear it */
  holdForGuns: boolean;
  isCurrent(job: Job): boolean;
  /** makes `job` the current one */
  begin(job: Job): void;
  /** the job is over (no-op when it is not the current one): true when it was; the caller then records and advances */
  end(job: Job): boolean;
  /** picks and starts what comes next */
  advance(): void;
}

/** The gun's shooter seat, or its own slot for a gun nobody took (a taken gun is held at its new owner's seat). */
export const heldAt = (ctx: JobContext, slot: Seat): Seat => ctx.shooter(slot)?.seat ?? slot;
