// Motion and the inertial readings it makes: a pose over time → body angular rate and specific force.
// Body frame as the firmware expects: x along the barrel, y left, z up. Yaw counter-clockwise from
// above, pitch nose up positive, roll about the barrel; degrees.

export interface Pose {
  yaw: number;
  pitch: number;
  roll: number;
}

/** Where the gun points at time `t` (seconds since the board started). */
export type Motion = (t: number) => Pose;

type M3 = number[]; // row-major 3×3

const D = Math.PI / 180;

export function rotation(p: Pose): M3 {
  const [cy, sy] = [Math.cos(p.yaw * D), Math.sin(p.yaw * D)];
  // rotation about +y by −pitch: nose up for positive pitch
  const [cp, sp] = [Math.cos(-p.pitch * D), Math.sin(-p.pitch * D)];
  const [cr, sr] = [Math.cos(p.roll * D), Math.sin(p.roll * D)];
  // Rz(yaw) · Ry(−pitch) · Rx(roll)
  return [
    cy * cp,
    cy * sp * sr - sy * cr,
    cy * sp * cr + sy * sr,
    sy * cp,
    sy * sp * sr + cy * cr,
    sy * sp * cr - cy * sr,
    -sp,
    cp * sr,
    cp * cr,
  ];
}

function mulTA(a: M3, b: M3): M3 {
  const r: M3 = new Array(9).fill(0);
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) r[i * 3 + j] += a[k * 3 + i] * b[k * 3 + j];
  return r;
}

/** Body angular rate, degrees per second (central difference over ±h). */
export function bodyRate(m: Motion, t: number, h = 0.0005): [number, number, number] {
  const d = mulTA(rotation(m(t - h)), rotation(m(t + h)));
  const k = 1 / (2 * 2 * h) / D;
  return [(d[7] - d[5]) * k, (d[2] - d[6]) * k, (d[3] - d[1]) * k];
}

/** What an accelerometer reads at rest: gravity's reaction, in g, in the body frame. */
export function bodyGravity(p: Pose): [number, number, number] {
  const r = rotation(p);
  return [r[6], r[7], r[8]];
}

export function still(p: Pose): Motion {
  return () => p;
}

/** Signed angle difference a − b in (−180, 180]. */
export function angleDiff(a: number, b: number): number {
  let d = (a - b) % 360;
  if (d > 180) d -= 360;
  if (d <= -180) d += 360;
  return d;
}
