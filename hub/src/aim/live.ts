// Live "aiming at", for the gun's LED colour and the dashboard's aim line: the mean of the last few samples
// and the nearest seat inside its share of the angle, with hysteresis so the LED does not flicker between
// neighbours. Cheap and forgiving; the hold-up verdict is resolveTarget's, never this.
import { angleDist, circularMean, type Deg, wrapDeg } from "./angles.js";
import type { LieDownOptions, LiveOptions, PickOptions } from "./options.js";
import { pickTarget, sideGap } from "./pick.js";
import type { SeatId } from "./seats.js";
import type { AimWindow, GunMs } from "./window.js";

export interface LiveAim {
  /** calibrated heading, or null without recent samples */
  headingDeg: Deg | null;
  pitchDeg: Deg | null;
  /** the seat the gun points at now, or null */
  seat: SeatId | null;
  /**
   * the other seat when the heading sits between `seat` and it: a hold-up would not name `seat` there (the pick rule's
   * margins), and the gun blinks the two colours so its player moves off the border
   */
  between: SeatId | null;
  lowered: boolean;
}

const NO_AIM: LiveAim = Object.freeze({ headingDeg: null, pitchDeg: null, seat: null, between: null, lowered: false });
const recent = new Float64Array(16);

/** `now` is the gun's time now (its newest sample's time is fine); `previous` the seat shown until now. */
export function liveAim(
  win: AimWindow,
  now: GunMs,
  offsetDeg: Deg,
  bearingRow: readonly Deg[],
  shooter: SeatId,
  previous: SeatId | null,
  opts: LiveOptions & PickOptions & Pick<LieDownOptions, "loweredPitchDeg">,
  eligible: (seat: SeatId) => boolean = () => true,
): LiveAim {
  if (win.size === 0 || now - win.t(0) > opts.liveStaleMs) return NO_AIM;
  const n = Math.min(win.size, opts.liveSamples, recent.length);
  let pitch = 0;
  for (let k = 0; k < n; k++) {
    recent[k] = win.yaw(k);
    pitch += win.pitch(k);
  }
  const headingDeg = wrapDeg(circularMean(recent, n).mean + offsetDeg);
  const pitchDeg = pitch / n;
  if (pitchDeg < opts.loweredPitchDeg) return { headingDeg, pitchDeg, seat: null, between: null, lowered: true };

  let seat: SeatId | null = null;
  if (previous !== null && previous !== shooter && eligible(previous) && previous < bearingRow.length) {
    const lean = headingDeg - bearingRow[previous];
    const gap = sideGap(bearingRow, shooter, previous, wrapDeg(lean), eligible);
    const keepWithin = Math.min(gap / 2, opts.maxErrorDeg) + opts.liveHysteresisDeg;
    if (angleDist(headingDeg, bearingRow[previous]) <= keepWithin) seat = previous;
  }
  if (seat === null) {
    // Nearest seat within its half gap: no margin test (the LED should show what the gun points at).
    const pick = pickTarget(
      headingDeg,
      bearingRow,
      shooter,
      { ...opts, acceptFraction: 1, minMarginDeg: 0, marginFraction: 0 },
      eligible,
    );
    seat = pick.kind === "target" ? pick.seat : null;
  }
  return {
    headingDeg,
    pitchDeg,
    seat,
    between: between(headingDeg, seat, bearingRow, shooter, opts, eligible),
    lowered: false,
  };
}

/** The seat the heading sits between `seat` and, by the hold-up's own pick rule; null when it would name `seat`. */
function between(
  headingDeg: Deg,
  seat: SeatId | null,
  bearingRow: readonly Deg[],
  shooter: SeatId,
  opts: PickOptions,
  eligible: (seat: SeatId) => boolean,
): SeatId | null {
  if (seat === null) return null;
  const strict = pickTarget(headingDeg, bearingRow, shooter, opts, eligible);
  if (strict.kind === "target") return strict.seat === seat ? null : strict.seat;
  if (strict.kind === "nobody") return null;
  const other = strict.best.seat === seat ? strict.second?.seat : strict.best.seat;
  return other ?? null;
}
