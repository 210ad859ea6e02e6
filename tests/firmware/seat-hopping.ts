// The one-minute seat-hopping run of a vm gun on a manual clock, shared by the fusion and mounting tests: synthetic
// motion with gyro noise and a small bias, still periods between moves, and the worst errors against the truth.
import { gunTopic } from "@cng/protocol";
import { angleDiff, createVirtualGun, type Motion, type Pose } from "../../hub/src/sim/espruino/index.js";
import { hubClient, startBroker } from "../fakes/broker.js";
import { waitFor } from "../fakes/hub.js";

/** Aim at a new seat every 4 s: 1.5 s smooth turn (with some pitch), then 2.5 s still. Still for the first 3 s. */
export function seatHopping(): Motion {
  const targets: Pose[] = [{ yaw: 0, pitch: 0, roll: 0 }];
  const yaws = [40, -35, 75, 10, -70, 120, 160, -150, -20, 55, -90, 0, 30, -45];
  for (let i = 0; i < yaws.length; i++) targets.push({ yaw: yaws[i]!, pitch: (i % 3) * 8 - 8, roll: (i % 2) * 6 });
  const lerp = (a: number, b: number, s: number) => a + (b - a) * s;
  return (t: number) => {
    if (t < 3) return targets[0]!;
    const k = Math.floor((t - 3) / 4);
    const u = (t - 3 - k * 4) / 1.5;
    const a = targets[Math.min(k, targets.length - 1)]!;
    const b = targets[Math.min(k + 1, targets.length - 1)]!;
    if (u >= 1) return b;
    const s = (1 - Math.cos(Math.PI * u)) / 2;
    return {
      yaw: a.yaw + angleDiff(b.yaw, a.yaw) * s,
      pitch: lerp(a.pitch, b.pitch, s),
      roll: lerp(a.roll, b.roll, s),
    };
  };
}

export interface MinuteResult {
  /** aim samples received */
  n: number;
  /** worst heading error, and worst pitch and roll error while the gun said it was still, degrees */
  yaw: number;
  pitch: number;
  roll: number;
  /** samples marked still */
  still: number;
  errors: unknown[];
}

/** 61 s of seat hopping on `board` (chip mounted `mount`, named in gun.json too); cleanups pushed to `cleanup`. */
export async function seatHoppingMinute(
  board: string,
  id: string,
  cleanup: (() => Promise<void> | void)[],
  mount?: string,
): Promise<MinuteResult> {
  const broker = await startBroker();
  broker.creds.set(id, "x");
  const hub = await hubClient(broker.port);
  cleanup.push(
    () => broker.close(),
    () => hub.close(),
  );
  const motion = seatHopping();
  const g = createVirtualGun({
    board,
    clock: "manual",
    config: {
      id,
      secret: "x",
      table: "t1",
      hub: { host: "127.0.0.1", port: broker.port },
      ...(mount ? { mount } : {}),
    },
    imu: { motion, mount, gyroBias: [0.05, -0.05, 0.05], gyroNoise: 0.08, accelNoise: 0.01, seed: 7 },
  });
  cleanup.push(() => g.stop());
  const topic = gunTopic("t1", id, "aim");
  await g.advance(61000);
  const aims = await waitFor(
    () => {
      const a = hub.got.filter((m) => m.topic === topic);
      return a.length > 0 && a[a.length - 1]!.msg.t >= 59000 ? a : undefined;
    },
    5000,
    "aim up to 60 s",
  );
  const r: MinuteResult = { n: aims.length, yaw: 0, pitch: 0, roll: 0, still: 0, errors: g.errors };
  for (const a of aims) {
    const truth = motion(a.msg.t / 1000);
    r.yaw = Math.max(r.yaw, Math.abs(angleDiff(a.msg.y, truth.yaw)));
    if (a.msg.s) {
      r.still++;
      r.pitch = Math.max(r.pitch, Math.abs(a.msg.p - truth.pitch));
      r.roll = Math.max(r.roll, Math.abs(angleDiff(a.msg.r, truth.roll)));
    }
  }
  return r;
}
