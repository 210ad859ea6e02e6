import { describe, expect, it } from "vitest";
import { AimWindow, aimOptions, detectLieDown } from "../../hub/src/aim/index.js";
import { fill, steady } from "./helpers.js";

const opts = aimOptions();

describe("lie-down detection", () => {
  it("gun lowered below −45° is lying down", () => {
    expect(detectLieDown(steady(10, 1000, { pitch: -60 }), 1000, opts)).toMatchObject({ kind: "down", how: "lowered" });
  });

  it("gun held up (level, in a hand) is not", () => {
    expect(detectLieDown(steady(10, 1000, { pitch: 2, roll: 3 }), 1000, opts)).toMatchObject({ kind: "up" });
    expect(detectLieDown(steady(10, 1000, { pitch: -30 }), 1000, opts)).toMatchObject({ kind: "up" });
  });

  it("gun resting flat on the table (still), either face up, is lying down", () => {
    expect(detectLieDown(steady(10, 1000, { pitch: 1, roll: 2, still: true }), 1000, opts)).toMatchObject({
      kind: "down",
      how: "flat",
    });
    expect(detectLieDown(steady(10, 1000, { pitch: -3, roll: -178, still: true }), 1000, opts)).toMatchObject({
      kind: "down",
      how: "flat",
    });
  });

  it("still but on its side, or tilted up, is not flat", () => {
    expect(detectLieDown(steady(10, 1000, { roll: 90, still: true }), 1000, opts).kind).toBe("up");
    expect(detectLieDown(steady(10, 1000, { pitch: 40, still: true }), 1000, opts).kind).toBe("up");
  });

  it("only the state at the snapshot counts: lowering it afterwards does not", () => {
    const win = fill(new AimWindow(), { from: 0, to: 1000, yaw: 0, pitch: 5 });
    fill(win, { from: 1020, to: 1500, yaw: 0, pitch: -80 });
    expect(detectLieDown(win, 1000, opts).kind).toBe("up");
    expect(detectLieDown(win, 1500, opts)).toMatchObject({ kind: "down", how: "lowered" });
  });

  it("no samples or a silent gun: unknown, the caller decides", () => {
    expect(detectLieDown(new AimWindow(), 1000, opts)).toEqual({ kind: "unknown", reason: "no-samples" });
    expect(detectLieDown(steady(0, 400, { pitch: -80 }), 1000, opts)).toEqual({ kind: "unknown", reason: "stale" });
  });
});
