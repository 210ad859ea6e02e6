// The Puck.js v2's LSM6DS3TR-C accelerometer + gyro, register level, for both board models (ES5: the real
// interpreter's board is given this source). WHO_AM_I (0x0f) answers 0x6a; CTRL1_XL (0x10) bits 3:2 set the
// accelerometer's range, CTRL2_G (0x11) bits 3:1 the gyro's (LSM6DS3TR-C datasheet).
import { toChip } from "./frame.mjs";
import { accelCount, gyroCount } from "./sensor.mjs";

/** accelerometer counts per g at FS_XL 0-3: ±2, ±16, ±4, ±8 g */
var LSM_ACCEL_LSB = [16384, 2048, 8192, 4096];
/** gyro m°/s per count at FS_G 0-3: ±250, ±500, ±1000, ±2000 °/s (FS_125 set: 4.375) */
var LSM_GYRO_MDPS = [8.75, 17.5, 35, 70];

/**
 * An LSM6DS3TR-C on a gun mounted by `axes`: a sample reads `sense()` — [gravity's reaction in g, body rates in
 * °/s], along the gun's axes — as raw counts along the chip's, with the `noise` (sensor.mjs).
 */
export function Lsm6ds3(axes, noise, sense) {
  this.axes = axes;
  this.noise = noise;
  this.sense = sense;
  this.regs = new Uint8Array(128);
  this.regs[0x0f] = 0x6a;
}

/** One sample as Espruino's Puck.accel() gives it: {acc:{x,y,z}, gyro:{x,y,z}}, int16 counts at the set ranges. */
Lsm6ds3.prototype.sample = function () {
  var r = this.regs;
  var n = this.noise;
  var aL = LSM_ACCEL_LSB[(r[0x10] >> 2) & 3];
  var gL = 1000 / (r[0x11] & 2 ? 4.375 : LSM_GYRO_MDPS[(r[0x11] >> 2) & 3]);
  var s = this.sense();
  var a = toChip(s[0], this.axes);
  var w = toChip(s[1], this.axes);
  return {
    acc: { x: accelCount(a[0], n, aL), y: accelCount(a[1], n, aL), z: accelCount(a[2], n, aL) },
    gyro: { x: gyroCount(w[0], 0, n, gL), y: gyroCount(w[1], 1, n, gL), z: gyroCount(w[2], 2, n, gL) },
  };
};
