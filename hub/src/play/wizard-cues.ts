// What the calibration wizard's turns do at the table: the gun asked to aim shows its target's seat colour, a pull
// with no steady reading (or a spread too wide) blinks amber, and a gun done keeps its offset, gives it to the
// running table and shows its own seat's colour.

import { type FeedbackDispatcher, seatColour } from "../feedback/index.js";
import type { StoredCalibration } from "../store/calibrations.js";
import type { Clock } from "../table/clock.js";
import type { WizardEvents } from "./calibration.js";
import type { GunCalibrations } from "./calibrations.js";
import type { RunningTable } from "./running-table.js";

export interface WizardCues {
  dispatcher: FeedbackDispatcher;
  cals: GunCalibrations;
  running: RunningTable;
  clock: Clock;
  /** the guns' aim rates may change (the wizard's are fast) */
  rates(): void;
  /** table/state changed */
  changed(): void;
}

export function wizardCues(x: WizardCues): WizardEvents {
  return {
    ask: (seat, _gun, target) => {
      if (target !== null) x.dispatcher.cue(seat, "turn", { colour: seatColour(target) });
      x.rates();
    },
    again: (seat) => x.dispatcher.cue(seat, "ambig"),
    redo: (seat) => x.dispatcher.cue(seat, "ambig"),
    done: (seat, gun, cal, poses, t) => {
      const c: StoredCalibration = {
        gun,
        seat,
        off: cal.offsetDeg,
        t,
        poses,
        spread: cal.spreadDeg,
        at: x.clock.now(),
      };
      x.cals.keep(c);
      x.running.calibrate(seat, c);
      x.dispatcher.cue(seat, "lock", { colour: seatColour(seat) });
    },
    changed: x.changed,
  };
}
