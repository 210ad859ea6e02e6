// Test helpers: windows filled with a steady (or scripted) aim.
import { AimWindow } from "../../hub/src/aim/index.js";

export interface Fill {
  from: number;
  to: number;
  hz?: number;
  yaw: number | ((t: number) => number);
  pitch?: number;
  roll?: number;
  still?: boolean;
}

export function fill(win: AimWindow, f: Fill): AimWindow {
  const step = 1000 / (f.hz ?? 50);
  for (let t = f.from; t <= f.to + 1e-9; t += step) {
    const yaw = typeof f.yaw === "number" ? f.yaw : f.yaw(t);
    win.push(Math.round(t), yaw, f.pitch ?? 0, f.roll ?? 0, f.still ?? false);
  }
  return win;
}

/** A window of steady aim at raw yaw `yaw` from t = 0 to `to` ms. */
export function steady(yaw: number, to = 1000, extra: Partial<Fill> = {}): AimWindow {
  return fill(new AimWindow(), { from: 0, to, yaw, ...extra });
}
