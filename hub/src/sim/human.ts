// A person holding a foam gun, and the IMU inside it. Pure: every random draw comes from the `Random`
// passed in, and a plan, once drawn, is a fixed function of time, so the simulator and the accuracy bench
// replay exactly. Angles in degrees, time in ms; yaw counter-clockwise from above (table bearings).
//
// The person: hears the count, draws (on "1", on "3" as the rule books say, timing the arrival to "3", or aiming
// early and switching at "3"), reacts (log-normal), swings to the target in a minimum-jerk move whose length grows
// with the angle (Fitts-like), overshoots or falls short a little, corrects, and then holds with hand tremor
// (8–12 Hz) and a slow sway. The ray starts at the gun, held in front of the body, and ends at the target's body
// (which may lean in); where it lands carries a bias of the person's own, one per direction, and a scatter in
// centimetres at the body. A person who watches the gun's colour corrects a wrong one. Now and then someone is
// slow. Each figure against the literature: docs/human-model.md.
// The sensor: the gun's yaw zero is arbitrary (its offset to the table), the gyro drifts at a bias rate (more
// while it warms), turns read a little long or short (scale factor), the heading error varies slowly, and each
// sample carries white noise.
import type { SeatPoint } from "@cng/protocol";
import { gaussian, logNormal, type Random, uniform } from "./prng.js";

/** How people time the draw: shares of the table, summing to 1 (docs/human-model.md). */
export interface DrawMix {
  /** react to "1" and arrive before "3" (the bench's own people) */
  one: number;
  /** react to "3", as the rule books say: "when I reach three, each player must point" */
  three: number;
  /** time the arrival to "3" from the beats heard before it */
  timed: number;
  /** aim at someone from "1" and, at "3", switch to the one they mean (often a bluff; the same one sometimes) */
  switch: number;
}
export type DrawKind = keyof DrawMix;
export const DRAW_KINDS: readonly DrawKind[] = ["one", "three", "timed", "switch"];

export interface HumanTraits {
  /** median reaction time from the cue to the start of the move, ms */
  reactionMedianMs: number;
  /** log-normal spread of the reaction time */
  reactionSigma: number;
  /** swing duration = swingBaseMs + swingMsPerDeg × |angle| */
  swingBaseMs: number;
  swingMsPerDeg: number;
  /** overshoot as a fraction of the swing: mean and σ (below zero the swing falls short) */
  overshootFrac: number;
  overshootSigma: number;
  /** time to correct the overshoot, ms */
  settleMs: number;
  /** σ of the persistent aim-point error per hold, degrees */
  aimErrorDeg: number;
  /** physiological tremor amplitude (8–12 Hz), degrees */
  tremorDeg: number;
  /** slow sway amplitude (0.3–1 Hz), degrees */
  swayDeg: number;
  /** probability that a player reacts late: a slow player */
  slowProb: number;
  /** extra delay of a slow player, ms: uniform in this range */
  slowExtraMs: [number, number];
  /** the pitch people hold a gun at when aiming across a table: mean and σ */
  aimPitchDeg: number;
  aimPitchSigma: number;
  /** between counts the gun is held low, pointing within ± this of the table's centre (180: anywhere) */
  holdSpreadDeg: number;
  /** how the table's people time the draw */
  draw: DrawMix;
  /** reaction to "3" (a beat they wait for), median ms and log-normal σ */
  reaction3MedianMs: number;
  reaction3Sigma: number;
  /** those who time their arrival: when the swing ends against "3" (mean, negative = early) and its σ, ms */
  arriveMeanMs: number;
  arriveSigmaMs: number;
  /** σ of a person's own bias, the same at every target, degrees (the gun's offset absorbs it) */
  biasPersonDeg: number;
  /** σ of a person's bias per target direction, degrees: kept all game */
  biasDirectionDeg: number;
  /** σ of where the ray lands on the target's body per hold, sideways, cm (an angle that grows near the shooter) */
  scatterCm: number;
  /** the gun is held this far in front of the seat point (towards the table's centre), metres: the ray starts there */
  gunForwardM: number;
  /** one player of the table leans in towards the centre by this, metres (0: nobody leans) */
  leanM: number;
  /** share of people who watch their gun's colour while aiming and correct a wrong one */
  lookShare: number;
  /** reaction to the colour they see, median ms and log-normal σ */
  visualMedianMs: number;
  visualSigma: number;
}

/**
 * Nobody draws at "3", aims with a bias, leans, or looks: today's bench people (the fields that came later). Their gun
 * is where everyone's is, before the chest, as the hub's geometry has it (aim/options.ts gunForwardM).
 */
