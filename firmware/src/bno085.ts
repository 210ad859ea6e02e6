// BNO085 in UART-RVC mode: the chip fuses on its own and sends 19-byte frames at 100 Hz:
// AA AA idx yaw pitch roll ax ay az (int16 LE; angles 0.01°, accel mg) 3 reserved, checksum (the sum of the bytes
// from idx on): BNO080/BNO085 datasheet 1000-3927 §1.3.5.2, "UART-RVC protocol", figure 1-25.
import { ms } from "./clock";
import { graw, turn } from "./mount";
import type { Imu, Orient } from "./orient";

export function imu(_hz: number): Imu {
  var buf = "";
  var y = 0;
  var p = 0;
  var r = 0;
  var tm = 0;
  /** consecutive frames with the angles moving less than 0.1° */
  var q = 0;

  function s16(i: number): number {
    var v = buf.charCodeAt(i) | (buf.charCodeAt(i + 1) << 8);
    return v > 32767 ? v - 65536 : v;
  }
  function data(d: string) {
    var i: number;
    var k: number;
    var sum: number;
    var ny: number;
    var np: number;
    var nr: number;
    buf += d;
    for (;;) {
      i = buf.indexOf("\xaa\xaa");
      if (i < 0) {
        buf = buf.length && buf.charCodeAt(buf.length - 1) === 0xaa ? "\xaa" : "";
        return;
      }
      if (buf.length < i + 19) {
        buf = buf.substr(i);
        return;
      }
      sum = 0;
      for (k = 2; k < 18; k++) sum += buf.charCodeAt(i + k);
      if ((sum & 255) !== buf.charCodeAt(i + 18)) {
        buf = buf.substr(i + 1);
        continue;
      }
      buf = buf.substr(i);
      ny = s16(3) / 100;
      np = s16(5) / 100;
      nr = s16(7) / 100;
      q = Math.abs(ny - y) + Math.abs(np - p) + Math.abs(nr - r) < 0.1 ? q + 1 : 0;
      y = ny;
      p = np;
      r = nr;
      // accel (mg) in the chip's frame for a `grav` answer (mount.ts)
      if (HAS_MOUNT) graw(s16(9), s16(11), s16(13), 1000);
      tm = ms(getTime());
      buf = buf.substr(19);
    }
  }

  return {
    start: function () {
      var c = BOARD.imu;
      // tx named: left out, Espruino's ESP32 Serial2 would drive its default TX pin (hardware/chips.json)
      c.ser!.setup(c.sbaud || 115200, { rx: c.rx, tx: c.tx });
      c.ser!.on("data", data);
      return undefined;
    },
    get: function (o: Orient) {
      // the chip's angles turned into the gun's by the mounting
      if (HAS_MOUNT) turn(y, p, r, o);
      else {
        o.y = y;
        o.p = p;
        o.r = r;
      }
      o.s = q > 50 ? 1 : 0;
      o.t = tm;
    },
    still: function () {},
  };
}
