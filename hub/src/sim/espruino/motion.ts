// Motion and the inertial readings it makes: a pose over time → body angular rate and specific force.
// Body frame as the firmware expects: x along the barrel, y left, z up. Yaw counter-clockwise from
// above, pitch nose up positive, roll about the barrel; degrees. The frame's rotation is the chips' models' own
// (firmware/espruino/chips/frame.mjs), so both boards turn a pose the same way.
import { gravity, rotation as rotate, wrap180 } from "../../../../firmware/espruino/chips/frame.mjs";

export interface Pose {
  yaw: number;
  pitch: number;
  roll: number;
}

/** Where the gun points at time `t` (seconds since the board started). */
export type Motion = (t: number) => Pose;

type M3 = number[]; // row-major 3×3

const D = Math.PI / 180;

/** The gun's axes in the world at pose `p`: Rz(yaw) · Ry(−pitch) · Rx(roll), row-major. */
export function rotation(p: Pose): M3 {
  return rotate(p.yaw, p.pitch, p.roll);
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

/**
 * Body angular rate, degrees per second, that turns pose `a` into pose `b` in `dt` seconds at a constant rate (the
 * rotation vector of the turn, over `dt`): what a gyro's readings add up to between two samples.
 */
export function meanBodyRate(a: Pose, b: Pose, dt: number): [number, number, number] {
  const d = mulTA(rotation(a), rotation(b));
  const cos = Math.max(-1, Math.min(1, (d[0]! + d[4]! + d[8]! - 1) / 2));
  const angle = Math.acos(cos);
  const s = Math.sin(angle);
  // the axis from the skew part; near no turn, the skew part is the rotation vector itself
  const k = (s > 1e-9 ? angle / (2 * s) : 0.5) / dt / D;
  return [(d[7]! - d[5]!) * k, (d[2]! - d[6]!) * k, (d[3]! - d[1]!) * k];
}

/** What an accelerometer reads at rest: gravity's reaction, in g, in the body frame. */
export function bodyGravity(p: Pose): [number, number, number] {
  return gravity(p.pitch, p.roll);
}

export function still(p: Pose): Motion {
  return () => p;
}

/** Signed angle difference a − b in (−180, 180]. */
export function angleDiff(a: number, b: number): number {
  return wrap180(a - b);
}
