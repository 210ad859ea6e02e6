// Seat colours: one per seat, 8 hues far apart on a cheap RGB LED (no two differ only in brightness).
import type { Seat } from "../rules/index.js";

/** 0xRRGGBB */
export type Rgb = number;

export const SEAT_COLOURS: readonly Rgb[] = [
  0xff0000, // red
  0x00ff00, // green
  0x0000ff, // blue
  0xffd000, // yellow
  0x00ffff, // cyan
  0xff00ff, // magenta
  0xff5000, // orange
  0xffffff, // white
];

export const OFF: Rgb = 0x000000;

/** The colour of a seat (wraps round past 8 seats). */
export function seatColour(seat: Seat): Rgb {
  return SEAT_COLOURS[((seat % SEAT_COLOURS.length) + SEAT_COLOURS.length) % SEAT_COLOURS.length]!;
}
