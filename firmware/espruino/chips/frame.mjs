// The gun's frame and how a chip sits in it, for the chip models of both board models: the vm's (hub/src/sim/espruino)
// imports these, the real interpreter's board (firmware/espruino/board.js) is given their source, so everything here is
// ES5. The gun's axes: x along the barrel, y left, z up; yaw counter-clockwise from above, pitch nose up, roll about
// the barrel, in degrees.

/** An angle in degrees, into (−180, 180]. */
export function wrap180(d) {
  d = d % 360;
  if (d > 180) d -= 360;
  if (d <= -180) d += 360;
  return d;
}

/** The gun's axes in the world at a pose, as the columns of a row-major 3×3: Rz(yaw) · Ry(−pitch) · Rx(roll). */
export function rotation(yaw, pitch, roll) {
  var K = Math.PI / 180;
  var cy = Math.cos(yaw * K);
  var sy = Math.sin(yaw * K);
  var cp = Math.cos(pitch * K);
  var sp = Math.sin(pitch * K);
  var cr = Math.cos(roll * K);
  var sr = Math.sin(roll * K);
  return [
    cy * cp,
    -cy * sp * sr - sy * cr,
    -cy * sp * cr + sy * sr,
    sy * cp,
    -sy * sp * sr + cy * cr,
    -sy * sp * cr - cy * sr,
    sp,
    cp * sr,
    cp * cr,
  ];
}

/** What an accelerometer at rest reads: gravity's reaction along the gun's axes, in g (the last row of rotation). */
export function gravity(pitch, roll) {
  var K = Math.PI / 180;
  var cp = Math.cos(pitch * K);
  return [Math.sin(pitch * K), cp * Math.sin(roll * K), cp * Math.cos(roll * K)];
}

/**
 * A vector along the gun's axes → along the chip's, for the mounting's `axes` (shared/protocol's mountAxes: the
 * gun's axis k is axes[2k+1] × the chip's axis axes[2k]).
 */
export function toChip(v, axes) {
  var c = [0, 0, 0];
  var k;
  for (k = 0; k < 3; k++) c[axes[2 * k]] = axes[2 * k + 1] * v[k];
  return c;
}

/**
 * What a chip that fuses on its own reports with the gun at a pose: its own yaw, pitch and roll (degrees), then
 * gravity's reaction along its axes (g).
 */
export function chipAttitude(yaw, pitch, roll, axes) {
  var g = rotation(yaw, pitch, roll);
  var c = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  var D = 180 / Math.PI;
  var k;
  var j;
  var lock;
  // the chip's axis axes[2k] is the gun's axis k times its sign: the columns of world-from-chip
  for (k = 0; k < 3; k++) for (j = 0; j < 3; j++) c[j * 3 + axes[2 * k]] = axes[2 * k + 1] * g[j * 3 + k];
  // the chip's pitch at ±90° (its x axis upright): yaw and roll are one turn there, told as yaw with roll 0
  lock = c[6] > 0.999999 || c[6] < -0.999999;
  return [
    (lock ? Math.atan2(-c[1], c[4]) : Math.atan2(c[3], c[0])) * D,
    Math.asin(c[6] > 1 ? 1 : c[6] < -1 ? -1 : c[6]) * D,
    lock ? 0 : Math.atan2(c[7], c[8]) * D,
    c[6],
    c[7],
    c[8],
  ];
}
