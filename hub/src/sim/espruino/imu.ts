// What the IMU models read: the motion, and the noise the simulated chip adds. The chips themselves (an MPU-6050
// answering over I2C, a BNO085 sending UART-RVC frames, a Puck's LSM6DS3TR-C) are firmware/espruino/chips, the models
// both boards run; the MPU's and the Puck's gyro add bias and noise the firmware must cope with.
import { MOUNT_DEFAULT, mountAxes } from "@cng/protocol";
import { gauss } from "../../../../firmware/espruino/chips/sensor.mjs";
import { type Motion, type Pose, still } from "./motion.js";

export { toChip } from "../../../../firmware/espruino/chips/frame.mjs";

export interface ImuModelOptions {
  /** where the gun points over time; default: level, yaw 0 */
  motion?: Motion;
  /** gyro bias per axis, °/s (MPU-6050) */
  gyroBias?: [number, number, number];
  /** gyro white noise σ, °/s per sample */
  gyroNoise?: number;
  /** accelerometer noise σ, g */
  accelNoise?: number;
  /** white noise σ on the yaw a BNO085 reports, degrees per frame (the bench's per-sample σ, on the real firmware) */
  yawNoise?: number;
  /** seed of the noise */
  seed?: number;
  /**
   * how the chip sits in the gun, as gun.json names it (shared/protocol/src/mount.ts): the chip axis along the
   * barrel, then the chip axis up; default "+x+z". The chip then reads the gun's motion turned by it.
   */
  mount?: string;
  /**
   * what an I2C IMU's WHO_AM_I register answers (default: its kind's own part, hardware/imus: 0x68 for an MPU-6050);
   * GY-521 boards sold today often carry an MPU-6500 (0x70) or a clone (0x98) with the same registers otherwise
   */
  whoAmI?: number;
}

/** The axes of a mounting as gun.json names it (`ImuModelOptions.mount`, default "+x+z"): shared/protocol's mountAxes. */
export function mountAxesOf(mount: string | undefined): number[] {
  const a = mountAxes(mount ?? MOUNT_DEFAULT);
  if (!a) throw new Error(`imu.mount ${JSON.stringify(mount)}: the chip axis forward then up, e.g. "+x-z"`);
  return a;
}

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The motion and noise an IMU model reads; change `motion` any time (e.g. from a bot). */
export class ImuInputs {
  motion: Motion;
  gyroBias: [number, number, number];
  gyroNoise: number;
  accelNoise: number;
  yawNoise: number;
  /** the mounting (`ImuModelOptions.mount`) and its axes */
  readonly mount: string;
  readonly axes: number[];
  /** an I2C IMU model's WHO_AM_I (`ImuModelOptions.whoAmI`); undefined: its kind's own part's */
  readonly whoAmI: number | undefined;
  private readonly rnd: () => number;

  constructor(o: ImuModelOptions = {}) {
    this.motion = o.motion ?? still({ yaw: 0, pitch: 0, roll: 0 });
    this.gyroBias = o.gyroBias ?? [0, 0, 0];
    this.gyroNoise = o.gyroNoise ?? 0;
    this.accelNoise = o.accelNoise ?? 0;
    this.yawNoise = o.yawNoise ?? 0;
    this.rnd = rng(o.seed ?? 1);
    this.mount = o.mount ?? MOUNT_DEFAULT;
    this.whoAmI = o.whoAmI;
    this.axes = mountAxesOf(o.mount);
  }

  /** standard normal */
  gauss(): number {
    return gauss(this.rnd);
  }

  pose(t: number): Pose {
    return this.motion(t);
  }
}
