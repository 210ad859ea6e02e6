// Every threshold of the aim layer, named, with its default and why. Callers pass a Partial to override;
// `cng bench accuracy` is the tool for tuning them (it reports what each choice costs in wrong targets).
import type { Deg } from "./angles.js";

export interface SnapshotOptions {
  /**
   * length of the window the snapshot heading is the median of, ms. 250 ms ≈ 12 samples at 50 Hz, the
   * whole grace after "3". The bench preferred it to 150 ms: at σ = 5° it halves re-aims and false
   * "unstable" verdicts without more wrong targets (a player who is still moving is caught either way).
   */
  windowMs: number;
  /** fewer samples than this in the window → nobody ("no-samples"). 3 still allows a median at 25 Hz. */
  minSamples: number;
  /** newest sample older than this at the snapshot → nobody ("stale"): the gun stopped talking. */
  staleMs: number;
  /**
   * heading change across the window (median of the newer half minus median of the older half) above this →
   * nobody ("unstable"): the player is still swinging. 12° over ≈ 75 ms ≈ 160°/s, a swing not a tremor;
   * low enough to catch a mid-swing gun, high enough that σ = 5° white noise rarely trips it.
   */
  maxMotionDeg: Deg;
  /**
   * the newest part of the window (this fraction of its samples, at least minSamples) must point at the seat the
   * whole window names, else nobody ("settling"): a hand still correcting an overshoot at "3" + grace has a median
   * on the seat it swung past, while its newest samples already lean to the one it meant. The bench (8 seats,
   * σ 3°): a third turns 7 of 13 wrong targets in 96,000 hold-ups into nobody, at the cost of 7 right ones.
   */
  tailFraction: number;
  /** robust scatter (75th-percentile deviation as a σ) above this → nobody ("unstable"): a shaking gun. */
  maxScatterDeg: Deg;
  /**
   * a count's reading over its reaction window (draw.ts): a hold whose heading, or its newest part's, moves further
   * than this from where the hold began has been left (a switch, a correction). Above the drift of a 250 ms median
   * at σ 5° per sample (≈ 2°) and the sway, below a nudge of a third of a seat's gap at 8 seats.
   */
  departDeg: Deg;
  /**
   * median pitch below this at a hold-up snapshot → nobody ("lowered"). Aiming across a table at a seated
   * person is within ±15° of level; a gun still held down at −30° has not been raised yet (a slow player),
   * and its yaw would name whoever happens to sit where it points.
   */
  minAimPitchDeg: Deg;
  /** median pitch above this → nobody ("raised"): pointing at the ceiling. */
  maxAimPitchDeg: Deg;
}

export interface GeometryOptions {
  /**
   * the gun is held this far in front of the seat point (metres, towards the table): the ray a player points along
   * starts there (seats.ts bearings). People hold a gun before their chest; docs/human-model.md.
   */
  gunForwardM: number;
}

export interface PickOptions {
  /**
   * accept only when |error| ≤ this × half the gap to the neighbouring target on the error's side.
   * DESIGN.md started at 0.7; the bench shows 0.8 (with marginFraction 0.25) keeps wrong targets ≤ 0.03%
   * at 8 seats and σ ≤ 5° while asking for far fewer re-aims.
   */
  acceptFraction: number;
  /** the second-best seat must be at least max(minMarginDeg, marginFraction × the angle between them) further off. */
  minMarginDeg: Deg;
  marginFraction: number;
  /**
   * never accept beyond this error, whatever the gaps: an end target has the empty sector (the shooter's back)
   * on one side; pointing into it further than this is nobody ("no-seat").
   */
  maxErrorDeg: Deg;
}

export interface LieDownOptions {
  /** median pitch below this at the courage snapshot = lying down (gun lowered). */
  loweredPitchDeg: Deg;
  /** resting flat: still, |pitch| ≤ this ... */
  flatPitchDeg: Deg;
  /** ... and roll within this of 0° or ±180° (the gun on its side is not "flat": someone holds it). */
  flatRollDeg: Deg;
}

export interface LiveOptions {
  /** samples averaged for the live heading (LED colour, dashboard aim line): few, so it follows the hand. */
  liveSamples: number;
  /** newest sample older than this → no live target. */
  liveStaleMs: number;
  /** keep showing the previous seat until it is this much beyond its acceptance window: no LED flicker. */
  liveHysteresisDeg: Deg;
}

export interface CalibrationOptions {
  /** poses disagreeing by more than this (largest distance from their mean) → redo. */
  maxSpreadDeg: Deg;
  /** with 2–3 poses, the aimed-at seats should span at least this, so a wrong yaw sense shows up. */
  minPoseSeparationDeg: Deg;
}

