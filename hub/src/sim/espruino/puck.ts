// Puck.js v2 on the virtual board (vm-gun.ts): the Puck object of Espruino's Puck.js build as the firmware sees it
// (libs/puckjs/jswrap_puck.c) — accelOn(hz) at 12.5-208 Hz sets the LSM6DS3TR-C to ±4 g and ±250 °/s and emits an
// `accel` event per sample, `{acc:{x,y,z}, gyro:{x,y,z}}` in raw int16 counts along the chip's axes at the ranges its
// registers say (accelWr changes them) — and the coin cell as E.getBattery counts it. The real interpreter's board
// (firmware/espruino/board.js) has the same.
import type { VirtualClock } from "./clock.js";
import { type ImuInputs, toChip } from "./imu.js";
import { bodyGravity, bodyRate } from "./motion.js";

/** the rates Puck.accelOn takes with the gyro on, Hz */
export const PUCK_RATES = [12.5, 26, 52, 104, 208];

const int16 = (v: number) => Math.max(-32768, Math.min(32767, Math.round(v)));

export interface VmPuck {
  Puck: Record<string, unknown>;
  /** E.getBattery(): percent of a CR2032, 2.2-2.8 V */
  getBattery(): number;
}

export function vmPuck(inputs: ImuInputs, seconds: () => number, clock: VirtualClock, volts: () => number): VmPuck {
  const regs = new Uint8Array(128);
  // WHO_AM_I of the LSM6DS3TR-C
  regs[0x0f] = 0x6a;
  const handlers: ((e: unknown) => void)[] = [];
  let timer: unknown;
  const sample = () => {
    const t = seconds();
    const g = toChip(bodyGravity(inputs.pose(t)), inputs.axes);
    const w = toChip(bodyRate(inputs.motion, t), inputs.axes);
    const aLsb = [16384, 2048, 8192, 4096][(regs[0x10] >> 2) & 3]!;
    const gLsb = 1000 / (regs[0x11] & 2 ? 4.375 : [8.75, 17.5, 35, 70][(regs[0x11] >> 2) & 3]!);
    const a = g.map((v) => int16((v + inputs.accelNoise * inputs.gauss()) * aLsb));
    const r = w.map((v, i) => int16((v + inputs.gyroBias[i]! + inputs.gyroNoise * inputs.gauss()) * gLsb));
    return { acc: { x: a[0], y: a[1], z: a[2] }, gyro: { x: r[0], y: r[1], z: r[2] } };
  };
  const Puck = {
    accelOn(hz?: number) {
      const i = PUCK_RATES.indexOf(hz ?? 12.5);
      if (i < 0) throw new Error(`Invalid sample rate ${hz} - must be 1660, 833, 416, 208, 104, 52, 26, 12.5, 1.6 Hz`);
      Puck.accelOff();
      regs[0x10] = ((i + 1) << 4) | 0x0b;
      regs[0x11] = (i + 1) << 4;
      timer = clock.set(
        () => {
          const e = sample();
          for (const fn of handlers) fn(e);
        },
        1000 / PUCK_RATES[i]!,
        true,
      );
    },
    accelOff() {
      if (timer !== undefined) clock.clear(timer);
      timer = undefined;
    },
    accelWr(reg: number, v: number) {
      regs[reg & 0x7f] = v & 255;
    },
    accelRd: (reg: number) => regs[reg & 0x7f],
    accel: () => sample(),
    on(ev: string, fn: (e: unknown) => void) {
      if (ev === "accel") handlers.push(fn);
    },
    getBatteryPercentage: () => getBattery(),
  };
  const getBattery = () => Math.max(0, Math.min(100, Math.trunc(((volts() - 2.2) * 100) / 0.6)));
  return { Puck, getBattery };
}
