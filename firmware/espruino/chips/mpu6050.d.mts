import type { ImuNoise, Sense } from "./sensor.mjs";

export const MPU_GYRO_LSB: readonly number[];
export class Mpu6050 {
  constructor(addr: number | undefined, who: number, axes: readonly number[], noise: ImuNoise, sense: Sense);
  readonly regs: Uint8Array;
  writeTo(addr: number, data: number | ArrayLike<number>): void;
  readFrom(addr: number, n: number): Uint8Array;
}
