// A small table on a manual clock for power scenes: guns are scripted per slot (the seat a gun is paired to),
// so a taken gun can aim from its new owner's seat. Raw yaw is `bearing − bias` (bias 0: no calibration), the bearing
// from the gun held before the seat, as the table's geometry has it.
import type { CueName } from "@cng/protocol";
import { aimOptions, type Bearings, bearings, roundTable, type SeatLayout } from "../../hub/src/aim/index.js";
import type { CueOptions, CueTarget } from "../../hub/src/feedback/index.js";
import { rulesEngine } from "../../hub/src/game/engine.js";
import { apply, type Decision, type GameEvent, type State } from "../../hub/src/rules/index.js";
import {
  FAST_TIMING,
  ManualClock,
  type SecretSource,
  Table,
  type TableConfig,
  type TableRecord,
} from "../../hub/src/table/index.js";

export type Pose = { kind: "aim"; from: number; target: number } | { kind: "lowered" } | { kind: "away" };

export interface Cue {
  at: number;
  to: CueTarget;
  name: CueName;
  opts?: CueOptions;
}

export class PowerRig {
  readonly clock = new ManualClock();
  readonly table: Table;
  readonly layout: SeatLayout;
  /** where each seat's gun points to aim at each seat: from the gun, before the seat (the table's own geometry) */
  private readonly rows: Bearings;
  readonly decisions: Decision[] = [];
  readonly events: GameEvent[] = [];
  readonly cues: Cue[] = [];
  readonly records: TableRecord[] = [];
  readonly poses: Pose[];
  /** per slot: true raw-yaw error of the gun (what calibration must learn) */
  readonly bias: number[];
  private trigN: number[];

  constructor(state: State, secrets: SecretSource[], extra: Partial<TableConfig> = {}) {
    const n = state.players.length;
    this.layout = roundTable(n);
    this.rows = bearings(this.layout, aimOptions().gunForwardM);
    this.poses = state.players.map(() => ({ kind: "away" }));
    this.bias = state.players.map(() => 0);
    this.trigN = state.players.map(() => 0);
    let current = state;
    this.table = new Table(
      { layout: this.layout, secrets, timing: FAST_TIMING, ...extra },
      {
        clock: this.clock,
        decide: (d) => {
          const r = rulesEngine.apply(current, d);
          if (r.ok) {
            current = r.value.state;
            this.decisions.push(d);
            this.events.push(...r.value.events);
          }
          return r;
        },
        record: (r) => this.records.push(r),
        cue: (to, name, opts) =>
          this.cues.push(opts ? { at: this.clock.now(), to, name, opts } : { at: this.clock.now(), to, name }),
      },
      state,
    );
  }

  gunDelta(slot: number): number {
    return 1_699_000_000_000 + slot * 7919;
  }

  pull(slot: number): void {
    this.table.trigger(slot, { n: ++this.trigN[slot]!, k: "p", t: this.clock.now() - this.gunDelta(slot) });
  }

  aim(slot: number, from: number, target: number): void {
    this.poses[slot] = { kind: "aim", from, target };
  }

  private sample(): void {
    const now = this.clock.now();
    this.poses.forEach((pose, slot) => {
      const yaw = pose.kind === "aim" ? this.rows[pose.from]![pose.target]! : 135;
      const raw = ((((yaw - this.bias[slot]! + 180) % 360) + 360) % 360) - 180;
      const pitch = pose.kind === "lowered" ? -70 : 2;
      const t = now - 10 - this.gunDelta(slot);
      this.table.aim(slot, { t, yaw: raw, pitch, roll: 0, still: false }, now);
    });
  }

  /** Runs (samples every 20 ms, `act` every 10 ms) until `until` or `maxMs`. */
  run(until: () => boolean, act: () => void = () => {}, maxMs = 60_000): void {
    const end = this.clock.now() + maxMs;
    let tick = 0;
    while (!until()) {
      if (this.clock.now() >= end) throw new Error(`the scene did not finish: ${JSON.stringify(this.table.status)}`);
      act();
      if (tick++ % 2 === 0) this.sample();
      this.clock.advance(10);
    }
  }
}

/** Applies decisions straight to the engine (a round played before the table takes over). */
export function play(state: State, ds: Decision[]): State {
  let s = state;
  for (const d of ds) {
    const r = apply(s, d);
    if (!r.ok) throw new Error(`${JSON.stringify(d)}: ${r.error.message}`);
    s = r.state;
  }
  return s;
}
