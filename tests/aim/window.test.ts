import { describe, expect, it } from "vitest";
import { AimWindow } from "../../hub/src/aim/index.js";

describe("aim window", () => {
  it("keeps the newest samples once full", () => {
    const w = new AimWindow(4);
    for (let i = 1; i <= 10; i++) w.push(i * 10, i, 0, 0, false);
    expect(w.size).toBe(4);
    expect([0, 1, 2, 3].map((k) => w.yaw(k))).toEqual([10, 9, 8, 7]);
    expect(w.newestAtOrBefore(85)).toBe(2);
    expect(w.newestAtOrBefore(5)).toBe(-1);
  });

  it("drops repeats and out-of-order samples, restarts after a reboot", () => {
    const w = new AimWindow(8);
    expect(w.push(100, 1, 0, 0, false)).toBe(true);
    expect(w.push(100, 2, 0, 0, false)).toBe(false);
    expect(w.push(90, 2, 0, 0, false)).toBe(false);
    expect(w.push(Number.NaN, 2, 0, 0, false)).toBe(false);
    w.push(60_000, 3, 0, 0, true);
    expect(w.push(20, 4, 0, 0, false)).toBe(true); // clock restarted
    expect(w.size).toBe(1);
    expect(w.yaw(0)).toBe(4);
  });
});
