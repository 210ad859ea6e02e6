// The seats as people see them: each seat's colour, and where the seats sit round a round table. The hub lights
// the guns and draws `table/state` with these; the dashboard draws the table with the same ones.

/** 0xRRGGBB */
export type Rgb = number;

/**
 * One colour per seat, told apart by everyone at the table — also the one player in twelve who does not see red from
 * green: the Okabe–Ito palette (designed for colour-vision deficiencies), black swapped for white (an LED cannot show
 * black). tests/table/colours.test.ts simulates protanopia, deuteranopia and tritanopia on it.
 */
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

/** The colour of a seat (wraps round past the palette's length). */
export function seatColour(seat: number): Rgb {
  const n = SEAT_COLOURS.length;
  return SEAT_COLOURS[((seat % n) + n) % n];
}

/** A seat's place on the table plane, metres (x right, y up as seen from above). */
export interface SeatPoint {
  x: number;
  y: number;
}

/** The default table radius, metres. */
export const ROUND_TABLE_RADIUS = 0.8;

/** `n` seats evenly spaced round a circle of `radius` metres: seat 0 at the top, then clockwise. */
export function roundSeats(n: number, radius?: number): SeatPoint[] {
  const r = radius === undefined ? ROUND_TABLE_RADIUS : radius;
  const seats: SeatPoint[] = [];
  for (let i = 0; i < n; i++) {
    const a = Math.PI / 2 - (2 * Math.PI * i) / n;
    seats.push({ x: r * Math.cos(a), y: r * Math.sin(a) });
  }
  return seats;
}