const PLAIN = {
  holdSpreadDeg: 180,
  draw: { one: 1, three: 0, timed: 0, switch: 0 },
  reaction3MedianMs: 280,
  reaction3Sigma: 0.3,
  arriveMeanMs: -30,
  arriveSigmaMs: 50,
  biasPersonDeg: 0,
  biasDirectionDeg: 0,
  scatterCm: 0,
  gunForwardM: 0.1,
  leanM: 0,
  lookShare: 0,
  visualMedianMs: 250,
  visualSigma: 0.3,
} as const;

export const DEFAULT_HUMAN: Readonly<HumanTraits> = Object.freeze({
  reactionMedianMs: 300,
  reactionSigma: 0.35,
  swingBaseMs: 250,
  swingMsPerDeg: 2.5,
  overshootFrac: 0.08,
  overshootSigma: 0.05,
  settleMs: 250,
  aimErrorDeg: 1.5,
  tremorDeg: 0.4,
  swayDeg: 0.8,
  slowProb: 0.005,
  slowExtraMs: [800, 2500] as [number, number],
  aimPitchDeg: -5,
  aimPitchSigma: 4,
  ...PLAIN,
  draw: { ...PLAIN.draw },
});

/** The hard end of each range in docs/human-model.md: a table of slow, sloppy, unsteady players. */
export const PESSIMISTIC_HUMAN: Readonly<HumanTraits> = Object.freeze({
  reactionMedianMs: 400,
  reactionSigma: 0.45,
  swingBaseMs: 200,
  swingMsPerDeg: 1.5,
  overshootFrac: 0.1,
  overshootSigma: 0.08,
  settleMs: 400,
  aimErrorDeg: 5,
  tremorDeg: 0.4,
  swayDeg: 1.5,
  slowProb: 0.03,
  slowExtraMs: [500, 3000] as [number, number],
  aimPitchDeg: -5,
  aimPitchSigma: 8,
  ...PLAIN,
  draw: { ...PLAIN.draw },
});

/**
 * A table that plays as the box says (docs/human-model.md, each figure sourced there): most draw at "3", some time
 * their arrival to it or switch at it; each person points with a bias of their own and one per direction, lands
 * 5 cm about the body aimed at, from a gun 10 cm in front of the seat; most watch the gun's colour.
 */
export const TABLE_HUMAN: Readonly<HumanTraits> = Object.freeze({
  ...DEFAULT_HUMAN,
  aimErrorDeg: 0,
  holdSpreadDeg: 30,
  draw: { one: 0.1, three: 0.6, timed: 0.2, switch: 0.1 },
  reaction3MedianMs: 280,
  reaction3Sigma: 0.3,
  biasPersonDeg: 3,
  biasDirectionDeg: 3,
  scatterCm: 5,
  gunForwardM: 0.1,
  lookShare: 0.7,
});

/** The hard end for such a table: the pessimistic reaction and swing, 5° biases, 8 cm, a neighbour leaning in. */
export const HARD_HUMAN: Readonly<HumanTraits> = Object.freeze({
  ...PESSIMISTIC_HUMAN,
  aimErrorDeg: 0,
  holdSpreadDeg: 45,
  draw: { one: 0.1, three: 0.6, timed: 0.1, switch: 0.2 },
  reaction3MedianMs: 400,
  reaction3Sigma: 0.45,
  arriveMeanMs: -30,
  arriveSigmaMs: 80,
  biasPersonDeg: 5,
  biasDirectionDeg: 5,
  scatterCm: 8,
  gunForwardM: 0.1,
  leanM: 0.1,
  lookShare: 0.5,
  visualMedianMs: 300,
  visualSigma: 0.35,
});

/** The people sets the benches play with, by name. */
export const PEOPLE_SETS = ["ours", "pessimistic", "table", "hard"] as const;
export type People = (typeof PEOPLE_SETS)[number];
export const PEOPLE: Readonly<Record<People, Readonly<HumanTraits>>> = Object.freeze({
  ours: DEFAULT_HUMAN,
  pessimistic: PESSIMISTIC_HUMAN,
  table: TABLE_HUMAN,
  hard: HARD_HUMAN,
});

/** Where the gun is: the person's side of things (true table bearing, not what the sensor says). */
export interface HeldPose {
  yaw: number;
  pitch: number;
  roll: number;
  /** resting on the table: the gyro is quiet */
  still: boolean;
}

