// What a job may use of the table (job.ts's JobContext), made from the table's parts: its timing, clock, geometry
// and guns, the round's view, the seats' sensors, and the run it shares with the table (the state, the plan, the
// current job, who it waits for), read live since the table replaces them as the game goes.
import type { AimOptions, Bearings, Ranges } from "../aim/index.js";
import type { State } from "../rules/index.js";
import type { CoverageWaits } from "./coverage.js";
import type { SecondGuns } from "./guns.js";
import type { Job, JobContext } from "./job.js";
import type { RoundPlan } from "./plan.js";
import type { Waiting } from "./ports.js";
import type { RoundView } from "./round-view.js";
import type { SeatSensors } from "./sensors.js";
import type { TableTiming } from "./timing.js";

/** What the table and its jobs share and replace as the game goes. */
export interface TableRun {
  state: State;
  plan: RoundPlan;
  job: Job | null;
  waiting: Waiting[];
  /** a restarted table: its first count waits for the seated guns to be back (count.ts) */
  holdForGuns: boolean;
}

export interface ContextParts {
  timing: TableTiming;
  aimOpts: AimOptions;
  bearings: Bearings;
  ranges: Ranges;
  guns: SecondGuns;
  view: RoundView;
  sensors: readonly SeatSensors[];
  coverage: CoverageWaits;
}

type TableActs = Pick<JobContext, "clock" | "cue" | "leadIn" | "record" | "submit" | "emit" | "advance">;

export function jobContext(run: TableRun, x: ContextParts, acts: TableActs): JobContext {
  const { view } = x;
  return {
    timing: x.timing,
    clock: acts.clock,
    aimOpts: x.aimOpts,
    bearings: x.bearings,
    ranges: x.ranges,
    guns: x.guns,
    get state() {
      return run.state;
    },
    get plan() {
      return run.plan;
    },
    get holdForGuns() {
      return run.holdForGuns;
    },
    set holdForGuns(v: boolean) {
      run.holdForGuns = v;
    },
    sensor: (slot) => x.sensors[slot]!,
    shooter: (slot) => view.shooter(slot),
    alive: (seat) => view.alive(seat),
    aliveSeats: () => view.aliveSeats(),
    aimOf: (seat) => view.aimOf(seat),
    canReorder: (gf, order, old) => view.canReorder(gf, order, old),
    cue: acts.cue,
    leadIn: acts.leadIn,
    whenCovered: (slot, hubT, fn) => x.coverage.wait(slot, hubT, x.timing.lagBoundMs, fn),
    record: acts.record,
    submit: acts.submit,
    emit: acts.emit,
    setWaiting: (w) => {
      run.waiting = w;
    },
    isCurrent: (job) => run.job === job,
    begin: (job) => {
      run.job = job;
    },
    end: (job) => {
      if (run.job !== job) return false;
      run.job = null;
      return true;
    },
    advance: acts.advance,
  };
}
