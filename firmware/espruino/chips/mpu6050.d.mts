import type { ImuNoise, Sense } from "./sensor.mjs";

export const MPU_GYRO_LSB: readonly number[];
export interface MpuFilters {
  /** the accelerometer's low-pass 3 dB bandwidth, Hz */
  accel: number;
  /** the gyro's */
  gyro: number;
}
type FilterTable = { gyro: readonly number[]; accel: readonly number[]; off?: number };
export const MPU_DLPF: { mpu6050: FilterTable; mpu6500: FilterTable; icm20689: FilterTable };
export function mpuFamily(who: number): FilterTable;
export class Mpu6050 {
  constructor(addr: number | undefined, who: number, axes: readonly number[], noise: ImuNoise, sense: Sense);
  readonly regs: Uint8Array;
  onConfig: ((m: Mpu6050) => void) | undefined;
  filters(): MpuFilters;
  writeTo(addr: number, data: number | ArrayLike<number>): void;
  readFrom(addr: number, n: number): Uint8Array;
}
