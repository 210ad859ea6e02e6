// Mahony complementary filter on a quaternion, without magnetometer.
// Body frame: x along the barrel, y left, z up; the accelerometer reads +1 g on z when level.
// Yaw is not observable from gravity, so its drift is held down by the still-time gyro bias
// estimate in the driver. Module state, no allocation per sample.
import { type Orient, RAD } from "./orient";

var q0 = 1;
var q1 = 0;
var q2 = 0;
var q3 = 0;

/** Start level with gravity: roll and pitch from the accelerometer, yaw 0. */
export function level(ax: number, ay: number, az: number): void {
  var r = Math.atan2(ay, az) / 2;
  var p = Math.atan2(-ax, Math.sqrt(ay * ay + az * az)) / 2;
  q0 = Math.cos(r) * Math.cos(p);
  q1 = Math.sin(r) * Math.cos(p);
  q2 = Math.cos(r) * Math.sin(p);
  q3 = -Math.sin(r) * Math.sin(p);
}

/** One step: gyro rad/s, accel in g (any scale), dt s, kp the gain towards gravity (0 = gyro only). */
export function mahony(gx: number, gy: number, gz: number, ax: number, ay: number, az: number, dt: number, kp: number) {
  var n = Math.sqrt(ax * ax + ay * ay + az * az);
  var vx: number;
  var vy: number;
  var vz: number;
  if (kp > 0 && n > 0) {
    ax /= n;
    ay /= n;
    az /= n;
    // gravity as the quaternion sees it, crossed with the measured one = the tilt error
    vx = 2 * (q1 * q3 - q0 * q2);
    vy = 2 * (q0 * q1 + q2 * q3);
    vz = q0 * q0 - q1 * q1 - q2 * q2 + q3 * q3;
    gx += kp * (ay * vz - az * vy);
    gy += kp * (az * vx - ax * vz);
    gz += kp * (ax * vy - ay * vx);
  }
  dt *= 0.5;
  gx *= dt;
  gy *= dt;
  gz *= dt;
  var a = q0;
  var b = q1;
  var c = q2;
  q0 += -b * gx - c * gy - q3 * gz;
  q1 += a * gx + c * gz - q3 * gy;
  q2 += a * gy - b * gz + q3 * gx;
  q3 += a * gz + b * gy - c * gx;
  n = 1 / Math.sqrt(q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3);
  q0 *= n;
  q1 *= n;
  q2 *= n;
  q3 *= n;
}

/** Yaw, pitch (nose up positive), roll in degrees. */
export function euler(o: Orient): void {
  o.r = Math.atan2(2 * (q0 * q1 + q2 * q3), 1 - 2 * (q1 * q1 + q2 * q2)) * RAD;
  var s = 2 * (q1 * q3 - q0 * q2);
  o.p = Math.asin(Math.max(-1, Math.min(1, s))) * RAD;
  o.y = Math.atan2(2 * (q0 * q3 + q1 * q2), 1 - 2 * (q2 * q2 + q3 * q3)) * RAD;
}
