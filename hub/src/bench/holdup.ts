// One hold-up of one person in the accuracy bench, sample by sample: the count's "1" and "3" heard, the draw as the
// person makes it (on "1", on "3", timed to "3", or a switch at "3"), the gun's samples as its IMU reports them, and
// — for a person who watches the gun's colour — the hub's live reading shown on the LED a moment later and a
// correction after a visual reaction when it shows anyone but the one meant. The hub's side (what the LED shows)
// comes in as a function, so the bench measures the hub's own code.

import type { SeatPoint } from "@cng/protocol";
import { type AimWindow, angleDiff, angleDist } from "../aim/index.js";
import {
  aimBearing,
  bodyBearing,
  correctedAim,
  drawCue,
  type MovePlan,
  type Person,
  planMove,
  poseAt,
  type SensorTraits,
  sense,
  swingMsFor,
} from "../sim/human.js";
import { logNormal, type Random } from "../sim/prng.js";

/** What the gun's LED shows: a seat's colour, that colour blinking with a neighbour's (between two), or nothing. */
export interface Shown {
  seat: number | null;
  /** the other seat of a between-seats blink */
  between?: number | null;
}

export interface HoldUpPlay {
  random: Random;
  /** the person's own draws (biases, scatter, corrections): apart, so the sensor's stream stays as it was */
  personal: Random;
  person: Person;
  sensor: SensorTraits;
  seats: readonly SeatPoint[];
  /** each seat's lean (metres in) this hold */
  leans: readonly number[];
  shooter: number;
  intended: number;
  /** gun ms of "1"; "3" is two paces later */
  oneMs: number;
  paceMs: number;
  /** where the gun is at "1" */
  from: { yaw: number; pitch: number; roll: number };
  win: AimWindow;
  /** samples run until this gun ms */
  endMs: number;
  /** the person reacts to the colour (when they are one who looks) */
  feedback: boolean;
  /** what the hub shows on the LED for the window as it is at gun ms t, or null when it sends nothing now */
  live?: (t: number) => Shown;
  /** a lock cue at most this often, and this long from the sample to the LED */
  lockIntervalMs: number;
  latencyMs: number;
}

export interface HoldUpPlayed {
  /** the move the hold ended on (its aim point, with the person's errors) */
  last: MovePlan;
  /** the player drew the slow straw on the move that counts */
  slow: boolean;
  /** corrections made after seeing a colour */
  corrections: number;
  /** the hand's last aim (less the person's own bias) was nearer another body than the one meant, from the gun */
  ownMiss: boolean;
}

const SAMPLE_MS = 20; // 50 Hz during a count

/** Plays one hold-up into `p.win` (cleared first). */
export function playHoldUp(p: HoldUpPlay): HoldUpPlayed {
  const { person, seats, shooter, intended } = p;
  const traits = person.traits;
  const goMs = p.oneMs + 2 * p.paceMs;
  const bearingTo = (j: number, rnd = p.personal) => aimBearing(rnd, person, seats, shooter, j, p.leans[j] ?? 0);
  const trueTo = (j: number) => bodyBearing(seats, person, shooter, j, p.leans[j] ?? 0);
  const moves: MovePlan[] = [];
  const aimAt = (cueMs: number, bearing: number, reactionMs?: number) => {
    const fromPose = moves.length === 0 ? p.from : smooth(moves, Math.max(cueMs, p.oneMs));
    const req = {
      kind: "aim" as const,
      cueMs,
      from: fromPose,
      targetBearingDeg: bearing,
      ...(reactionMs === undefined ? {} : { reactionMs }),
    };
    const plan = planMove(p.random, traits, req);
    if (moves.length > 0) {
      // the same hand: its tremor goes on, and the move starts where the hand is
      plan.wobble = moves[0]!.wobble;
      plan.from = smooth(moves, plan.startMs);
    }
    moves.push(plan);
    return plan;
  };
  firstMoves(p, aimAt, bearingTo, goMs);

  const win = p.win;
  win.clear();
  const led = new LedSeen(p);
  let correctAt = Number.POSITIVE_INFINITY;
  let correctFrom: Shown | null = null;
  let corrections = 0;
  const looks = p.feedback && person.looks && p.live !== undefined;
  const phase = p.random() * SAMPLE_MS;
  for (let t = p.oneMs - 100 + phase; t <= p.endMs; t += SAMPLE_MS) {
    if (t >= correctAt && correctFrom !== null && right(led.shown, intended)) {
      // it came right meanwhile
      correctAt = Number.POSITIVE_INFINITY;
      correctFrom = null;
    }
    if (t >= correctAt && correctFrom !== null) {
      const aim = moves[moves.length - 1]!.to.yaw;
      aimAt(
        t,
        correctedAim(p.personal, aim, correctFrom, intended, trueTo, () => bearingTo(intended)),
        0,
      );
      corrections++;
      correctAt = Number.POSITIVE_INFINITY;
      correctFrom = null;
    }
    const s = sense(p.random, p.sensor, pose(moves, t), t);
    win.push(s.t, s.yaw, s.pitch, s.roll, s.still);
    if (!looks) continue;
    led.at(t);
    // a person whose swing has ended (the hand on the target, correcting its overshoot) who sees a colour other than
    // the one meant corrects it after a visual reaction
    const m = moves[moves.length - 1]!;
    const arrived = t >= m.startMs + m.swingMs;
    const seen = led.shown;
    if (arrived && correctFrom === null && t >= led.seenAt && t >= goMs - 2 * p.paceMs && !right(seen, intended)) {
      correctFrom = seen;
      correctAt = Math.max(t, led.seenAt) + logNormal(p.personal, traits.visualMedianMs, traits.visualSigma);
    }
  }
  const last = moves[moves.length - 1]!;
  // the person's own bias, the same at every seat, is the gun's offset to the hub (the calibration takes it)
  const nearest = nearestBody(last.to.yaw - person.biasDeg, seats.length, shooter, trueTo);
  return { last, slow: last.slow, corrections, ownMiss: nearest !== intended };
}

