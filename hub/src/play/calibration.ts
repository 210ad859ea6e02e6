// The calibration wizard: each gun aims at 1–3 named seats and pulls once per pose; the median raw yaw of the
// steady samples before each pull is a pose; their circular mean gives the gun's yaw offset, their spread says
// whether to redo (> 5°: the poses start again).
import type { AimMsg, CalibrationInfo, GunId, GunMs, TriggerMsg } from "@cng/protocol";
import {
  type AimOptions,
  AimWindow,
  type Bearings,
  bearings,
  type Calibration,
  type CalibrationPose,
  calibrate,
  readWindow,
  type SeatLayout,
} from "../aim/index.js";
import type { Seat } from "../rules/index.js";

/** A seat's calibration once done: `spread` is the gun's residual error, how far its poses disagree, degrees. */
type CalibrationResult = NonNullable<CalibrationInfo["result"]>;

interface Job {
  seat: Seat;
  gun: GunId;
  targets: Seat[];
  poses: CalibrationPose[];
  lastT: GunMs;
  window: AimWindow;
  result: CalibrationResult | null;
}

export interface WizardEvents {
  /** the gun should aim at `target` now (null: done) */
  ask(seat: Seat, gun: GunId, target: Seat | null): void;
  /** the pull gave no steady reading: aim again */
  again(seat: Seat, gun: GunId): void;
  done(seat: Seat, gun: GunId, cal: Calibration, poses: number, t: GunMs): void;
  redo(seat: Seat, gun: GunId, cal: Calibration): void;
  changed(): void;
}

/** Seats to aim at from `shooter`: spread round the table, never the shooter. */
export function poseTargets(shooter: Seat, seats: number, poses: number): Seat[] {
  const out: Seat[] = [];
  for (let j = 0; j < poses; j++) {
    const s = (shooter + Math.round((seats * (j + 1)) / (poses + 1))) % seats;
    if (s !== shooter && !out.includes(s)) out.push(s);
  }
  return out.length > 0 ? out : [(shooter + 1) % seats];
}

export class CalibrationWizard {
  private jobs: Job[] = [];
  private rows: Bearings = [];
  /** a pull whose samples are still on the way: read once the gun's stream reaches it (a newer pull replaces it) */
  private readonly pending = new Map<Seat, TriggerMsg>();

  constructor(
    private readonly opts: AimOptions,
    private readonly events: WizardEvents,
  ) {}

  start(guns: { seat: Seat; gun: GunId }[], poses: number, layout: SeatLayout): CalibrationInfo[] {
    this.rows = bearings(layout, this.opts.gunForwardM);
    const n = layout.seats.length;
    const fresh = guns.filter((g) => g.seat < n);
    this.jobs = this.jobs.filter((j) => !fresh.some((g) => g.seat === j.seat));
    for (const g of fresh) this.pending.delete(g.seat);
    for (const g of fresh) {
      const job: Job = {
        seat: g.seat,
        gun: g.gun,
        targets: poseTargets(g.seat, n, poses),
        poses: [],
        lastT: 0,
        window: new AimWindow(64),
        result: null,
      };
      this.jobs.push(job);
      this.events.ask(job.seat, job.gun, job.targets[0]!);
    }
    this.jobs.sort((a, b) => a.seat - b.seat);
    this.events.changed();
    return this.view().filter((v) => fresh.some((g) => g.seat === v.seat));
  }

  cancel(seat: Seat | null): Seat[] {
    const gone = this.jobs.filter((j) => this.active(j.seat) && (seat === null || j.seat === seat));
    this.jobs = this.jobs.filter((j) => !gone.includes(j));
    for (const j of gone) this.pending.delete(j.seat);
    this.events.changed();
    return gone.map((j) => j.seat);
  }

  /** The seat's pulls belong to the wizard now. */
  active(seat: Seat): boolean {
    const j = this.job(seat);
    return j !== undefined && (j.result === null || j.result.verdict === "redo");
  }

  aim(seat: Seat, m: AimMsg): void {
    const j = this.job(seat);
    if (!j || !this.active(seat)) return;
    j.window.push(m.t, m.y, m.p, m.r, m.s === 1);
    const p = this.pending.get(seat);
    if (p !== undefined && m.t >= p.t) {
      this.pending.delete(seat);
      this.read(seat, p);
    }
  }

  pull(seat: Seat, m: TriggerMsg): void {
    const j = this.job(seat);
    if (!j || !this.active(seat) || m.k !== "p") return;
    // the samples up to the pull travel on the same connection, before it or just after: wait for them
    if (j.window.size === 0 || j.window.t(0) < m.t) this.pending.set(seat, m);
    else this.read(seat, m);
  }

  private read(seat: Seat, m: TriggerMsg): void {
    const j = this.job(seat);
    if (!j || !this.active(seat)) return;
    const target = j.targets[j.poses.length]!;
    const r = readWindow(j.window, m.t, this.opts);
    if (r.kind !== "reading") {
      this.events.again(seat, j.gun);
      return;
    }
    j.poses.push({ seat: target, rawYawDeg: r.rawHeadingDeg });
    j.lastT = m.t;
    if (j.poses.length < j.targets.length) {
      this.events.ask(seat, j.gun, j.targets[j.poses.length]!);
      this.events.changed();
      return;
    }
    const cal = calibrate(j.poses, this.rows[seat]!, seat, this.opts);
    j.result = { verdict: cal.verdict, offset: cal.offsetDeg, spread: cal.spreadDeg, reasons: cal.reasons };
    if (cal.verdict === "ok") {
      this.events.done(seat, j.gun, cal, j.poses.length, j.lastT);
      this.events.ask(seat, j.gun, null);
    } else {
      j.poses = [];
      this.events.redo(seat, j.gun, cal);
      this.events.ask(seat, j.gun, j.targets[0]!);
    }
    this.events.changed();
  }

  view(): CalibrationInfo[] {
    return this.jobs.map((j) => ({
      seat: j.seat,
      gun: j.gun,
      targets: j.targets.slice(),
      next: this.active(j.seat) ? j.targets[j.poses.length]! : null,
      poses: j.poses.length,
      result: j.result,
    }));
  }

  private job(seat: Seat): Job | undefined {
    return this.jobs.find((j) => j.seat === seat);
  }
}
