// What every inertial chip model adds to the motion it senses: the noise and bias of the simulated chip, and the
// 16-bit counts its registers hold. `noise` is the IMU model's inputs as both boards keep them: gyroBias (°/s per
// axis), gyroNoise (°/s), accelNoise (g), yawNoise (° per fused frame), gauss() (a standard normal). ES5: the real
// interpreter's board is given this source too.

/** A count as a chip's 16-bit register holds it: rounded, clamped to int16. */
export function int16(v) {
  v = Math.round(v);
  return v > 32767 ? 32767 : v < -32768 ? -32768 : v;
}

/** A standard normal from a uniform source on [0, 1) (Box-Muller). */
export function gauss(rnd) {
  var u = rnd() || 1e-12;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
}

/** An accelerometer axis's count: `g` (g) with the noise, at `lsb` counts per g. */
export function accelCount(g, noise, lsb) {
  return int16((g + noise.accelNoise * noise.gauss()) * lsb);
}

/** Gyro axis `k`'s count: `w` (°/s) with its bias and the noise, at `lsb` counts per °/s. */
export function gyroCount(w, k, noise, lsb) {
  return int16((w + noise.gyroBias[k] + noise.gyroNoise * noise.gauss()) * lsb);
}
