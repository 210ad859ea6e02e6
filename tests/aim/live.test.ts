import { describe, expect, it } from "vitest";
import { AimWindow, aimOptions, bearings, liveAim, roundTable } from "../../hub/src/aim/index.js";
import { fill, steady } from "./helpers.js";

const opts = aimOptions();
const b = bearings(roundTable(8));

describe("live aiming-at", () => {
  it("follows the gun and names the seat it points at", () => {
    const a = liveAim(steady(b[0][3] - 5, 1000), 1000, 5, b[0], 0, null, opts);
    expect(a.seat).toBe(3);
    expect(a.headingDeg).toBeCloseTo(b[0][3]);
  });

  it("holds the previous seat a little past the half-way line (no LED flicker)", () => {
    const halfway = (b[0][3] + b[0][4]) / 2;
    const nearer4 = halfway + Math.sign(b[0][4] - b[0][3]) * 1;
    expect(liveAim(steady(nearer4), 1000, 0, b[0], 0, 3, opts).seat).toBe(3);
    expect(liveAim(steady(nearer4), 1000, 0, b[0], 0, null, opts).seat).toBe(4);
  });

  it("shows nothing for a lowered or silent gun", () => {
    const lowered = liveAim(steady(b[0][3], 1000, { pitch: -70 }), 1000, 0, b[0], 0, 3, opts);
    expect(lowered).toMatchObject({ seat: null, lowered: true });
    expect(liveAim(steady(b[0][3], 1000), 3000, 0, b[0], 0, 3, opts).seat).toBeNull();
    expect(liveAim(new AimWindow(), 0, 0, b[0], 0, null, opts).headingDeg).toBeNull();
    const fresh = fill(new AimWindow(), { from: 0, to: 100, yaw: b[0][2] });
    expect(liveAim(fresh, 100, 0, b[0], 0, null, opts).seat).toBe(2);
  });

  it("between two seats it names the nearer and the other one too: the gun blinks both, its player moves off the border", () => {
    const towards4 = Math.sign(b[0][4] - b[0][3]);
    // 2° past the half-way line towards 4: the LED's seat is 4, but a hold-up would not name it there
    const border = liveAim(steady((b[0][3] + b[0][4]) / 2 + towards4 * 2), 1000, 0, b[0], 0, null, opts);
    expect(border).toMatchObject({ seat: 4, between: 3 });
    // well on seat 3: no blink
    expect(liveAim(steady(b[0][3] + towards4 * 2), 1000, 0, b[0], 0, null, opts)).toMatchObject({
      seat: 3,
      between: null,
    });
    // nothing shown, nothing between
    expect(liveAim(steady(b[0][3], 1000, { pitch: -70 }), 1000, 0, b[0], 0, null, opts).between).toBeNull();
  });
});
