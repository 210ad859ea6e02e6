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
  // today's bench people (`one` with no personal errors) draw exactly as they always did
  const plain = person.draw === "one";
  const target = bearingTo(intended);
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
  if (plain) aimAt(p.oneMs, target);
  else if (person.draw === "switch") {
    const others = seats.map((_, j) => j).filter((j) => j !== shooter);
    const decoy = others[Math.floor(p.personal() * others.length)]!;
    aimAt(p.oneMs, decoy === intended ? target : bearingTo(decoy));
    if (decoy !== intended) {
      const c = drawCue(p.personal, person, "three", p.oneMs, goMs, 0);
      aimAt(c.cueMs, target, c.reactionMs);
    }
  } else {
    const swing = swingMsFor(traits, Math.hypot(angleDiff(target, p.from.yaw), traits.aimPitchDeg - p.from.pitch));
    const c = drawCue(p.personal, person, person.draw, p.oneMs, goMs, swing);
    aimAt(c.cueMs, target, c.reactionMs);
  }

  const win = p.win;
  win.clear();
  let shown: Shown = { seat: null };
  /** what the LED shows from `ledAt` on */
  let next: { shown: Shown; at: number } | null = null;
  let sent: Shown = { seat: null };
  let lastLock = Number.NEGATIVE_INFINITY;
  let seenAt = Number.POSITIVE_INFINITY;
  let correctAt = Number.POSITIVE_INFINITY;
  let correctFrom: Shown | null = null;
  let corrections = 0;
  const looks = p.feedback && person.looks && p.live !== undefined;
  const phase = p.random() * SAMPLE_MS;
  for (let t = p.oneMs - 100 + phase; t <= p.endMs; t += SAMPLE_MS) {
    if (t >= correctAt && correctFrom !== null && right(shown, intended)) {
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
    if (next !== null && t >= next.at) {
      shown = next.shown;
      next = null;
      seenAt = t;
    }
    const live = p.live!(t);
    if (!same(live, sent) && t - lastLock >= p.lockIntervalMs) {
      sent = live;
      lastLock = t;
      next = { shown: live, at: t + p.latencyMs };
    }
    // a person whose swing has ended (the hand on the target, correcting its overshoot) who sees a colour other than
    // the one meant corrects it after a visual reaction
    const m = moves[moves.length - 1]!;
    const arrived = t >= m.startMs + m.swingMs;
    if (arrived && correctFrom === null && t >= seenAt && t >= goMs - 2 * p.paceMs && !right(shown, intended)) {
      correctFrom = shown;
      correctAt = Math.max(t, seenAt) + logNormal(p.personal, traits.visualMedianMs, traits.visualSigma);
    }
  }
  const last = moves[moves.length - 1]!;
  // the person's own bias, the same at every seat, is the gun's offset to the hub (the calibration takes it)
  const aimed = last.to.yaw - person.biasDeg;
  let nearest = -1;
  let best = Number.POSITIVE_INFINITY;
  for (let j = 0; j < seats.length; j++) {
    if (j === shooter) continue;
    const d = angleDist(aimed, trueTo(j));
    if (d < best) {
      best = d;
      nearest = j;
    }
  }
  return { last, slow: last.slow, corrections, ownMiss: nearest !== intended };
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