export interface TrackerOptions {
  /** how well a deliberate calibration pose hits the seat (σ, degrees): the aim-point error of a person. */
  poseSigmaDeg: Deg;
  /** how well a hold-up snapshot hits its target (σ): hurried, so worse than a pose. */
  snapshotSigmaDeg: Deg;
  /**
   * and on top of that σ (and the pose's), how far about the body aimed at a hold lands, sideways, cm: an angle that
   * grows near the shooter (5 cm is ≈ 5° at a neighbour 0.55 m from the gun, ≈ 2° across an 8-seat table), so a
   * neighbour's mark weighs less. docs/human-model.md.
   */
  aimScatterCm: number;
  /** a re-centre pose further than this many σ from the prediction restarts the fit (a bumped gun). */
  gateSigmas: number;
  /**
   * prior σ of the yaw drift rate, °/s, before any learning (gyro bias left after the gun's own estimate).
   * Too loose and the first snapshot's aim error is read as drift, which then runs the offset away.
   */
  rateSigmaDegPerS: number;
  /** offset random walk, °/√s: how fast the offset wanders beyond a steady drift. */
  offsetWalkDegPerSqrtS: number;
  /** drift-rate random walk, °/s per √s: bias changes with temperature. */
  rateWalkDegPerSPerSqrtS: number;
  /** the offset fit starts from rates within ± this, °/s: twice the drift any gun in the bench has, and more */
  fitRateSpanDegPerS: number;
  /** a mark further than this many σ from the fit counts as that far: one badly aimed hold-up cannot drag it */
  fitCapSigmas: number;
  /** a runner-up fit this far (or more) from the best reads the gun's marks as other seats */
  doubtApartDeg: Deg;
  /**
   * a gun whose runner-up fits within this much (squared σ) of the best is in doubt: its history cannot tell which
   * seats it aimed at, and the next hold-up could name a neighbour. Such a gun alone is asked for the re-centre pose
   * at the round's start. The bench (8 seats, 0.05 °/s): 9 asks about one gun-round in 70 at σ 3°, one in 30 at
   * σ 5°, and holds wrong targets near the every-round pose's; 4 asks a third as often and lets three times as
   * many through.
   */
  doubtCost: number;
  /**
   * σ of a person's bias per direction the offset fit assumes (offset-fit.ts): the prior that holds each learned one
   * near zero. People point with a bias per person and direction (Mayer et al. 2015, docs/human-model.md). The bench
   * (`table` people, drawn with σ 3°) gains as much at 1.5° as at 3°, and at 3° a gun with a few marks can be read so
   * many ways that it is asked for the pose half as often again.
   */
  directionSigmaDeg: Deg;
}

export type AimOptions = SnapshotOptions &
  GeometryOptions &
  PickOptions &
  LieDownOptions &
  LiveOptions &
  CalibrationOptions &
  TrackerOptions;

export const DEFAULT_AIM_OPTIONS: Readonly<AimOptions> = Object.freeze({
  windowMs: 250,
  minSamples: 3,
  staleMs: 150,
  maxMotionDeg: 12,
  tailFraction: 0.34,
  maxScatterDeg: 15,
  departDeg: 6,
  minAimPitchDeg: -25,
  gunForwardM: 0.1,
  maxAimPitchDeg: 40,
  acceptFraction: 0.8,
  minMarginDeg: 4,
  marginFraction: 0.25,
  maxErrorDeg: 20,
  loweredPitchDeg: -45,
  flatPitchDeg: 15,
  flatRollDeg: 20,
  liveSamples: 3,
  liveStaleMs: 500,
  liveHysteresisDeg: 3,
  maxSpreadDeg: 5,
  minPoseSeparationDeg: 60,
  poseSigmaDeg: 1.5,
  snapshotSigmaDeg: 2.5,
  aimScatterCm: 5,
  gateSigmas: 3,
  rateSigmaDegPerS: 0.05,
  offsetWalkDegPerSqrtS: 0.05,
  rateWalkDegPerSPerSqrtS: 0.0005,
  fitRateSpanDegPerS: 0.15,
  fitCapSigmas: 3,
  doubtApartDeg: 6,
  doubtCost: 9,
  directionSigmaDeg: 1.5,
});

/** Defaults with the caller's overrides on top. */
export function aimOptions(overrides: Partial<AimOptions> = {}): AimOptions {
  return { ...DEFAULT_AIM_OPTIONS, ...overrides };
}
