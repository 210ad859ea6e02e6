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
  lowered: boolean;
}

const NO_AIM: LiveAim = Object.freeze({ headingDeg: null, pitchDeg: null, seat: null, lowered: false });
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
  if (pitchDeg < opts.loweredPitchDeg) return { headingDeg, pitchDeg, seat: null, lowered: true };

  if (previous !== null && previous !== shooter && eligible(previous) && previous < bearingRow.length) {
    const lean = headingDeg - bearingRow[previous];
    const gap = sideGap(bearingRow, shooter, previous, wrapDeg(lean), eligible);
    const keepWithin = Math.min(gap / 2, opts.maxErrorDeg) + opts.liveHysteresisDeg;
    if (angleDist(headingDeg, bearingRow[previous]) <= keepWithin) {
      return { headingDeg, pitchDeg, seat: previous, lowered: false };
    }
  }
  // Nearest seat within its half gap: no margin test (the LED should show what the gun points at).
  const pick = pickTarget(
    headingDeg,
    bearingRow,
    shooter,
    { ...opts, acceptFraction: 1, minMarginDeg: 0, marginFraction: 0 },
    eligible,
  );
  const seat = pick.kind === "target" ? pick.seat : null;
  return { headingDeg, pitchDeg, seat, lowered: false };
}
