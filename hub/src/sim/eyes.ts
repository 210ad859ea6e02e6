// What a person sees on their gun's LED — a seat's colour, blinking with another's, or none — and what one who
// watches it during a count does: a colour other than the seat meant is corrected after a visual reaction.
import { seatColour } from "@cng/protocol";
import type { Seat } from "../rules/index.js";
import type { Clock } from "../table/clock.js";
import type { SimGun } from "./fleet.js";
import { correctedAim } from "./human.js";
import { logNormal } from "./prng.js";

/** What the gun's LED shows as its player sees it: a seat's colour, blinking with another's, or none. */
export interface SeenColour {
  seat: Seat | null;
  between: Seat | null;
}

/** the LED's legs are all written within this of the first */
const LED_WRITE_MS = 2;
/** a colour blinking with another within this reads as between two seats */
const BLINK_MS = 400;

/**
 * Watches the gun's colour while `counting()`: each time the swing ends, and each time the colour changes, a colour
 * other than `target`'s (another seat's, a blink between two, none) is corrected after a visual reaction;
 * `corrected` after each correction.
 */
export function watchColour(
  g: SimGun,
  clock: Clock,
  target: Seat,
  counting: () => boolean,
  corrected: () => void,
): void {
  const hand = g.hand;
  let pending = false;
  let stop = () => {};
  const look = () => {
    if (!counting()) {
      stop();
      return;
    }
    if (pending || clock.now() < hand.arrivedAtHub()) return;
    if (rightColour(seenColour(g), target)) return;
    pending = true;
    clock.setTimer(logNormal(g.random, hand.traits.visualMedianMs, hand.traits.visualSigma), () => {
      pending = false;
      if (!counting()) return stop();
      const seen = seenColour(g);
      if (rightColour(seen, target) || clock.now() < hand.arrivedAtHub()) return;
      const aim = correctedAim(g.random, hand.aimYaw(), seen, target, g.towards, () => g.aimAt(target));
      hand.aim(aim, clock.now(), 0);
      corrected();
      clock.setTimer(hand.arrivedAtHub() - clock.now() + 1, look);
    });
  };
  // an RGB LED's three legs are written one after another: look once the colour is whole
  stop = g.gun.onLed(() => clock.setTimer(LED_WRITE_MS, look));
  clock.setTimer(Math.max(0, hand.arrivedAtHub() - clock.now()) + 1, look);
}

/** Nothing to correct: the colour of the seat meant, steady; or no colour at all, which tells the player nothing. */
function rightColour(seen: SeenColour, target: Seat): boolean {
  return seen.seat === null || (seen.seat === target && seen.between === null);
}

/**
 * What the gun's LED shows: a seat's colour, or a seat's blinking with another's (the two alternating lately; one
 * change of colour is the gun swinging past a seat, not a blink). The beats' white flashes and the moments the LED's
 * three legs are written one by one (one gun ms) are not looked at.
 */
function seenColour(g: SimGun): SeenColour {
  const led = g.gun.led;
  const now = g.gun.now();
  const seats = g.bearings.length;
  const nowSeat = seatOfColour(g.gun.ledNow(), seats);
  if (nowSeat === null) return { seat: null, between: null };
  // the seat colours shown lately, newest first, each change once (the last write of each gun ms)
  const shown: Seat[] = [];
  for (let i = led.length - 1; i >= 0 && led[i]!.t >= now - BLINK_MS; i--) {
    if (i < led.length - 1 && led[i + 1]!.t === led[i]!.t) continue;
    const s = seatOfColour(led[i]!.c, seats);
    if (s !== null && shown[shown.length - 1] !== s) shown.push(s);
  }
  const blinking = shown.length >= 3 && shown[0] === shown[2] && shown[1] !== shown[0];
  return { seat: nowSeat, between: blinking ? (shown[0] === nowSeat ? shown[1]! : shown[0]!) : null };
}

/** The seat (of `seats`) whose colour this is (the board may dim it), or null for none, white or off. */
function seatOfColour(c: number, seats: number): Seat | null {
  const rgb = (x: number) => [(x >> 16) & 255, (x >> 8) & 255, x & 255];
  const norm = (v: number[]) => {
    const m = Math.max(...v);
    return m === 0 ? null : v.map((x) => x / m);
  };
  const seen = norm(rgb(c));
  // white, however dimmed: a beat's flash
  if (seen === null || seen.every((x) => x > 0.95)) return null;
  let best: Seat | null = null;
  let bestD = 0.15;
  for (let s = 0; s < seats; s++) {
    const n = norm(rgb(seatColour(s)))!;
    const d = Math.hypot(n[0]! - seen[0]!, n[1]! - seen[1]!, n[2]! - seen[2]!);
    if (d < bestD) {
      bestD = d;
      best = s;
    }
  }
  return best;
}
