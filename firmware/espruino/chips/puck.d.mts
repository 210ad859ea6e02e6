import type { Lsm6ds3 } from "./lsm6ds3.mjs";

export const PUCK_PINS: Readonly<Record<"LED1" | "LED2" | "LED3" | "BTN1" | "BTN", number>>;
export const PUCK_RATES: readonly number[];
export function coinCellPercent(v: number): number;
export function puckObject<T>(
  imu: Lsm6ds3,
  every: (fn: () => void, ms: number) => T,
  stop: (timer: T) => void,
  percent: () => number,
): Record<string, unknown>;
