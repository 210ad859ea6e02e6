// Seat colours a colour-blind player can tell apart: each palette simulated for protanopia, deuteranopia and
// tritanopia (Machado, Oliveira & Fernandes 2009, full severity, on linear RGB), then compared in CIELAB. The old
// red/green/blue… palette fails where the players do (red next to orange for a deuteranope); the seat palette
// keeps every pair at least 12 ΔE apart under all three.
import { expect, it } from "vitest";
import { SEAT_COLOURS } from "../../hub/src/feedback/index.js";

const SIM: Record<string, number[][]> = {
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
  "normal vision": [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
};

const linear = (c: number) => {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
};

/** CIELAB (D65) of an sRGB colour seen through `m`. */
function lab(rgb: number, m: number[][]): [number, number, number] {
  const c = [(rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255].map(linear);
  const [r, g, b] = m.map((row) => Math.min(1, Math.max(0, row[0]! * c[0]! + row[1]! * c[1]! + row[2]! * c[2]!)));
  const x = (0.4124 * r! + 0.3576 * g! + 0.1805 * b!) / 0.95047;
  const y = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  const z = (0.0193 * r! + 0.1192 * g! + 0.9505 * b!) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** The closest two colours of a palette for each kind of sight, ΔE (CIE76). */
function closest(palette: readonly number[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [kind, m] of Object.entries(SIM)) {
    const l = palette.map((c) => lab(c, m));
    let min = Number.POSITIVE_INFINITY;
    for (let i = 0; i < l.length; i++)
      for (let j = i + 1; j < l.length; j++) min = Math.min(min, Math.hypot(...l[i]!.map((v, k) => v - l[j]![k]!)));
    out[kind] = Math.round(min * 10) / 10;
  }
  return out;
}

const MIN_DELTA_E = 12;

it("the seat colours stay apart for protanopes, deuteranopes and tritanopes", () => {
  const d = closest(SEAT_COLOURS);
  for (const [kind, e] of Object.entries(d)) expect(e, kind).toBeGreaterThanOrEqual(MIN_DELTA_E);
});

it("the old palette did not: the simulation tells the two apart", () => {
  const old = [0xff0000, 0x00ff00, 0x0000ff, 0xffd000, 0x00ffff, 0xff00ff, 0xff5000, 0xffffff];
  const d = closest(old);
  expect(d.deuteranopia).toBeLessThan(MIN_DELTA_E);
  expect(d.protanopia).toBeLessThan(MIN_DELTA_E);
  expect(d["normal vision"]).toBeGreaterThanOrEqual(MIN_DELTA_E);
});
