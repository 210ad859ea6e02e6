// Puck.js v2 on the virtual board (vm-gun.ts): the Puck object of Espruino's Puck.js build over its LSM6DS3TR-C, and
// the coin cell as E.getBattery counts it — the models the real interpreter's board runs too
// (firmware/espruino/chips/puck.mjs, lsm6ds3.mjs), here on the vm's clock.
import { Lsm6ds3 } from "../../../../firmware/espruino/chips/lsm6ds3.mjs";
import { coinCellPercent, puckObject } from "../../../../firmware/espruino/chips/puck.mjs";
import type { Sense } from "../../../../firmware/espruino/chips/sensor.mjs";
import type { VirtualClock } from "./clock.js";
import type { ImuInputs } from "./imu.js";

export { PUCK_PINS, PUCK_RATES } from "../../../../firmware/espruino/chips/puck.mjs";

export interface VmPuck {
  Puck: Record<string, unknown>;
  /** E.getBattery(): percent of a CR2032, 2.2-2.8 V */
  getBattery(): number;
}

export function vmPuck(inputs: ImuInputs, sense: Sense, clock: VirtualClock, volts: () => number): VmPuck {
  const getBattery = () => coinCellPercent(volts());
  const imu = new Lsm6ds3(inputs.axes, inputs, sense);
  const Puck = puckObject(
    imu,
    (fn, ms) => clock.set(fn, ms, true),
    (id) => clock.clear(id),
    getBattery,
  );
  return { Puck, getBattery };
}
