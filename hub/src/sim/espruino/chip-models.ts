// The chips' models (firmware/espruino/chips), every export by its name, as the real interpreter's board has them on
// `__chips`: a board attaches the model its IMU kind names (hardware/imus) without knowing the chip.
import { readdirSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { MpuFilters } from "../../../../firmware/espruino/chips/mpu6050.mjs";
import type { ImuNoise, Sense } from "../../../../firmware/espruino/chips/sensor.mjs";
import { chipsDir } from "./interpreter.js";

/** An IMU on I2C: a device at its address whose data read calls its `sample()`. */
export interface I2cImu {
  writeTo(addr: number, data: number | number[]): void;
  readFrom(addr: number, n: number): Uint8Array;
  /** its configuration written (a part with filters says them) */
  onConfig?: (m: { filters(): MpuFilters }) => void;
}
export type I2cImuModel = new (
  addr: number,
  whoAmI: number,
  axes: readonly number[],
  noise: ImuNoise,
  sense: Sense,
) => I2cImu;

/** An IMU on a serial port: its frames, in the pieces a UART's reads cut them into, every `period` ms. */
export interface UartImu {
  period: number;
  pieces(yaw: number, pitch: number, roll: number): string[];
}
export type UartImuModel = new (axes: readonly number[], noise: ImuNoise) => UartImu;

const files = readdirSync(chipsDir)
  .filter((f) => f.endsWith(".mjs"))
  .sort();
/** export name → the export, over every chip's module */
export const CHIP_MODELS: Readonly<Record<string, unknown>> = Object.assign(
  {},
  ...(await Promise.all(files.map((f) => import(pathToFileURL(chipsDir + f).href)))),
);