export type MoveKind =
  /** point at a target bearing and hold */
  | "aim"
  /** lower the gun towards the floor (lie down) */
  | "lower"
  /** put the gun down flat on the table (also lying down) */
  | "rest";

/** One move, drawn once; `poseAt` evaluates it at any time. */
export interface MovePlan {
  kind: MoveKind;
  /** when the move starts (cue + reaction), ms */
  startMs: number;
  swingMs: number;
  settleMs: number;
  from: { yaw: number; pitch: number; roll: number };
  /** where the hand ends up (the aim point, with its error) */
  to: { yaw: number; pitch: number; roll: number };
  /** overshoot at the end of the swing, degrees of yaw and pitch */
  overshootYaw: number;
  overshootPitch: number;
  /** true when this player drew the slow straw */
  slow: boolean;
  /** tremor and sway: frequencies (Hz) and phases, for yaw and pitch */
  wobble: { f: number; phase: number; amp: number; axis: "yaw" | "pitch" }[];
}

export interface MoveRequest {
  kind: MoveKind;
  /** when the player hears the cue ("1" of the count), ms */
  cueMs: number;
  /** where the gun is now */
  from: { yaw: number; pitch: number; roll: number };
  /** the bearing of the intended target (for "aim"), table degrees */
  targetBearingDeg?: number;
  /** the reaction from the cue, ms, when the caller drew it (a draw at "3", a timed arrival; 0: at once) */
  reactionMs?: number;
}

/** Signed shortest turn from a to b. */
function turn(from: number, to: number): number {
  let d = (to - from) % 360;
  if (d > 180) d -= 360;
  else if (d <= -180) d += 360;
  return d;
}

function wrap(d: number): number {
  return turn(0, d);
}

/** Draws one move of a person. */
export function planMove(random: Random, traits: HumanTraits, req: MoveRequest): MovePlan {
  // a move at once (a correction: the person is there, looking) is never the slow straw
  const slow = random() < traits.slowProb && req.reactionMs !== 0;
  let reaction = logNormal(random, traits.reactionMedianMs, traits.reactionSigma);
  if (req.reactionMs !== undefined) reaction = req.reactionMs;
  if (slow) reaction += uniform(random, traits.slowExtraMs[0], traits.slowExtraMs[1]);
  let to: MovePlan["to"];
  if (req.kind === "aim") {
    const bearing = req.targetBearingDeg ?? req.from.yaw;
    to = {
      yaw: wrap(bearing + traits.aimErrorDeg * gaussian(random)),
      pitch: traits.aimPitchDeg + traits.aimPitchSigma * gaussian(random),
      roll: 5 * gaussian(random),
    };
  } else if (req.kind === "lower") {
    to = { yaw: req.from.yaw + 10 * gaussian(random), pitch: uniform(random, -85, -55), roll: 10 * gaussian(random) };
  } else {
    to = { yaw: req.from.yaw + 20 * gaussian(random), pitch: 2 * gaussian(random), roll: 3 * gaussian(random) };
  }
  const dYaw = turn(req.from.yaw, to.yaw);
  const dPitch = to.pitch - req.from.pitch;
  const angle = Math.hypot(dYaw, dPitch);
  const over = req.kind === "aim" ? traits.overshootFrac + traits.overshootSigma * gaussian(random) : 0;
  const wobble: MovePlan["wobble"] =
    req.kind === "rest"
      ? []
      : [
          { f: uniform(random, 8, 12), phase: uniform(random, 0, 2 * Math.PI), amp: traits.tremorDeg, axis: "yaw" },
          { f: uniform(random, 8, 12), phase: uniform(random, 0, 2 * Math.PI), amp: traits.tremorDeg, axis: "pitch" },
          { f: uniform(random, 0.3, 1), phase: uniform(random, 0, 2 * Math.PI), amp: traits.swayDeg, axis: "yaw" },
          { f: uniform(random, 0.3, 1), phase: uniform(random, 0, 2 * Math.PI), amp: traits.swayDeg, axis: "pitch" },
        ];
  return {
    kind: req.kind,
    startMs: req.cueMs + reaction,
    swingMs: traits.swingBaseMs + traits.swingMsPerDeg * angle,
    settleMs: traits.settleMs,
    from: { ...req.from },
    to,
    overshootYaw: over * dYaw,
    overshootPitch: over * dPitch,
    slow,
    wobble,
  };
}