/**
 * The person's first moves: on "1" (today's bench people, with no personal errors, exactly as they always did); a
 * switcher at someone from "1" and at the seat meant at "3"; the others at "3", or timed to arrive on it.
 */
function firstMoves(
  p: HoldUpPlay,
  aimAt: (cueMs: number, bearing: number, reactionMs?: number) => unknown,
  bearingTo: (j: number) => number,
  goMs: number,
): void {
  const { person, seats, shooter, intended } = p;
  const target = bearingTo(intended);
  if (person.draw === "one") aimAt(p.oneMs, target);
  else if (person.draw === "switch") {
    const others = seats.map((_, j) => j).filter((j) => j !== shooter);
    const decoy = others[Math.floor(p.personal() * others.length)]!;
    aimAt(p.oneMs, decoy === intended ? target : bearingTo(decoy));
    if (decoy !== intended) {
      const c = drawCue(p.personal, person, "three", p.oneMs, goMs, 0);
      aimAt(c.cueMs, target, c.reactionMs);
    }
  } else {
    const traits = person.traits;
    const swing = swingMsFor(traits, Math.hypot(angleDiff(target, p.from.yaw), traits.aimPitchDeg - p.from.pitch));
    const c = drawCue(p.personal, person, person.draw, p.oneMs, goMs, swing);
    aimAt(c.cueMs, target, c.reactionMs);
  }
}

/** The seat whose body is nearest the bearing `aimed` from the shooter's gun. */
function nearestBody(aimed: number, n: number, shooter: number, trueTo: (j: number) => number): number {
  let nearest = -1;
  let best = Number.POSITIVE_INFINITY;
  for (let j = 0; j < n; j++) {
    if (j === shooter) continue;
    const d = angleDist(aimed, trueTo(j));
    if (d < best) {
      best = d;
      nearest = j;
    }
  }
  return nearest;
}

/** The LED as the person sees it: what the hub sends (a lock at most every interval) shows a latency later. */
class LedSeen {
  shown: Shown = { seat: null };
  /** when the colour shown last changed */
  seenAt = Number.POSITIVE_INFINITY;
  /** what the LED shows from `at` on */
  private next: { shown: Shown; at: number } | null = null;
  private sent: Shown = { seat: null };
  private lastLock = Number.NEGATIVE_INFINITY;

  constructor(private readonly p: HoldUpPlay) {}

  /** The sample at gun ms `t`: the LED catches up, and the hub may send what it reads now. */
  at(t: number): void {
    if (this.next !== null && t >= this.next.at) {
      this.shown = this.next.shown;
      this.next = null;
      this.seenAt = t;
    }
    const live = this.p.live!(t);
    if (!same(live, this.sent) && t - this.lastLock >= this.p.lockIntervalMs) {
      this.sent = live;
      this.lastLock = t;
      this.next = { shown: live, at: t + this.p.latencyMs };
    }
  }
}

function same(a: Shown, b: Shown): boolean {
  return a.seat === b.seat && (a.between ?? null) === (b.between ?? null);
}

/** Nothing to correct: the colour of the seat meant, steady; or no colour at all, which tells the player nothing. */
function right(s: Shown, intended: number): boolean {
  return s.seat === null || (s.seat === intended && (s.between ?? null) === null);
}

function active(moves: readonly MovePlan[], t: number): MovePlan {
  let m = moves[0]!;
  for (const x of moves) if (x.startMs <= t) m = x;
  return m;
}

function pose(moves: readonly MovePlan[], t: number) {
  return poseAt(active(moves, t), t);
}

/** Where the hand is at t, without its tremor (a move starts there; the tremor goes on over it). */
function smooth(moves: readonly MovePlan[], t: number): { yaw: number; pitch: number; roll: number } {
  const q = poseAt({ ...active(moves, t), wobble: [] }, t);
  return { yaw: q.yaw, pitch: q.pitch, roll: q.roll };
}
