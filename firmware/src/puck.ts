// Puck.js v2's own IMU, an LSM6DS3TR-C accelerometer + gyro, through the Puck object of Espruino's Puck.js build
// (libs/puckjs/jswrap_puck.c): `Puck.accelOn(hz)` samples both at 12.5, 26, 52, 104 or 208 Hz and emits an `accel`
// event per sample, `{acc:{x,y,z}, gyro:{x,y,z}}` in raw int16 counts: the accelerometer at ±4 g, the gyro at its
// lowest range (the chip's 250 dps setting, "±245 dps" in Espruino's reference), which a quick swing clips (a clipped turn is a yaw error for good), so the driver sets ±2000 °/s
// (CTRL2_G through `Puck.accelWr`). Then the MPU-6050 path's fusion: the chip's axes read through the mounting into
// the gun's frame (mount.ts: a Puck taped to a gun sits any way), the still-time gyro bias, the Mahony filter.
import { ms } from "./clock";
import { biasNow, fuse, stillRun } from "./fuse";
import { euler } from "./mahony";
import { graw, MA } from "./mount";
import type { Imu, Orient } from "./orient";

/** accelerometer counts per g at ±4 g (0.122 mg a count) */
var AG = 8192;
/** gyro counts per °/s at ±2000 °/s (70 m°/s a count; LSM6DS3TR-C datasheet) */
var GD = 1 / 0.07;

export function imu(hz: number): Imu {
  /** the output data rate code: 1 = 12.5 Hz, 2 = 26, 3 = 52, 4 = 104, 5 = 208 (CTRL1_XL, CTRL2_G bits 7-4) */
  var r = Math.max(1, Math.min(5, Math.round(Math.log(hz / 12.5) / Math.LN2) + 1));
  var lt = 0;
  var tm = 0;
  hz = [12.5, 26, 52, 104, 208][r - 1];

  /** The gun's axis k (x, y, z) of a chip reading: the chip's axis the mounting names there, on boards that have one. */
  function g(v: PuckXyz, k: number): number {
    var i = HAS_MOUNT ? MA[2 * k] : k;
    return (i ? (i > 1 ? v.z : v.y) : v.x) * (HAS_MOUNT ? MA[2 * k + 1] : 1);
  }
  function step(e: { acc: PuckXyz; gyro: PuckXyz }) {
    var t = getTime();
    var dt = t - lt;
    var a = e.acc;
    var w = e.gyro;
    lt = t;
    tm = ms(t);
    if (dt > 0.2) dt = 1 / hz;
    // gravity in the chip's own frame, for a `grav` answer (mount.ts)
    if (HAS_MOUNT) graw(a.x, a.y, a.z, AG);
    var ax = g(a, 0) / AG;
    var ay = g(a, 1) / AG;
    var az = g(a, 2) / AG;
    var gx = g(w, 0) / GD;
    var gy = g(w, 1) / GD;
    var gz = g(w, 2) / GD;
    fuse(ax, ay, az, gx, gy, gz, dt);
  }

  return {
    start: function () {
      try {
        Puck.accelOn(hz);
        // CTRL2_G: the gyro at the same rate, ±2000 °/s
        Puck.accelWr(0x11, (r << 4) | 0x0c);
      } catch (_e) {
        return "lsm6ds3 not answering";
      }
      lt = getTime();
      Puck.on("accel", step);
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
