import { describe, expect, it } from "vitest";
import { aimOptions, angleDist, bearings, calibrate, roundTable, wrapDeg } from "../../hub/src/aim/index.js";

const opts = aimOptions();
const b = bearings(roundTable(8));
const shooter = 0;
const trueOffset = -123;
/** the raw yaw a gun with `trueOffset` reads when aimed `errorDeg` off seat `seat` */
const pose = (seat: number, errorDeg = 0) => ({ seat, rawYawDeg: wrapDeg(b[shooter][seat] + errorDeg - trueOffset) });

describe("calibration", () => {
  it("one pose gives the offset exactly, across the ±180° wrap", () => {
    const c = calibrate([pose(4)], b[shooter], shooter, opts);
    expect(c.verdict).toBe("ok");
    expect(angleDist(c.offsetDeg, trueOffset)).toBeLessThan(1e-9);
    expect(c.spreadDeg).toBeCloseTo(0, 9);
  });

  it("three poses ≥ 60° apart average their aim errors", () => {
    const c = calibrate([pose(1, 2), pose(4, -1), pose(7, 2)], b[shooter], shooter, opts);
    expect(c.verdict).toBe("ok");
    expect(c.separationDeg).toBeGreaterThanOrEqual(60);
    // offset = bearing − raw = true offset − aim error; the errors average to +1°
    expect(angleDist(c.offsetDeg, trueOffset - 1)).toBeLessThan(0.01);
    expect(c.spreadDeg).toBeCloseTo(2, 1);
  });

  it("asks for a redo when the poses disagree by more than 5°", () => {
    const c = calibrate([pose(1, 0), pose(4, 0), pose(7, 12)], b[shooter], shooter, opts);
    expect(c.verdict).toBe("redo");
    expect(c.reasons).toContain("spread");
    expect(c.spreadDeg).toBeGreaterThan(5);
  });

  it("spots a gun whose yaw turns the wrong way", () => {
    const mirrored = [1, 4, 7].map((seat) => ({ seat, rawYawDeg: wrapDeg(-(b[shooter][seat] - 40)) }));
    const c = calibrate(mirrored, b[shooter], shooter, opts);
    expect(c.verdict).toBe("redo");
    expect(c.reasons).toEqual(["mirrored"]);
  });

  it("asks for seats further apart when the poses are neighbours", () => {
    const c = calibrate([pose(3), pose(4)], b[shooter], shooter, opts);
    expect(c.reasons).toEqual(["too-close"]);
  });

  it("refuses a pose at the shooter's own seat or no pose at all", () => {
    expect(calibrate([], b[shooter], shooter, opts).reasons).toEqual(["bad-pose"]);
    expect(calibrate([{ seat: shooter, rawYawDeg: 0 }], b[shooter], shooter, opts).verdict).toBe("redo");
  });
});