/** Minimum-jerk profile: 0 → 1 over τ ∈ [0, 1] with zero speed and acceleration at both ends. */
function minJerk(tau: number): number {
  if (tau <= 0) return 0;
  if (tau >= 1) return 1;
  return tau * tau * tau * (10 - 15 * tau + 6 * tau * tau);
}

/** Where the gun is at time `tMs` under `plan` (true orientation, before any sensor error). */
export function poseAt(plan: MovePlan, tMs: number): HeldPose {
  const swingEnd = plan.startMs + plan.swingMs;
  const dYaw = turn(plan.from.yaw, plan.to.yaw);
  const dPitch = plan.to.pitch - plan.from.pitch;
  const dRoll = turn(plan.from.roll, plan.to.roll);
  let yaw: number;
  let pitch: number;
  let roll: number;
  if (tMs < swingEnd) {
    // the swing heads for the overshoot point
    const s = minJerk((tMs - plan.startMs) / plan.swingMs);
    yaw = plan.from.yaw + s * (dYaw + plan.overshootYaw);
    pitch = plan.from.pitch + s * (dPitch + plan.overshootPitch);
    roll = plan.from.roll + s * dRoll;
  } else {
    // then a correction back onto the aim point
    const c = 1 - minJerk((tMs - swingEnd) / plan.settleMs);
    yaw = plan.to.yaw + c * plan.overshootYaw;
    pitch = plan.to.pitch + c * plan.overshootPitch;
    roll = plan.to.roll;
  }
  const t = tMs / 1000;
  for (const w of plan.wobble) {
    const v = w.amp * Math.sin(2 * Math.PI * w.f * t + w.phase);
    if (w.axis === "yaw") yaw += v;
    else pitch += v;
  }
  const settled = tMs >= swingEnd + plan.settleMs;
  return {
    yaw: wrap(yaw),
    pitch: Math.max(-90, Math.min(90, pitch)),
    roll: wrap(roll),
    still: plan.kind === "rest" && settled,
  };
}

/** True while the move is still under way (swing or correction) at `tMs`. */
export function moving(plan: MovePlan, tMs: number): boolean {
  return tMs < plan.startMs + plan.swingMs + plan.settleMs && tMs >= plan.startMs;
}

/** One person at the table, drawn once a game: how they draw, their biases, whether they watch the colour. */
export interface Person {
  traits: HumanTraits;
  draw: DrawKind;
  /** bias the same at every target, degrees */
  biasDeg: number;
  /** bias per target seat, degrees, kept all game (their own seat's is unused) */
  directionBiasDeg: number[];
  /** watches the gun's colour while aiming, and corrects a wrong one */
  looks: boolean;
  /** leans in towards the table's centre by this, metres */
  leanM: number;
}

/** Draws one person of `traits` at a table of `seats`. */
export function drawPerson(random: Random, traits: HumanTraits, seats: number, leans = false): Person {
  let u = random();
  let draw: DrawKind = "one";
  for (const k of DRAW_KINDS) {
    if (u < traits.draw[k]) {
      draw = k;
      break;
    }
    u -= traits.draw[k];
  }
  return {
    traits,
    draw,
    biasDeg: traits.biasPersonDeg * gaussian(random),
    directionBiasDeg: Array.from({ length: seats }, () => traits.biasDirectionDeg * gaussian(random)),
    looks: random() < traits.lookShare,
    leanM: leans ? traits.leanM : 0,
  };
}

/** The people of one table; one of them leans in when the traits say someone does. */
export function drawTable(random: Random, traits: HumanTraits, seats: number): Person[] {
  const leaner = traits.leanM > 0 ? Math.floor(random() * seats) : -1;
  return Array.from({ length: seats }, (_, i) => drawPerson(random, traits, seats, i === leaner));
}

const DEG = 180 / Math.PI;

/** The point `m` metres from seat `seat` towards the table's centre (the mean of the seats). */
function towardsCentre(seats: readonly SeatPoint[], seat: number, m: number): SeatPoint {
  const p = seats[seat]!;
  if (m === 0) return p;
  let cx = 0;
  let cy = 0;
  for (const q of seats) {
    cx += q.x / seats.length;
    cy += q.y / seats.length;
  }
  const d = Math.hypot(cx - p.x, cy - p.y) || 1;
  return { x: p.x + (m * (cx - p.x)) / d, y: p.y + (m * (cy - p.y)) / d };
}

/** Where a person's gun is: `forwardM` in front of their seat point, towards the table. */
export function gunPoint(seats: readonly SeatPoint[], seat: number, forwardM: number): SeatPoint {
  return towardsCentre(seats, seat, forwardM);
}

