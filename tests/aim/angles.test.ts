import { describe, expect, it } from "vitest";
import { angleDiff, angleDist, circularMean, maxDeviation, medianInPlace, wrapDeg } from "../../hub/src/aim/index.js";

describe("angles", () => {
  it("wraps into (−180, 180]", () => {
    expect(wrapDeg(190)).toBeCloseTo(-170);
    expect(wrapDeg(-190)).toBeCloseTo(170);
    expect(wrapDeg(180)).toBe(180);
    expect(wrapDeg(-180)).toBe(180);
    expect(wrapDeg(720 + 5)).toBeCloseTo(5);
  });

  it("measures the short way round across ±180°", () => {
    expect(angleDiff(-179, 179)).toBeCloseTo(2);
    expect(angleDiff(179, -179)).toBeCloseTo(-2);
    expect(angleDist(-170, 170)).toBeCloseTo(20);
  });

  it("averages headings either side of ±180° to 180°, not 0°", () => {
    const { mean, resultant } = circularMean([179, -179, 178, -178]);
    expect(angleDist(mean, 180)).toBeLessThan(1e-9);
    expect(resultant).toBeGreaterThan(0.99);
    expect(maxDeviation([179, -179, 178, -178], mean)).toBeCloseTo(2);
  });

  it("takes the median of a prefix without touching the rest", () => {
    const v = new Float64Array([5, 1, 4, 2, 3, 100]);
    expect(medianInPlace(v, 5)).toBe(3);
    expect(v[5]).toBe(100);
    expect(medianInPlace(new Float64Array([4, 1, 3, 2]), 4)).toBe(2.5);
  });
});
