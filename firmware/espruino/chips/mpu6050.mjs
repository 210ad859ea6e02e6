// The MPU-6050 on I2C, register level, for both board models (ES5: the real interpreter's board is given this source).
// WHO_AM_I (0x75) is the part's: 0x68 for an MPU-6050, 0x70 for the MPU-6500 and 0x98 for the clones sold on GY-521
// boards, same registers otherwise (hardware/imus/mpu6050.mjs) but the accelerometer's low-pass filter, which the MPU-6500
// family and the ICM-20689 take from ACCEL_CONFIG2 (0x1d) and the MPU-6050 from CONFIG (0x1a). Asleep at power-on
// (PWR_MGMT_1 0x6b = 0x40): the samples read 0 until the firmware wakes it.
import { toChip } from "./frame.mjs";
import { MPU_REG } from "./mpu6050-map.mjs";
import { accelCount, gyroCount } from "./sensor.mjs";

/** gyro counts per °/s at FS_SEL 0-3, GYRO_CONFIG (0x1b) bits 4:3 (MPU-6000/6050 datasheet, 6.1) */
export var MPU_GYRO_LSB = [131, 65.5, 32.8, 16.4];

/**
 * The low-pass filters' 3 dB bandwidth, Hz, by each register's 3-bit setting (the last entry at 7):
 * - MPU-6050: CONFIG's DLPF_CFG sets both, accelerometer and gyro (MPU-6000/6050 Register Map 4.2, register 26);
 * - MPU-6500, MPU-9250, MPU-9255: CONFIG's DLPF_CFG the gyro, ACCEL_CONFIG2's A_DLPF_CFG the accelerometer, 1130 Hz
 *   with its ACCEL_FCHOICE_B bit set (MPU-6500 Register Map 2.1, registers 26 and 29);
 * - ICM-20689: the same registers, its own figures, 1046 Hz with ACCEL_FCHOICE_B (ICM-20689 datasheet 1.x, registers
 *   26 and 29).
 * GYRO_CONFIG's FCHOICE_B (bits 1:0) is 0 as the firmware writes it: the DLPF_CFG column holds.
 */
export var MPU_DLPF = {
  mpu6050: { gyro: [256, 188, 98, 42, 20, 10, 5, 256], accel: [260, 184, 94, 44, 21, 10, 5, 260] },
  mpu6500: { gyro: [250, 184, 92, 41, 20, 10, 5, 3600], accel: [460, 184, 92, 41, 20, 10, 5, 460], off: 1130 },
  icm20689: {
    gyro: [250, 176, 92, 41, 20, 10, 5, 8173],
    accel: [218.1, 218.1, 99, 44.8, 21.2, 10.2, 5.1, 420],
    off: 1046,
  },
};

/** The filter table of the part that answers `who` (0x68 an MPU-6050, 0x98 the ICM-20689's, the rest the MPU-6500's). */
export function mpuFamily(who) {
  return who === 0x68 ? MPU_DLPF.mpu6050 : who === 0x98 ? MPU_DLPF.icm20689 : MPU_DLPF.mpu6500;
}

/**
 * An MPU-6050 at I2C address `addr` (undefined: none on the bus, every transfer unacknowledged) answering `who`. A
 * read from ACCEL_XOUT_H (0x3b) samples `sense()` — [gravity's reaction in g, body rates in °/s], along the gun's
 * axes — turned into the chip's by the mounting's `axes`, with the `noise` (sensor.mjs), at the ranges ACCEL_CONFIG
 * (0x1c) and GYRO_CONFIG (0x1b) say.
 */
export function Mpu6050(addr, who, axes, noise, sense) {
  this.addr = addr;
  this.axes = axes;
  this.noise = noise;
  this.sense = sense;
  this.regs = new Uint8Array(128);
  this.regs[MPU_REG.WHO_AM_I] = who;
  this.regs[MPU_REG.PWR_MGMT_1] = 0x40;
  this.ptr = 0;
  /** called with the chip after a write that reaches its configuration (0x19-0x1d): the board reports its filters */
  this.onConfig = undefined;
}

/** The accelerometer's and the gyro's low-pass bandwidth, Hz, as the part's registers set them now. */
Mpu6050.prototype.filters = function () {
  var r = this.regs;
  var R = MPU_REG;
  var f = mpuFamily(r[R.WHO_AM_I]);
  var c2 = r[R.ACCEL_CONFIG2];
  var a = f === MPU_DLPF.mpu6050 ? f.accel[r[R.CONFIG] & 7] : c2 & 8 ? f.off : f.accel[c2 & 7];
  return { accel: a, gyro: f.gyro[r[R.CONFIG] & 7] };
};

/** I2C1.writeTo: the register pointer, then bytes written from there on (the address counts up). */
Mpu6050.prototype.writeTo = function (a, d) {
  var i;
  if (a !== this.addr) throw new Error("I2C: no ACK");
  if (typeof d === "number") this.ptr = d & 0x7f;
  else {
    this.ptr = d[0] & 0x7f;
    for (i = 1; i < d.length; i++) this.regs[(this.ptr + i - 1) & 0x7f] = d[i] & 255;
    if (this.onConfig && this.ptr <= MPU_REG.ACCEL_CONFIG2 && this.ptr + d.length - 2 >= MPU_REG.SMPLRT_DIV)
      this.onConfig(this);
  }
};

/** I2C1.readFrom: `n` bytes from the pointer on. */
Mpu6050.prototype.readFrom = function (a, n) {
  var o;
  var i;
  if (a !== this.addr) throw new Error("I2C: no ACK");
  if (this.ptr === MPU_REG.ACCEL_XOUT_H) this.sample();
  o = new Uint8Array(n);
  for (i = 0; i < n; i++) o[i] = this.regs[(this.ptr + i) & 0x7f];
  return o;
};

/** A count into a big-endian register pair. */
Mpu6050.prototype.put = function (reg, v) {
  this.regs[reg] = (v >> 8) & 255;
  this.regs[reg + 1] = v & 255;
};

/** ACCEL_XOUT_H..GYRO_ZOUT_L from the motion now; TEMP_OUT (0x41) reads 0. */
Mpu6050.prototype.sample = function () {
  var r = this.regs;
  var R = MPU_REG;
  var asleep = (r[R.PWR_MGMT_1] & 0x40) !== 0;
  var aL = 16384 / (1 << ((r[R.ACCEL_CONFIG] >> 3) & 3));
  var gL = MPU_GYRO_LSB[(r[R.GYRO_CONFIG] >> 3) & 3];
  var s = this.sense();
  var a = toChip(s[0], this.axes);
  var w = toChip(s[1], this.axes);
  var i;
  for (i = 0; i < 3; i++) {
    this.put(R.ACCEL_XOUT_H + 2 * i, asleep ? 0 : accelCount(a[i], this.noise, aL));
    this.put(R.GYRO_XOUT_H + 2 * i, asleep ? 0 : gyroCount(w[i], i, this.noise, gL));
  }
  this.put(R.TEMP_OUT_H, 0);
};
