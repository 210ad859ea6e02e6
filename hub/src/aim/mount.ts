// Finding how the IMU chip sits in a gun from gravity as the chip reads it in two poses:
// A, the gun level and pointing forward: the chip axis that reads up is the gun's up;
// B, the gun pointing straight up: the chip axis that reads up is the gun's forward (along the barrel).
// The answer is one of the 24 mountings (shared/protocol/src/mount.ts: "+x-z" = chip x forward, chip −z up).
// Pure: readings in, a mounting or a clear refusal out.
import { mountName } from "@cng/protocol";

/** One pose as the gun reports it (`imu` after `grav`): mean accelerometer in the chip frame (g) and its spread. */
export interface GravReading {
  g: readonly [number, number, number] | readonly number[];
  sd: number;
}

export interface MountLimits {
  /** most spread (g) while measuring: more = the gun moved */
  maxSd: number;
  /** |g| must be within this of 1 g: otherwise the gun was accelerating (or the chip is not an accelerometer) */
  maxNormError: number;
  /** most degrees between the reading and the nearest chip axis: more = the gun was held askew */
  maxTilt: number;
  /** most degrees the two poses may be off a right angle */
  maxSkew: number;
}

export const MOUNT_LIMITS: MountLimits = { maxSd: 0.03, maxNormError: 0.12, maxTilt: 25, maxSkew: 25 };

export type MountRefusal = "not-still" | "not-gravity" | "tilted" | "not-perpendicular";

/** The chip axis that reads up in one pose. */
export interface PoseAxis {
  /** 0 = x, 1 = y, 2 = z */
  axis: number;
  /** +1: the axis points up; −1: it points down */
  sign: number;
  /** "+x", "-z"… */
  name: string;
  /** degrees between the reading and that axis */
  tilt: number;
  /** |g| */
  norm: number;
}

export type PoseCheck = { ok: true; up: PoseAxis } | { ok: false; code: MountRefusal; msg: string };
export type MountResult =
  | { ok: true; mount: string; level: PoseAxis; up: PoseAxis; angle: number }
  | { ok: false; code: MountRefusal; msg: string; pose?: "level" | "up" };

const D = 180 / Math.PI;

/** Checks one pose and names the chip axis that reads up in it. */
export function poseAxis(r: GravReading, lim: MountLimits = MOUNT_LIMITS): PoseCheck {
  const g = r.g;
  const n = Math.hypot(g[0]!, g[1]!, g[2]!);
  if (!(r.sd <= lim.maxSd)) {
    return {
      ok: false,
      code: "not-still",
      msg: `the gun moved while measuring (${r.sd.toFixed(3)} g, at most ${lim.maxSd}): hold it still`,
    };
  }
  if (!(Math.abs(n - 1) <= lim.maxNormError)) {
    return { ok: false, code: "not-gravity", msg: `the reading is ${n.toFixed(2)} g, not gravity: hold the gun still` };
  }
  let axis = 0;
  for (let i = 1; i < 3; i++) if (Math.abs(g[i]!) > Math.abs(g[axis]!)) axis = i;
  const sign = g[axis]! < 0 ? -1 : 1;
  const tilt = Math.acos(Math.min(1, Math.abs(g[axis]!) / n)) * D;
  const name = (sign < 0 ? "-" : "+") + "xyz"[axis];
  if (tilt > lim.maxTilt) {
    return {
      ok: false,
      code: "tilted",
      msg: `no chip axis points up: the nearest, ${name}, is ${tilt.toFixed(0)}° off (at most ${lim.maxTilt}°); hold the gun square`,
    };
  }
  return { ok: true, up: { axis, sign, name, tilt, norm: n } };
}

/** The mounting from pose A (`level`: level, pointing forward) and pose B (`up`: pointing straight up). */
export function findMount(level: GravReading, up: GravReading, lim: MountLimits = MOUNT_LIMITS): MountResult {
  const a = poseAxis(level, lim);
  if (!a.ok) return { ...a, msg: `level pose: ${a.msg}`, pose: "level" };
  const b = poseAxis(up, lim);
  if (!b.ok) return { ...b, msg: `pointing-up pose: ${b.msg}`, pose: "up" };
  const ga = level.g;
  const gb = up.g;
  const dot = ga[0]! * gb[0]! + ga[1]! * gb[1]! + ga[2]! * gb[2]!;
  const angle = Math.acos(Math.max(-1, Math.min(1, dot / (a.up.norm * b.up.norm)))) * D;
  if (Math.abs(angle - 90) > lim.maxSkew || a.up.axis === b.up.axis) {
    return {
      ok: false,
      code: "not-perpendicular",
      msg: `the two poses are ${angle.toFixed(0)}° apart, not a right angle: level and pointing forward, then pointing straight up`,
    };
  }
  const mount = mountName(b.up.axis, b.up.sign, a.up.axis, a.up.sign)!;
  return { ok: true, mount, level: a.up, up: b.up, angle };
}
