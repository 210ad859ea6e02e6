import type { ImuNoise, Sense } from "./sensor.mjs";

export interface Xyz {
  x: number;
  y: number;
  z: number;
}
export class Lsm6ds3 {
  constructor(axes: readonly number[], noise: ImuNoise, sense: Sense);
  readonly regs: Uint8Array;
  sample(): { acc: Xyz; gyro: Xyz };
}
