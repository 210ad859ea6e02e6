/** The IMU model's inputs a chip model reads, live (hub/src/sim/espruino/imu.ts ImuInputs has them). */
export interface ImuNoise {
  gyroBias: readonly number[];
  gyroNoise: number;
  accelNoise: number;
  yawNoise: number;
  gauss(): number;
}
/** What a chip senses now: [gravity's reaction in g, body rates in °/s], along the gun's axes. */
export type Sense = () => [readonly number[], readonly number[]];
export function int16(v: number): number;
export function gauss(rnd: () => number): number;
export function accelCount(g: number, noise: ImuNoise, lsb: number): number;
export function gyroCount(w: number, k: number, noise: ImuNoise, lsb: number): number;