/** Where others aim at a person: their seat point, leant in by `leanM`. */
export function bodyPoint(seats: readonly SeatPoint[], seat: number, leanM: number): SeatPoint {
  return towardsCentre(seats, seat, leanM);
}

/** The true bearing from the shooter's gun to the target's body, no error. */
export function bodyBearing(
  seats: readonly SeatPoint[],
  shooter: Person,
  from: number,
  target: number,
  targetLeanM: number,
): number {
  const g = gunPoint(seats, from, shooter.traits.gunForwardM);
  const b = bodyPoint(seats, target, targetLeanM);
  return Math.atan2(b.y - g.y, b.x - g.x) * DEG;
}

/**
 * Where a person means to point for one hold at `target`, as a true table bearing: from their gun to the target's
 * body, off sideways there by the hold's scatter (cm), plus their own bias and their bias for that direction.
 * (planMove adds the per-hold `aimErrorDeg` on top.)
 */
export function aimBearing(
  random: Random,
  person: Person,
  seats: readonly SeatPoint[],
  from: number,
  target: number,
  targetLeanM: number,
): number {
  const g = gunPoint(seats, from, person.traits.gunForwardM);
  const b = bodyPoint(seats, target, targetLeanM);
  const dist = Math.hypot(b.x - g.x, b.y - g.y);
  const side = (person.traits.scatterCm / 100) * gaussian(random);
  const base = Math.atan2(b.y - g.y, b.x - g.x) * DEG;
  return wrap(base + Math.atan2(side, dist) * DEG + person.biasDeg + (person.directionBiasDeg[target] ?? 0));
}

/**
 * When a person starts to move for a count whose "1" they hear at `oneMs` and whose "3" at `goMs` (pace apart), by
 * how they draw; null for a switcher's second move (planned at "3"). `swingMs` is the swing they plan (the timed
 * ones end it at "3"). Returns the cue the reaction runs from and the reaction to use.
 */
export function drawCue(
  random: Random,
  person: Person,
  kind: DrawKind,
  oneMs: number,
  goMs: number,
  swingMs: number,
): { cueMs: number; reactionMs: number } {
  const t = person.traits;
  if (kind === "one") return { cueMs: oneMs, reactionMs: logNormal(random, t.reactionMedianMs, t.reactionSigma) };
  if (kind === "timed") {
    // the swing is timed to end at "3", a little early on average; never before "1" is heard and reacted to
    const end = goMs + t.arriveMeanMs + t.arriveSigmaMs * gaussian(random);
    const earliest = oneMs + 0.5 * t.reactionMedianMs;
    return { cueMs: oneMs, reactionMs: Math.max(earliest - oneMs, end - swingMs - oneMs) };
  }
  return { cueMs: goMs, reactionMs: logNormal(random, t.reaction3MedianMs, t.reaction3Sigma) };
}

/** A swing's planned duration for an angle (degrees), as planMove draws it. */
export function swingMsFor(traits: HumanTraits, angleDeg: number): number {
  return traits.swingBaseMs + traits.swingMsPerDeg * Math.abs(angleDeg);
}

/**
 * Where a person moves the aim on seeing their gun show `shown` instead of the seat meant: away from the seat shown
 * towards the one meant (they know where both sit: `towards`), by part of the angle between them; half that for the
 * seat meant blinking with a neighbour. With no colour they do not know which way: they aim again (`aimAgain`).
 */
export function correctedAim(
  random: Random,
  aim: number,
  shown: { seat: number | null; between?: number | null },
  intended: number,
  towards: (seat: number) => number,
  aimAgain: () => number,
): number {
  const other = shown.seat === intended ? (shown.between ?? null) : shown.seat;
  if (other === null || other === intended) return aimAgain();
  const want = towards(intended);
  const away = towards(other);
  const frac = uniform(random, 0.3, 0.7) * (shown.seat === intended ? 0.5 : 1);
  return wrap(aim + Math.sign(turn(away, want)) * frac * Math.abs(turn(away, want)));
}

export interface SensorTraits {
  /** the gun's yaw zero relative to the table: raw yaw = true yaw − offset (before drift and noise) */
  offsetDeg: number;
  /** gyro yaw bias left after the firmware's own estimate, °/s (0.05 °/s = 3°/min) */
  biasDegPerS: number;
  /** white noise on each yaw sample, σ degrees */
  noiseDeg: number;
  /** white noise on pitch and roll, σ degrees (gravity pins them: small) */
  tiltNoiseDeg: number;
  /** turns read this fraction long (the gyro's scale factor), counted from `refYawDeg`, where the yaw started */
  scaleFrac?: number;
  refYawDeg?: number;
  /** while the chip warms: an extra drift of this at boot, °/s, fading with `warmTauS` */
  warmDegPerS?: number;
  warmTauS?: number;
  /** a heading error that varies slowly (the fused orientation's own): a few slow sines, degrees and Hz */
  slowErr?: readonly { amp: number; f: number; phase: number }[];
}

