// What a LiPo's volts mean (shared/protocol/src/battery.ts): the curve, its inverse, a calibration, the hub's reading.
import { describe, expect, it } from "vitest";
import {
  BAT_CAL_K,
  batFactor,
  LIPO_FULL_V,
  LIPO_MV,
  lipoPercent,
  lipoVolts,
  OTA_LOW_BATTERY,
  OTA_LOW_VOLTS,
  withCharge,
} from "../../shared/protocol/src/index.js";

describe("the LiPo curve", () => {
  it("lands on its points, between them in a straight line, and clamps", () => {
    for (const [i, mv] of LIPO_MV.entries()) expect(lipoPercent(mv / 1000), `${mv} mV`).toBe(100 - 10 * i);
    expect(lipoPercent(3.76)).toBe(55);
    expect(lipoPercent(4.3)).toBe(100);
    expect(lipoPercent(2.9)).toBe(0);
    expect(lipoPercent(Number.NaN)).toBe(0);
  });

  it("is not a straight line from 3.3 to 4.2 V: mid-charge sits near 3.7-3.8 V", () => {
    expect(lipoPercent(3.75)).toBeGreaterThan(40);
    expect(lipoPercent(3.75)).toBeLessThan(60);
    const line = (v: number) => Math.round(((v - 3.3) / 0.9) * 100);
    expect(Math.abs(lipoPercent(3.75) - line(3.75))).toBeGreaterThanOrEqual(3);
    expect(lipoPercent(3.4) - line(3.4)).toBeGreaterThan(5);
  });

  it("lipoVolts is its inverse; an update needs the curve's 30 %", () => {
    for (let p = 0; p <= 100; p += 5) expect(Math.abs(lipoPercent(lipoVolts(p)) - p), `${p} %`).toBeLessThanOrEqual(1);
    expect(OTA_LOW_VOLTS).toBe(lipoVolts(OTA_LOW_BATTERY));
    expect(OTA_LOW_VOLTS).toBe(3.53);
    expect(LIPO_FULL_V).toBe(4.19);
  });
});

describe("a calibration", () => {
  it("scales the reading to the true volts, on top of the factor already in it", () => {
    expect(batFactor(4.0, 3.8, 1)).toBe(1.0526);
    // read 3.8 with 1.05 in it already: the raw reading was 3.619
    expect(batFactor(4.0, 3.8, 1.05)).toBe(1.1053);
  });

  it("refuses what a wrong divider or a wrong figure would give, and a gun that reads nothing", () => {
    expect(batFactor(4.0, 2.0, 1)).toBeUndefined();
    expect(batFactor(4.0, 3.0, 1.2)).toBeUndefined();
    expect(batFactor(5.0, 4.9, 1)).toBeUndefined();
    expect(batFactor(4.0, undefined, undefined)).toBeUndefined();
    expect(batFactor(4.0, 0, 1)).toBeUndefined();
    expect(BAT_CAL_K).toEqual([0.8, 1.25]);
  });
});

describe("a gun's info as the hub keeps it", () => {
  const base = { v: 1 as const, fw: "0.1.0", b: "esp32-mpu6050", i: "mpu6050" as const, up: 3 };
  it("a LiPo gun's volts give its charge; a Puck's own percent stays; no figure: not measured", () => {
    expect(withCharge({ ...base, bv: 3.72, bk: 1 })).toEqual({ ...base, bv: 3.72, bk: 1, bat: 50 });
    expect(withCharge({ ...base, b: "puckjs", i: "lsm6ds3", bat: 91 })).toEqual({
      ...base,
      b: "puckjs",
      i: "lsm6ds3",
      bat: 91,
    });
    expect(withCharge(base)).toEqual(base);
    expect(withCharge(base).bat).toBeUndefined();
  });
});
