// How the IMU chip sits in the gun (boards built with "mount" in `has`): one of the 24 axis-aligned orientations,
// named by the chip axis along the barrel, then the chip axis up ("+x+z" = as the body frame, the default; see
// shared/protocol/src/mount.ts). The drivers read through `MA` into the gun's frame (x along the barrel, y left,
// z up), so the Mahony filter, pitch (lie-down) and roll never see the mounting. `grav` reports gravity in the
// chip's own frame (what the hub needs to work the mounting out); `mount` stores a new one in gun.json.
import { encImu, MOUNT_DEFAULT, mountAxes } from "@cng/protocol";
import { keepCfg } from "./keep";

/** gun axis k (x, y, z) = MA[2k+1] × chip axis MA[2k]; changed in place, never replaced */
export var MA = [0, 1, 1, 1, 2, 1];
var mn = MOUNT_DEFAULT;
/** counts mounting changes: a driver whose filter holds state in the gun's frame starts it again (mpu6050.ts) */
export var MV = 0;
/** samples a `grav` averages (0.5 s at 100 Hz) */
var GN = 50;
/** samples left, the sums of x, y, z and of the squared norm, the command's n, where the answer goes */
var gk = 0;
var gx = 0;
var gy = 0;
var gz = 0;
var gq = 0;
var gn = 0;
var gf: (s: string) => void;
/** the chip-to-world rotation of the last BNO085 frame, row-major (kept: no allocation per frame) */
var R = [0, 0, 0, 0, 0, 0, 0, 0, 0];

/** Uses mounting `m` from now on; false (and nothing changes) when it names none of the 24. */
export function setMount(m: unknown): boolean {
  var a = mountAxes(m);
  var i: number;
  if (!a) return false;
  for (i = 0; i < 6; i++) MA[i] = a[i];
  mn = m as string;
  MV++;
  return true;
}

/** One raw accelerometer sample in the chip's frame (`u` counts per g); counts towards a `grav` answer. */
export function graw(x: number, y: number, z: number, u: number): void {
  if (!gk) return;
  x /= u;
  y /= u;
  z /= u;
  gx += x;
  gy += y;
  gz += z;
  gq += x * x + y * y + z * z;
  if (--gk) return;
  x = gx / GN;
  y = gy / GN;
  z = gz / GN;
  gf(encImu(gn, mn, [x, y, z], Math.sqrt(Math.max(0, gq / GN - x * x - y * y - z * z))));
}

/** The BNO085's yaw, pitch, roll (degrees, of the chip) → the gun's, into `o`. */
export function turn(y: number, p: number, r: number, o: { y: number; p: number; r: number }): void {
  var K = Math.PI / 180;
  var cy = Math.cos(y * K);
  var sy = Math.sin(y * K);
  var cp = Math.cos(p * K);
  var sp = Math.sin(p * K);
  var cr = Math.cos(r * K);
  var sr = Math.sin(r * K);
  // Rz(yaw) · Ry(−pitch) · Rx(roll): columns are the chip's axes in the world (z up)
  R[0] = cy * cp;
  R[1] = -cy * sp * sr - sy * cr;
  R[2] = -cy * sp * cr + sy * sr;
  R[3] = sy * cp;
  R[4] = -sy * sp * sr + cy * cr;
  R[5] = -sy * sp * cr - cy * sr;
  R[6] = sp;
  R[7] = cp * sr;
  R[8] = cp * cr;
  // the gun's axis k is the chip's column MA[2k], times MA[2k+1]
  var a = MA[0];
  var s = MA[1];
  o.y = Math.atan2(s * R[3 + a], s * R[a]) / K;
  o.p = Math.asin(Math.max(-1, Math.min(1, s * R[6 + a]))) / K;
  o.r = Math.atan2(MA[3] * R[6 + MA[2]], MA[5] * R[6 + MA[4]]) / K;
}

/** The `grav` and `mount` commands; the answer goes to `send` (leaf `imu`); an error text when refused. */
export function mcmd(m: { n: number; c: string; m?: string }, send: (s: string) => void): string | undefined {
  if (m.c === "grav") {
    gx = gy = gz = gq = 0;
    gn = m.n;
    gf = send;
    gk = GN;
    return undefined;
  }
  if (!setMount(m.m)) return "mount";
  keepCfg("mount", m.m);
  send(encImu(m.n, mn, undefined, 0));
  return undefined;
}
