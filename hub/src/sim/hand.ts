// A person's hand on a virtual gun: turns moves of the human model (aim, lower, hold, rest) into the motion the
// gun's IMU model reads, and presses the trigger. The motion must stay continuous — the firmware integrates the
// gyro, and a jump in the pose would read as a spin — so each move starts exactly where the hand is when it
// starts, and the tremor belongs to the hand (it fades in when the gun is picked up, out when it is put down).
import type { Clock } from "../table/clock.js";
import type { Gun } from "./espruino/index.js";
import type { Pose } from "./espruino/motion.js";
import { type HumanTraits, type MoveKind, type MovePlan, planMove, poseAt } from "./human.js";
import { type Random, uniform } from "./prng.js";

/** Pitch of a gun held low between counts: below the aim floor (nobody), above the lie-down line. */
const HOLD_PITCH = -35;
/**
 * Peak angular speed of a swing, °/s. The firmware runs the MPU-6050 at ±500 °/s: a faster flick clips the gyro
 * and leaves the yaw off by tens of degrees for good (more than the hub's per-round re-centre learns). People do
 * flick that fast; the bots swing briskly but within the sensor's range.
 */
const MAX_SWING_DEG_PER_S = 430;
/** how long a pull holds the trigger down, ms */
export const PULL_HOLD_MS = 90;
/** peak speed of a minimum-jerk move = 1.875 × distance / duration */
const MIN_JERK_PEAK = 1.875;

interface Move {
  plan: MovePlan;
  /** tremor amplitude factor at the start and the end of the move (0: lying on the table) */
  wobbleFrom: number;
  wobbleTo: number;
}

function minJerk(tau: number): number {
  if (tau <= 0) return 0;
  if (tau >= 1) return 1;
  return tau * tau * tau * (10 - 15 * tau + 6 * tau * tau);
}

/** Scales a person's timing (a demo at fast pace plays with quicker people, same shape). */
export function scaledTraits(traits: HumanTraits, k: number): HumanTraits {
  return {
    ...traits,
    reactionMedianMs: traits.reactionMedianMs * k,
    reaction3MedianMs: traits.reaction3MedianMs * k,
    arriveMeanMs: traits.arriveMeanMs * k,
    arriveSigmaMs: traits.arriveSigmaMs * k,
    visualMedianMs: traits.visualMedianMs * k,
    swingBaseMs: traits.swingBaseMs * k,
    swingMsPerDeg: traits.swingMsPerDeg * k,
    settleMs: traits.settleMs * k,
    slowExtraMs: [traits.slowExtraMs[0] * k, traits.slowExtraMs[1] * k],
  };
}

export class Hand {
  private moves: Move[];
  private readonly wobble: MovePlan["wobble"];
  /** the person; tests change it (a slow player) */
  traits: HumanTraits;

  constructor(
    readonly gun: Gun,
    private readonly random: Random,
    traits: HumanTraits,
    /** where the gun lies at the start: flat on the table, pointing at this bearing */
    restYaw: number,
    /** the hub's time, which cues are given in (the hand's own timers run on it too) */
    readonly clock: Clock,
  ) {
    this.traits = traits;
    const first = planMove(random, traits, { kind: "rest", cueMs: -1e6, from: { yaw: restYaw, pitch: 0, roll: 0 } });
    first.to = { yaw: restYaw, pitch: 0, roll: 0 };
    this.wobble = planMove(random, traits, { kind: "aim", cueMs: 0, from: first.to }).wobble;
    first.wobble = [];
    this.moves = [{ plan: first, wobbleFrom: 0, wobbleTo: 0 }];
    gun.imu.motion = (t) => this.pose(t * 1000);
  }

  /** gun ms now */
  now(): number {
    return this.gun.now();
  }

  /** A hub time (ms, same machine clock) in gun ms. */
  gunMs(hubMs: number): number {
    return hubMs - (this.clock.now() - this.gun.now());
  }

  /** gun ms → hub ms */
  hubMs(gunMs: number): number {
    return gunMs + (this.clock.now() - this.gun.now());
  }

  private active(tMs: number): Move {
    let m = this.moves[0]!;
    for (const x of this.moves) if (x.plan.startMs <= tMs) m = x;
    return m;
  }

  private factor(m: Move, tMs: number): number {
    const p = m.plan;
    const s = minJerk((tMs - p.startMs) / Math.max(1, p.swingMs + p.settleMs));
    return m.wobbleFrom + (m.wobbleTo - m.wobbleFrom) * s;
  }

