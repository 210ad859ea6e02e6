// Register- and frame-level IMU models: an MPU-6050 answering over I2C, a BNO085 sending UART-RVC
// frames. Both read a motion model; the MPU adds gyro bias and noise the firmware must cope with.
import { MOUNT_DEFAULT, mountAxes } from "@cng/protocol";
import { angleDiff, bodyGravity, bodyRate, type Motion, type Pose, rotation, still } from "./motion.js";

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
   * what the MPU-6050's WHO_AM_I register (0x75) answers: 0x68 (an MPU-6050, the default); GY-521 boards sold today
   * often carry an MPU-6500 (0x70) or a clone (0x98) with the same registers otherwise
   */
  whoAmI?: number;
}

/** A vector in the gun's body frame → the same vector in the chip's frame, for mounting axes `m` (mountAxes). */
export function toChip(v: readonly number[], m: readonly number[]): [number, number, number] {
  const c: [number, number, number] = [0, 0, 0];
  for (let k = 0; k < 3; k++) c[m[2 * k]!] = m[2 * k + 1]! * v[k]!;
  return c;
}

/** The chip's own yaw, pitch, roll (as a BNO085 reports them) when the gun is at pose `p`. */
export function chipPose(p: Pose, m: readonly number[]): Pose {
  const g = rotation(p);
  // the chip's axis m[2k] is the gun's axis k times its sign: columns of world-from-chip
  const c = new Array<number>(9).fill(0);
  for (let k = 0; k < 3; k++) for (let r = 0; r < 3; r++) c[r * 3 + m[2 * k]!] = m[2 * k + 1]! * g[r * 3 + k]!;
  const D = 180 / Math.PI;
  // the chip's pitch at ±90° (its x axis upright): yaw and roll are one turn there, told as yaw with roll 0
  const lock = Math.abs(c[6]!) > 0.999999;
  return {
    yaw: (lock ? Math.atan2(-c[1]!, c[4]!) : Math.atan2(c[3]!, c[0]!)) * D,
    pitch: Math.asin(Math.max(-1, Math.min(1, c[6]!))) * D,
    roll: lock ? 0 : Math.atan2(c[7]!, c[8]!) * D,
  };
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
  /** the MPU-6050 model's WHO_AM_I (`ImuModelOptions.whoAmI`) */
  readonly whoAmI: number;
  private readonly rnd: () => number;

  constructor(o: ImuModelOptions = {}) {
    this.motion = o.motion ?? still({ yaw: 0, pitch: 0, roll: 0 });
    this.gyroBias = o.gyroBias ?? [0, 0, 0];
    this.gyroNoise = o.gyroNoise ?? 0;
    this.accelNoise = o.accelNoise ?? 0;
    this.yawNoise = o.yawNoise ?? 0;
    this.rnd = rng(o.seed ?? 1);
    this.mount = o.mount ?? MOUNT_DEFAULT;
    this.whoAmI = o.whoAmI ?? 0x68;
    const a = mountAxes(this.mount);
    if (!a) throw new Error(`imu.mount ${JSON.stringify(o.mount)}: the chip axis forward then up, e.g. "+x-z"`);
    this.axes = a;
  }

  /** standard normal */
  gauss(): number {
    const u = this.rnd() || 1e-12;
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.rnd());
  }

  pose(t: number): Pose {
    return this.motion(t);
  }
}

function int16(v: number): number {
  return Math.max(-32768, Math.min(32767, Math.round(v)));
}

/**
 * MPU-6050 at I2C address 0x68: the registers the firmware touches, sampled from the motion at read time; WHO_AM_I
 * is the chip's the inputs name (an MPU-6500 or a clone answers another id from the same register map).
 */
export class Mpu6050Model {
  readonly addr = 0x68;
  readonly regs = new Uint8Array(128);
  private ptr = 0;
  reads = 0;

  constructor(
    readonly inputs: ImuInputs,
    private readonly seconds: () => number,
  ) {
    this.regs[0x75] = inputs.whoAmI;
    this.regs[0x6b] = 0x40; // asleep after power-on
  }

  write(data: number[]): void {
    if (!data.length) return;
    this.ptr = data[0] & 0x7f;
    for (let i = 1; i < data.length; i++) this.regs[(this.ptr + i - 1) & 0x7f] = data[i] & 255;
  }

  read(n: number): Uint8Array {
    if (this.ptr === 0x3b) this.sample();
    this.reads++;
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.regs[(this.ptr + i) & 0x7f];
    return out;
  }

  private put(reg: number, v: number): void {
    const x = int16(v) & 0xffff;
    this.regs[reg] = x >> 8;
    this.regs[reg + 1] = x & 255;
  }

  private sample(): void {
    const asleep = (this.regs[0x6b] & 0x40) !== 0;
    const t = this.seconds();
    const g = toChip(bodyGravity(this.inputs.pose(t)), this.inputs.axes);
    const w = toChip(bodyRate(this.inputs.motion, t), this.inputs.axes);
    const aLsb = 16384 / (1 << ((this.regs[0x1c] >> 3) & 3));
    const gLsb = 131 / (1 << ((this.regs[0x1b] >> 3) & 3));
    const inp = this.inputs;
    for (let i = 0; i < 3; i++) {
      this.put(0x3b + 2 * i, asleep ? 0 : (g[i] + inp.accelNoise * inp.gauss()) * aLsb);
      this.put(0x43 + 2 * i, asleep ? 0 : (w[i] + inp.gyroBias[i] + inp.gyroNoise * inp.gauss()) * gLsb);
    }
    this.put(0x41, 0);
  }
}

/** One BNO085 UART-RVC frame (19 bytes) as a latin1 string. */
export function rvcFrame(index: number, p: Pose, acc: [number, number, number]): string {
  const b = new Uint8Array(19);
  b[0] = b[1] = 0xaa;
  b[2] = index & 255;
  const vals = [angleDiff(p.yaw, 0) * 100, p.pitch * 100, angleDiff(p.roll, 0) * 100, ...acc.map((a) => a * 1000)];
  vals.forEach((v, i) => {
    const x = int16(v) & 0xffff;
    b[3 + 2 * i] = x & 255;
    b[4 + 2 * i] = x >> 8;
  });
  let sum = 0;
  for (let i = 2; i < 18; i++) sum += b[i];
  b[18] = sum & 255;
  return Buffer.from(b).toString("latin1");
}
