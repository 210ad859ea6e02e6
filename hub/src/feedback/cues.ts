// The cue vocabulary as LED and buzzer patterns (protocol CueMsg `l`, `b`, `rp`). Pure: name (+ colour) in,
// pattern out. Counts are short and high so they cut through table talk; bad news is low and long.
import type { CueName } from "@cng/protocol";
import { OFF, type Rgb } from "./colours.js";

export interface CuePattern {
  /** LED steps, flat pairs colour/ms; the last colour stays on */
  l?: number[];
  /** buzzer steps, flat pairs Hz/ms (0 = silent) */
  b?: number[];
  /** play the whole pattern this many times */
  rp?: number;
}

const WHITE: Rgb = 0xffffff;
const RED: Rgb = 0xff0000;
const AMBER: Rgb = 0xffa000;

/** a between-seats lock blinks this long in each colour, and this many times (a newer lock replaces it) */
const BLINK_MS = 150;
const BLINKS = 20;

/**
 * The pattern for a cue. `colour` is the seat colour for `lock`, `turn`, `ident` and `win` (white otherwise);
 * `times`, for `ident`: blink that many times, quickly and silently (a seat number, told without colour); `blink`, for
 * `lock`: the other seat's colour when the gun points between two seats, blinked with `colour` (ending on it).
 */
export function cuePattern(name: CueName, colour?: Rgb, times?: number, blink?: Rgb): CuePattern {
  const c = colour ?? WHITE;
  switch (name) {
    case "beat": // "1", "2": a short tick
      return { l: [WHITE, 80, OFF, 1], b: [880, 80] };
    case "go": // "3": longer and an octave up, so the snapshot moment is unmistakable
      return { l: [WHITE, 200, OFF, 1], b: [1760, 200] };
    case "lock": // the live target's seat colour, silent (aiming must not make noise), stays on
      if (blink !== undefined && colour !== undefined)
        // between two seats: the two colours in turn, the nearer one last
        return { l: [blink, BLINK_MS, colour, BLINK_MS], rp: BLINKS };
      return { l: [colour ?? OFF, 1] };
    case "ambig": // amber blinks, a low double beep: re-aim
      return { l: [AMBER, 100, OFF, 100], b: [440, 60, 0, 140], rp: 3 };
    case "wound": // red flash + low buzz
      return { l: [RED, 150, OFF, 100], b: [220, 150, 0, 100], rp: 3 };
    case "dead": // long low tone, then the LED goes off for good
      return { l: [RED, 1500, OFF, 1], b: [110, 1500] };
    case "turn": // your turn: your colour pulses, one chirp
      return { l: [c, 300, OFF, 200], b: [660, 100, 0, 400], rp: 2 };
    case "win": // a rising arpeggio in your colour
      return { l: [c, 200, OFF, 100], b: [523, 150, 659, 150, 784, 150, 1047, 400], rp: 1 };
    case "err": // refused (a fourth Bang!, a bad privilege): red double blink, a buzz
      return { l: [RED, 80, OFF, 80], b: [150, 120, 0, 80], rp: 2 };
    case "ident": // "this gun": slow blink in the seat colour; or a seat number as so many quick blinks
      if (times !== undefined) return { l: [c, 250, OFF, 300], rp: Math.max(1, Math.min(12, times)) };
      return { l: [c, 500, OFF, 500], b: [1000, 50], rp: 3 };
    case "off":
      return { l: [OFF, 1], b: [0, 1] };
  }
}
