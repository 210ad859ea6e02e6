// MPU-6050 over I2C, raw registers: ±2000 °/s gyro (a quick swing must not clip: a clipped turn is a yaw error for
// good), ±4 g accel, ≈ 44 Hz low-pass on both (on the clones too); still-time gyro bias and the Mahony filter in fuse.ts.
import { ms } from "./clock";
import { biasNow, fuse, stillRun } from "./fuse";
import { euler } from "./mahony";
import { graw, MA } from "./mount";
import type { Imu, Orient } from "./orient";

export function imu(hz: number): Imu {
  var cfg = BOARD.imu;
  var a = cfg.addr || 0x68;
  var lt = 0;
  var tm = 0;

  // The registers by their names in InvenSense's register map (firmware/espruino/chips/mpu6050-map.mjs has each one's
  // section): ACCEL_XOUT_H starts fourteen bytes, big-endian: accel, temperature, gyro.
  function rd(): Uint8Array {
    I2C1.writeTo(a, MPU_ACCEL_XOUT_H);
    return I2C1.readFrom(a, 14);
  }
  function s16(d: Uint8Array, i: number): number {
    var v = (d[i] << 8) | d[i + 1];
    return v > 32767 ? v - 65536 : v;
  }
  /** The gun's axis at register offset `i` (accel 0, 2, 4; gyro 8, 10, 12): the chip's axis the mounting names there. */
  function g16(d: Uint8Array, i: number): number {
    var k = i % 8;
    return s16(d, i - k + 2 * MA[k]) * MA[k + 1];
  }
  /** a register as the gun's body frame sees it: through the mounting on boards that have one */
  var r16 = HAS_MOUNT ? g16 : s16;
  function step() {
    var d: Uint8Array;
    try {
      d = rd();
    } catch (_e) {
      // a glitch on the bus: skip this sample
      return;
    }
    var t = getTime();
    var dt = t - lt;
    lt = t;
    tm = ms(t);
    if (dt > 0.2) dt = 1 / hz;
    // gravity in the chip's own frame, for a `grav` answer (mount.ts)
    if (HAS_MOUNT) graw(s16(d, 0), s16(d, 2), s16(d, 4), 8192);
    var ax = r16(d, 0) / 8192;
    var ay = r16(d, 2) / 8192;
    var az = r16(d, 4) / 8192;
    var gx = r16(d, 8) / 16.4;
    var gy = r16(d, 10) / 16.4;
    var gz = r16(d, 12) / 16.4;
    fuse(ax, ay, az, gx, gy, gz, dt);
  }

  return {
    start: function () {
      var c = BOARD.imu;
      I2C1.setup({ scl: c.scl, sda: c.sda, bitrate: 400000 });
      var id: number;
      try {
        I2C1.writeTo(a, MPU_WHO_AM_I);
        id = I2C1.readFrom(a, 1)[0];
        // an MPU-6050, MPU-6500, MPU-9250, MPU-9255, ICM-20689 or a GY-521 clone: the registers read here are the same
        // on all of them (hardware/imus/mpu6050.mjs)
        if (IMU_IDS.indexOf(id) < 0) return "WHO_AM_I 0x" + id.toString(16) + " unknown";
        I2C1.writeTo(a, [MPU_PWR_MGMT_1, 1]); // wake, PLL on the gyro clock
        // one burst from SMPLRT_DIV (the register address counts up): 1 kHz / 10 = 100 Hz, CONFIG's DLPF 44 Hz,
        // GYRO_CONFIG ±2000 °/s, ACCEL_CONFIG ±4 g,
        // and ACCEL_CONFIG2 (0x1d): the accelerometer's own 41-45 Hz low-pass on the MPU-6500 family and the
        // ICM-20689, where CONFIG's filters only the gyro (left alone: 218-460 Hz); on an MPU-6050 0x1d is the
        // free-fall threshold, idle with its interrupt off
        I2C1.writeTo(a, [MPU_SMPLRT_DIV, 9, 3, 0x18, 8, 3]);
      } catch (_e) {
        return "mpu6050 not answering";
      }
      lt = getTime();
      setInterval(step, 1000 / hz);
      return undefined;
    },
    get: function (o: Orient) {
      euler(o);
      o.s = stillRun > hz / 2 ? 1 : 0;
      o.t = tm;
    },
    still: biasNow,
  };
}
