// Seat layouts and the bearings between seats. Positions are metres on the table plane (x right, y up as
// seen from above); bearings are atan2 degrees, counter-clockwise from +x. Only relative angles matter
// downstream: each gun's calibration absorbs the choice of axes.
import { ROUND_TABLE_RADIUS, roundSeats, type SeatPoint } from "@cng/protocol";
import { angleDist, type Deg, radToDeg } from "./angles.js";

/** A seat is its index in the layout (0-based); seat order goes clockwise round the table. */
export type SeatId = number;

/** metres on the table plane */
export type Point = SeatPoint;

export interface SeatLayout {
  /** `seats[id]` is where the player of seat `id` sits (their chest, roughly: what others aim at). */
  readonly seats: readonly Point[];
}

/** N seats evenly spaced round a circle, seat 0 at the top, then clockwise. */
export function roundTable(n: number, radiusM = ROUND_TABLE_RADIUS): SeatLayout {
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`a table needs at least 2 seats, got ${n}`);
  return { seats: roundSeats(n, radiusM) };
}

/** Seats at given positions (any table shape). Two seats may not share a position. */
export function customTable(points: readonly Point[]): SeatLayout {
  if (points.length < 2) throw new RangeError(`a table needs at least 2 seats, got ${points.length}`);
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) throw new RangeError(`seat ${i} has no finite position`);
    for (let j = 0; j < i; j++) {
      if (Math.hypot(p.x - points[j].x, p.y - points[j].y) < 1e-6) {
        throw new RangeError(`seats ${j} and ${i} are at the same place`);
      }
    }
  }
  return { seats: points.map((p) => ({ x: p.x, y: p.y })) };
}

export interface RectangularTableSpec {
  /** table length, metres (along x) */
  lengthM: number;
  /** table width, metres (along y) */
  widthM: number;
  /** seats along each long side */
  perLongSide: number;
  /** seats at each short end: 0 or 1 */
  perEnd: 0 | 1;
  /** how far players sit back from the edge, metres */
  setbackM?: number;
}

/**
 * A rectangular table: seats spread evenly along both long sides (plus one at each end if asked), clockwise
 * from the top-left. Seats on one side are in line with each other, which is what makes this shape hard.
 */
export function rectangularTable(spec: RectangularTableSpec): SeatLayout {
  const back = spec.setbackM ?? 0.3;
  const halfL = spec.lengthM / 2;
  const yTop = spec.widthM / 2 + back;
  const along = (k: number): number => -halfL + (spec.lengthM * (k + 0.5)) / spec.perLongSide;
  const seats: Point[] = [];
  for (let k = 0; k < spec.perLongSide; k++) seats.push({ x: along(k), y: yTop });
  if (spec.perEnd === 1) seats.push({ x: halfL + back, y: 0 });
  for (let k = spec.perLongSide - 1; k >= 0; k--) seats.push({ x: along(k), y: -yTop });
  if (spec.perEnd === 1) seats.push({ x: -halfL - back, y: 0 });
  return customTable(seats);
}

/** Bearing from seat `from` to seat `to`, degrees. */
export function bearing(layout: SeatLayout, from: SeatId, to: SeatId): Deg {
  const a = layout.seats[from];
  const b = layout.seats[to];
  return radToDeg(Math.atan2(b.y - a.y, b.x - a.x));
}

/** `b[i][j]`: bearing from seat i's gun to seat j (the diagonal is NaN: nobody aims at themself). */
export type Bearings = readonly (readonly Deg[])[];

/** Where each seat's gun is: `gunForwardM` in front of the seat point, towards the middle of the seats. */
export function gunPoints(layout: SeatLayout, gunForwardM = 0): Point[] {
  const n = layout.seats.length;
  let cx = 0;
  let cy = 0;
  for (const p of layout.seats) {
    cx += p.x / n;
    cy += p.y / n;
  }
  return layout.seats.map((a) => {
    const d = Math.hypot(cx - a.x, cy - a.y) || 1;
    return { x: a.x + (gunForwardM * (cx - a.x)) / d, y: a.y + (gunForwardM * (cy - a.y)) / d };
  });
}

/**
 * The bearings from each seat's gun (gunPoints) to every other seat point. The ray starts at the gun: 10 cm forward
 * turns the bearings to the neighbours at 8 seats on a 0.8 m circle by ≈ 9° outwards (and widens the gap between them
 * as the gun sees it).
 */
export function bearings(layout: SeatLayout, gunForwardM = 0): Bearings {
  return gunPoints(layout, gunForwardM).map((g, i) =>
    layout.seats.map((b, j) => (i === j ? Number.NaN : radToDeg(Math.atan2(b.y - g.y, b.x - g.x)))),
  );
}

/** `r[i][j]`: how far seat j is from seat i's gun, metres (NaN for itself). */
export type Ranges = readonly (readonly number[])[];

/** The distances from each seat's gun (gunPoints) to every other seat point. */
export function ranges(layout: SeatLayout, gunForwardM = 0): Ranges {
  return gunPoints(layout, gunForwardM).map((g, i) =>
    layout.seats.map((b, j) => (i === j ? Number.NaN : Math.hypot(b.x - g.x, b.y - g.y))),
  );
}

/** Two targets that look (nearly) in line from a shooter: yaw alone cannot tell them apart. */
export interface TightPair {
  shooter: SeatId;
  a: SeatId;
  b: SeatId;
  gapDeg: Deg;
}

/**
 * Pairs of targets closer than `minGapDeg` in bearing from some shooter. The setup page shows these so the
 * host can move chairs: a snapshot between them comes out ambiguous every time.
 */
export function tightPairs(layout: SeatLayout, minGapDeg: Deg): TightPair[] {
  const b = bearings(layout);
  const n = layout.seats.length;
  const out: TightPair[] = [];
  for (let s = 0; s < n; s++) {
    for (let a = 0; a < n; a++) {
      for (let c = a + 1; c < n; c++) {
        if (a === s || c === s) continue;
        const gap = angleDist(b[s][a], b[s][c]);
        if (gap < minGapDeg) out.push({ shooter: s, a, b: c, gapDeg: gap });
      }
    }
  }
  return out;
}
