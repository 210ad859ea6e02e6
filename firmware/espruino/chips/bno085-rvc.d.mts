import type { ImuNoise } from "./sensor.mjs";

export const RVC_MS: number;
export class Bno085Rvc {
  constructor(axes: readonly number[], noise: ImuNoise);
  /** ms between its frames */
  period: number;
  frame(yaw: number, pitch: number, roll: number): string;
  pieces(yaw: number, pitch: number, roll: number): string[];
}
