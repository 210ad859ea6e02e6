import { describe, expect, it } from "vitest";
import {
  angleDiff,
  angleDist,
  bearing,
  bearings,
  customTable,
  ranges,
  rectangularTable,
  roundTable,
  tightPairs,
} from "../../hub/src/aim/index.js";

describe("seat geometry", () => {
  for (const n of [4, 6, 8]) {
    it(`round table of ${n}: neighbouring targets are 180°/${n} apart from every seat`, () => {
      const layout = roundTable(n);
      const b = bearings(layout);
      for (let s = 0; s < n; s++) {
        const sorted = b[s].filter((_, j) => j !== s).sort((x, y) => x - y);
        // consecutive targets round the table, seen from s, are all the same angle apart
        for (let k = 1; k < n - 1; k++) {
          const a = b[s][(s + k) % n];
          const c = b[s][(s + k + 1) % n];
          expect(angleDist(a, c)).toBeCloseTo(180 / n, 9);
        }
        expect(sorted).toHaveLength(n - 1);
        expect(Number.isNaN(b[s][s])).toBe(true);
      }
    });
  }

  it("bearings both ways along a line differ by 180°", () => {
    const layout = roundTable(6);
    for (let i = 0; i < 6; i++) {
      for (let j = 0; j < 6; j++) {
        if (i !== j) expect(angleDist(bearing(layout, i, j), bearing(layout, j, i))).toBeCloseTo(180, 9);
      }
    }
  });

  it("round table seat 0 is at the top and the seats go clockwise", () => {
    const { seats } = roundTable(4, 1);
    expect(seats[0].y).toBeCloseTo(1);
    expect(seats[1].x).toBeCloseTo(1);
    expect(seats[2].y).toBeCloseTo(-1);
  });

  it("a custom table uses the given points and refuses two seats in one place", () => {
    const layout = customTable([
      { x: 0, y: 0 },
      { x: 1, y: 0 },
      { x: 0, y: 1 },
    ]);
    expect(bearing(layout, 0, 1)).toBeCloseTo(0);
    expect(bearing(layout, 0, 2)).toBeCloseTo(90);
    expect(bearing(layout, 1, 0)).toBeCloseTo(180);
    expect(() =>
      customTable([
        { x: 0, y: 0 },
        { x: 0, y: 0 },
      ]),
    ).toThrow(/same place/);
    expect(() => roundTable(1)).toThrow(RangeError);
  });

  it("a rectangular table lists the seats in line with each other as tight pairs", () => {
    const layout = rectangularTable({ lengthM: 2, widthM: 1, perLongSide: 3, perEnd: 1 });
    expect(layout.seats).toHaveLength(8);
    const tight = tightPairs(layout, 8);
    // from seat 0 (top-left), seats 1 and 2 on the same side are exactly in line
    expect(tight).toContainEqual(expect.objectContaining({ shooter: 0, a: 1, b: 2 }));
    // a round table of 8 has no tight pair at 8° (every gap is 22.5°)
    expect(tightPairs(roundTable(8), 8)).toEqual([]);
  });

  it("the ray starts at the gun, 10 cm before the seat: 8 seats on a 0.8 m circle see their neighbours ≈ 9° further out", () => {
    const layout = roundTable(8);
    const fromSeat = bearings(layout);
    const fromGun = bearings(layout, 0.1);
    const out = (j: number) => Math.abs(angleDiff(fromGun[0]![j]!, fromSeat[0]![j]!));
    expect(out(1)).toBeCloseTo(9.2, 0);
    expect(out(7)).toBeCloseTo(9.2, 0);
    expect(out(2)).toBeCloseTo(3.8, 0);
    expect(out(4)).toBeCloseTo(0, 6);
    // the neighbours' gap as the gun sees it is wider than 22.5°
    expect(Math.abs(angleDiff(fromGun[0]![1]!, fromGun[0]![2]!))).toBeGreaterThan(27);
    const r = ranges(layout, 0.1);
    expect(r[0]![4]).toBeCloseTo(1.5, 6);
    expect(r[0]![1]).toBeGreaterThan(0.5);
    expect(r[0]![1]).toBeLessThan(0.61);
    expect(r[0]![0]).toBeNaN();
  });
});
