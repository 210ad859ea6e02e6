// A person holding a foam gun, and the IMU inside it. Pure: every random draw comes from the `Random`
// passed in, and a plan, once drawn, is a fixed function of time, so the simulator and the accuracy bench
// replay exactly. Angles in degrees, time in ms; yaw counter-clockwise from above (table bearings).
//
// The person: hears the cue, reacts (log-normal, ≈ 300 ms), swings to the target in a minimum-jerk move
// whose length grows with the angle (Fitts-like), overshoots or falls short a little, corrects, and then holds
// with hand tremor (8–12 Hz) and a slow sway. Each figure against the literature: docs/human-model.md. The aim point itself is off the seat's bearing by a persistent error
// (people point at a body, not a line). Now and then someone is slow and still moving when the count ends.
// The sensor: the gun's yaw zero is arbitrary (its offset to the table), the gyro drifts at a bias rate,
// and each sample carries white noise.
import { gaussian, logNormal, type Random, uniform } from "./prng.js";

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
}

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
  const slow = random() < traits.slowProb;
  let reaction = logNormal(random, traits.reactionMedianMs, traits.reactionSigma);
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

export interface SensorTraits {
  /** the gun's yaw zero relative to the table: raw yaw = true yaw − offset (before drift and noise) */
  offsetDeg: number;
  /** gyro yaw bias left after the firmware's own estimate, °/s (0.05 °/s = 3°/min) */
  biasDegPerS: number;
  /** white noise on each yaw sample, σ degrees */
  noiseDeg: number;
  /** white noise on pitch and roll, σ degrees (gravity pins them: small) */
  tiltNoiseDeg: number;
}

export const DEFAULT_SENSOR: Readonly<SensorTraits> = Object.freeze({
  offsetDeg: 0,
  biasDegPerS: 0.05,
  noiseDeg: 3,
  tiltNoiseDeg: 0.5,
});

/** What the gun reports for a true pose at gun time `tMs` (the protocol's aim sample, in degrees). */
export function sense(
  random: Random,
  sensor: SensorTraits,
  pose: HeldPose,
  tMs: number,
): { t: number; yaw: number; pitch: number; roll: number; still: boolean } {
  const yaw = wrap(
    pose.yaw - sensor.offsetDeg + (sensor.biasDegPerS * tMs) / 1000 + sensor.noiseDeg * gaussian(random),
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
