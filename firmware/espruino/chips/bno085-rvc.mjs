// The BNO085 in UART-RVC mode, frame level, for both board models (ES5: the real interpreter's board is given this
// source). The chip fuses on its own and sends a 19-byte frame every 10 ms on its TX pin: AA AA, an index, then
// yaw, pitch, roll (0.01°) and gravity along its axes (mg) as int16 little-endian, 3 reserved bytes, a checksum
// (the sum of bytes 2-17). Frames reach the firmware's serial port in pieces, as a UART's reads cut them.
import { chipAttitude, wrap180 } from "./frame.mjs";
import { int16 } from "./sensor.mjs";

/** ms between frames (100 Hz) */
export var RVC_MS = 10;

/** A BNO085 on a gun mounted by `axes`, its yaw with the white noise `noise.yawNoise` (° per frame) (sensor.mjs). */
export function Bno085Rvc(axes, noise) {
  this.axes = axes;
  this.noise = noise;
  this.i = 0;
}

/** ms between its frames, where a board sends them */
Bno085Rvc.prototype.period = RVC_MS;

/** The next frame with the gun at a pose (degrees), as a latin1 string. */
Bno085Rvc.prototype.frame = function (yaw, pitch, roll) {
  var v = chipAttitude(yaw, pitch, roll, this.axes);
  var b = [0xaa, 0xaa, this.i++ & 255];
  var s = 0;
  var i;
  var x;
  if (this.noise.yawNoise) v[0] = wrap180(v[0] + this.noise.yawNoise * this.noise.gauss());
  for (i = 0; i < 6; i++) {
    x = int16(v[i] * (i < 3 ? 100 : 1000)) & 0xffff;
    b.push(x & 255, x >> 8);
  }
  b.push(0, 0, 0);
  for (i = 2; i < 18; i++) s += b[i];
  b.push(s & 255);
  return String.fromCharCode.apply(null, b);
};

/** The next frame as the serial port delivers it: every third one in two pieces. */
Bno085Rvc.prototype.pieces = function (yaw, pitch, roll) {
  var f = this.frame(yaw, pitch, roll);
  return this.i % 3 ? [f] : [f.substr(0, 7), f.substr(7)];
};