export const DEFAULT_SENSOR: Readonly<SensorTraits> = Object.freeze({
  offsetDeg: 0,
  biasDegPerS: 0.05,
  noiseDeg: 3,
  tiltNoiseDeg: 0.5,
});

/** The heading errors of an IMU beyond white noise and a steady drift (docs/human-model.md, per chip). */
export interface ImuErrors {
  /** scale factor: the chip's mean and the spread about it (uniform ± this) */
  scaleMean: number;
  scaleSpread: number;
  /** warm-up drift left after the firmware's still-bias estimate: σ at boot (°/s) and how fast it fades (s) */
  warmDegPerS: number;
  warmTauS: number;
  /** slowly varying heading error: σ (degrees) and its time scale (s) */
  slowDeg: number;
  slowTauS: number;
}

export const IMU_ERRORS: Readonly<Record<"mpu6050" | "bno085", Readonly<ImuErrors>>> = Object.freeze({
  mpu6050: { scaleMean: 0, scaleSpread: 0.03, warmDegPerS: 0.03, warmTauS: 300, slowDeg: 1, slowTauS: 10 },
  bno085: { scaleMean: -0.0055, scaleSpread: 0.003, warmDegPerS: 0, warmTauS: 300, slowDeg: 2, slowTauS: 20 },
});

/** One chip's errors drawn from its model; `refYawDeg` is where the gun's yaw started counting (it lay there). */
export function drawImuErrors(random: Random, e: ImuErrors, refYawDeg: number): Partial<SensorTraits> {
  const slowErr: { amp: number; f: number; phase: number }[] = [];
  // three sines of random phase, about the time scale asked: σ of their sum is slowDeg
  for (let k = 0; k < 3; k++)
    slowErr.push({
      amp: e.slowDeg * Math.sqrt(2 / 3),
      f: uniform(random, 0.5, 2) / (2 * Math.PI * e.slowTauS),
      phase: uniform(random, 0, 2 * Math.PI),
    });
  return {
    scaleFrac: e.scaleMean + uniform(random, -e.scaleSpread, e.scaleSpread),
    refYawDeg,
    warmDegPerS: e.warmDegPerS * gaussian(random),
    warmTauS: e.warmTauS,
    slowErr,
  };
}

/** The heading error beyond the offset, drift and white noise at gun time `tMs` for a true yaw (degrees). */
export function slowHeadingError(sensor: SensorTraits, trueYaw: number, tMs: number): number {
  let e = 0;
  if (sensor.scaleFrac) e += sensor.scaleFrac * turn(sensor.refYawDeg ?? 0, trueYaw);
  const t = tMs / 1000;
  if (sensor.warmDegPerS) {
    const tau = sensor.warmTauS ?? 300;
    e += sensor.warmDegPerS * tau * (1 - Math.exp(-t / tau));
  }
  if (sensor.slowErr) for (const w of sensor.slowErr) e += w.amp * Math.sin(2 * Math.PI * w.f * t + w.phase);
  return e;
}

/** What the gun reports for a true pose at gun time `tMs` (the protocol's aim sample, in degrees). */
export function sense(
  random: Random,
  sensor: SensorTraits,
  pose: HeldPose,
  tMs: number,
): { t: number; yaw: number; pitch: number; roll: number; still: boolean } {
  const yaw = wrap(
    pose.yaw -
      sensor.offsetDeg +
      (sensor.biasDegPerS * tMs) / 1000 +
      slowHeadingError(sensor, pose.yaw, tMs) +
      sensor.noiseDeg * gaussian(random),
  );
  // a still gun has a quiet gyro; its noise is what the firmware's filter lets through, smaller
  const tilt = pose.still ? sensor.tiltNoiseDeg / 4 : sensor.tiltNoiseDeg;
  return {
    t: Math.round(tMs),
    yaw,
    pitch: Math.max(-90, Math.min(90, pose.pitch + tilt * gaussian(random))),
    roll: wrap(pose.roll + tilt * gaussian(random)),
    still: pose.still,
  };
}
