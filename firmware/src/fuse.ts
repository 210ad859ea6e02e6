// The fusion behind the drivers that read a raw accelerometer and gyro (MPU-6050, the Puck's LSM6DS3): gyro bias
// (all three axes) as the mean of a window of samples taken while the gun is still — what keeps the yaw from
// drifting (0.05 °/s uncorrected = 3° a minute) — then one Mahony step. Readings in the gun's frame (mount.ts done).
// Module state, no allocation per sample: a gun has one IMU.
import { level, mahony } from "./mahony";
import { MV } from "./mount";

/** samples per bias window */
var WIN = 64;
/** still: |gyro − bias| below 2 °/s (squared) and |accel| within 5% of 1 g */
var TH = 4;
var K = Math.PI / 180;
var bx = 0;
var by = 0;
var bz = 0;
var sx = 0;
var sy = 0;
var sz = 0;
var sn = 0;
/** samples left to take as bias whatever the motion (`still` command) */
var force = 0;
/** the mounting the filter started in (−1: not started, the first sample levels it) */
var mv = -1;
/** consecutive still samples */
export var stillRun = 0;

/** One sample: accel in g, gyro in °/s, both in the gun's frame; dt in s. */
export function fuse(ax: number, ay: number, az: number, gx: number, gy: number, gz: number, dt: number): void {
  var wx = gx - bx;
  var wy = gy - by;
  var wz = gz - bz;
  var an = Math.sqrt(ax * ax + ay * ay + az * az);
  // the first sample, or a new mounting (`mount` command): the attitude was in the old frame, start level with gravity
  if (mv !== (HAS_MOUNT ? MV : 0)) {
    mv = HAS_MOUNT ? MV : 0;
    level(ax, ay, az);
  }
  if (force || (wx * wx + wy * wy + wz * wz < TH && an > 0.95 && an < 1.05)) {
    // skip the first samples of a still run: the tail of a motion is not bias
    if (++stillRun > 16 || force) {
      sx += gx;
      sy += gy;
      sz += gz;
      if (++sn === WIN) {
        bx = sx / WIN;
        by = sy / WIN;
        bz = sz / WIN;
        sx = sy = sz = sn = 0;
        force = 0;
      }
    }
  } else {
    stillRun = sx = sy = sz = sn = 0;
  }
  mahony(wx * K, wy * K, wz * K, ax, ay, az, dt, an > 0.8 && an < 1.2 ? 1 : 0);
}

/** The hub says the gun lies still now: the next window is gyro bias, whatever the motion. */
export function biasNow(): void {
  force = WIN;
  sx = sy = sz = sn = 0;
}
