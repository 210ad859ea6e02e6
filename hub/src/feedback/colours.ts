// Seat colours: one per seat, told apart by everyone at the table — also the one player in twelve who does not see
// red from green. The Okabe–Ito palette (designed for colour-vision deficiencies), black swapped for white (an LED
// cannot show black); tests/table/colours.test.ts simulates protanopia, deuteranopia and tritanopia on it.
import type { Seat } from "../rules/index.js";

/** 0xRRGGBB */
export type Rgb = number;

export const SEAT_COLOURS: readonly Rgb[] = [
  0xe69f00, // orange
  0x56b4e9, // sky blue
  0x009e73, // bluish green
  0xf0e442, // yellow
  0x0072b2, // blue
  0xd55e00, // vermilion
  0xcc79a7, // reddish purple
  0xffffff, // white
];

export const OFF: Rgb = 0x000000;

/** The colour of a seat (wraps round past 8 seats). */
export function seatColour(seat: Seat): Rgb {
  return SEAT_COLOURS[((seat % SEAT_COLOURS.length) + SEAT_COLOURS.length) % SEAT_COLOURS.length]!;
}