  /** Where the gun points at gun time `tMs` (true table bearing). */
  pose(tMs: number): Pose {
    const m = this.active(tMs);
    const smooth = poseAt(m.plan, tMs);
    const k = this.factor(m, tMs);
    if (k === 0) return { yaw: smooth.yaw, pitch: smooth.pitch, roll: smooth.roll };
    let { yaw, pitch } = smooth;
    const t = tMs / 1000;
    for (const w of this.wobble) {
      const v = k * w.amp * Math.sin(2 * Math.PI * w.f * t + w.phase);
      if (w.axis === "yaw") yaw += v;
      else pitch += v;
    }
    return { yaw, pitch: Math.max(-90, Math.min(90, pitch)), roll: smooth.roll };
  }

  /**
   * Starts a move when the person hears a cue at `cueHub` (hub ms), after `reactionMs` (default: one drawn from the
   * person's reaction to a cue). Returns the plan (gun ms). A move never starts in the past: what the gun has already
   * sampled stays as it was.
   */
  move(kind: MoveKind, cueHub: number, bearing?: number, pitch?: number, reactionMs?: number): MovePlan {
    const now = this.now();
    const cue = this.gunMs(cueHub);
    const from = this.smooth(Math.max(now + this.gun.leadMs, cue));
    const req = {
      kind,
      cueMs: cue,
      from,
      ...(bearing === undefined ? {} : { targetBearingDeg: bearing }),
      ...(reactionMs === undefined ? {} : { reactionMs }),
    };
    const plan = planMove(this.random, this.traits, req);
    // the gun has its motion up to now + leadMs (the real interpreter is fed ahead): a move starts after that
    if (plan.startMs < now + this.gun.leadMs + 5) plan.startMs = now + this.gun.leadMs + 5;
    if (pitch !== undefined) plan.to = { ...plan.to, pitch: pitch + uniform(this.random, -3, 3) };
    plan.from = this.smooth(plan.startMs);
    const dYaw = ((((plan.to.yaw - plan.from.yaw) % 360) + 540) % 360) - 180;
    const dist = Math.hypot(dYaw, plan.to.pitch - plan.from.pitch) + Math.hypot(plan.overshootYaw, plan.overshootPitch);
    plan.swingMs = Math.max(plan.swingMs, (MIN_JERK_PEAK * dist * 1000) / MAX_SWING_DEG_PER_S);
    plan.wobble = [];
    const before = this.active(plan.startMs);
    const wobbleFrom = this.factor(before, plan.startMs);
    // moves planned to start later than this one are dropped: the person changed their mind
    this.moves = this.moves.filter((m) => m.plan.startMs <= plan.startMs);
    this.moves.push({ plan, wobbleFrom, wobbleTo: kind === "rest" ? 0 : 1 });
    // forget moves that ended long ago
    while (this.moves.length > 2 && this.moves[1]!.plan.startMs < now) this.moves.shift();
    return plan;
  }

  private smooth(tMs: number): { yaw: number; pitch: number; roll: number } {
    const p = poseAt(this.active(tMs).plan, tMs);
    return { yaw: p.yaw, pitch: p.pitch, roll: p.roll };
  }

  /** Points at a table bearing. */
  aim(bearing: number, cueHub: number, reactionMs?: number): MovePlan {
    return this.move("aim", cueHub, bearing, undefined, reactionMs);
  }

  /** Holds the gun low towards `bearing` (between counts: aims at nobody, is not lying down). */
  hold(bearing: number, cueHub: number): MovePlan {
    return this.move("aim", cueHub, bearing, HOLD_PITCH);
  }

  /** Lowers the gun to the floor: lying down. */
  lower(cueHub: number, reactionMs?: number): MovePlan {
    return this.move("lower", cueHub, undefined, undefined, reactionMs);
  }

  /** Puts the gun down flat on the table. */
  rest(cueHub: number): MovePlan {
    return this.move("rest", cueHub);
  }

  /** Hub ms when the last planned move has settled. */
  settledAtHub(): number {
    const p = this.moves[this.moves.length - 1]!.plan;
    return this.hubMs(p.startMs + p.swingMs + p.settleMs);
  }

  /** Hub ms when the last planned move's swing ends (the hand on its target, correcting its overshoot). */
  arrivedAtHub(): number {
    const p = this.moves[this.moves.length - 1]!.plan;
    return this.hubMs(p.startMs + p.swingMs);
  }

  /** The last planned move's aim point, table degrees. */
  aimYaw(): number {
    return this.moves[this.moves.length - 1]!.plan.to.yaw;
  }

  /** Pulls the trigger (press, release after `holdMs`) after `delayMs`. */
  pull(delayMs = 0, holdMs = PULL_HOLD_MS): Promise<void> {
    return new Promise((resolve) => {
      this.clock.setTimer(Math.max(0, delayMs), () => {
        this.gun.button.press();
        this.clock.setTimer(holdMs, () => {
          this.gun.button.release();
          resolve();
        });
      });
    });
  }

  /** Two quick pulls: the firmware reports a double pull. */
  async doublePull(delayMs = 0): Promise<void> {
    await this.pull(delayMs, 70);
    await this.pull(110, 70);
  }
}
