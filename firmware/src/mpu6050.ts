// MPU-6050 over I2C, raw registers: ±2000 °/s gyro (a quick swing must not clip: a clipped turn is a yaw error for good), ±4 g accel, 44 Hz low-pass, fused by Mahony.
// Gyro bias (all three axes) is the mean of a window of samples taken while the gun is still;
// it is what keeps the yaw from drifting (0.05 °/s uncorrected = 3° a minute).
import { ms } from "./clock";
import { euler, level, mahony } from "./mahony";
import { graw, MA, MV } from "./mount";
import type { Imu, Orient } from "./orient";

/** samples per bias window */
var WIN = 64;
/** still: |gyro − bias| below 2 °/s (squared) and |accel| within 5% of 1 g */
var TH = 4;

export function mpu6050(hz: number): Imu {
  var cfg = BOARD.imu;
  var a = cfg.addr || 0x68;
  var bx = 0;
  var by = 0;
  var bz = 0;
  var sx = 0;
  var sy = 0;
  var sz = 0;
  var sn = 0;
  /** consecutive still samples */
  var q = 0;
  /** samples left to take as bias whatever the motion (`still` command) */
  var force = 0;
  var lt = 0;
  var tm = 0;
  /** the mounting the filter started in */
  var mv = MV;
  var K = Math.PI / 180;

  function rd(): Uint8Array {
    I2C1.writeTo(a, 0x3b);
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
    var wx = gx - bx;
    var wy = gy - by;
    var wz = gz - bz;
    var an = Math.sqrt(ax * ax + ay * ay + az * az);
    // a new mounting (`mount` command): the filter's attitude was in the old frame, start again level with gravity
    if (HAS_MOUNT && mv !== MV) {
      mv = MV;
      level(ax, ay, az);
    }
    if (force || (wx * wx + wy * wy + wz * wz < TH && an > 0.95 && an < 1.05)) {
      // skip the first samples of a still run: the tail of a motion is not bias
      if (++q > 16 || force) {
        sx += gx;
        sy += gy;
        sz += gz;
        if (++sn === WIN) {
          bx = sx / WIN;
          by = sy / WIN;
          bz = sz / WIN;
          sx = sy = sz = sn = 0;
          if (force) force = 0;
        }
      }
    } else {
      q = sx = sy = sz = sn = 0;
    }
    mahony(wx * K, wy * K, wz * K, ax, ay, az, dt, an > 0.8 && an < 1.2 ? 1 : 0);
  }

  return {
    start: function () {
      var c = BOARD.imu;
      var d: Uint8Array;
      I2C1.setup({ scl: c.scl, sda: c.sda, bitrate: 400000 });
      try {
        I2C1.writeTo(a, 0x75);
        if (I2C1.readFrom(a, 1)[0] !== 0x68) return "mpu6050 WHO_AM_I";
        I2C1.writeTo(a, [0x6b, 1]); // wake, PLL on the gyro clock
        I2C1.writeTo(a, [0x19, 9]); // 1 kHz / 10 = 100 Hz
        I2C1.writeTo(a, [0x1a, 3]); // DLPF 44 Hz
        I2C1.writeTo(a, [0x1b, 0x18]); // ±2000 °/s
        I2C1.writeTo(a, [0x1c, 8]); // ±4 g
        d = rd();
        level(r16(d, 0), r16(d, 2), r16(d, 4));
      } catch (_e) {
        return "mpu6050 not answering";
      }
      lt = getTime();
      setInterval(step, 1000 / hz);
      return undefined;
    },
    get: function (o: Orient) {
      euler(o);
      o.s = q > hz / 2 ? 1 : 0;
      o.t = tm;
    },
    still: function () {
      force = WIN;
      sx = sy = sz = sn = 0;
    },
  };
}
