// Orientation from the MPU-6050 bundle: synthetic motion with gyro noise and a 0.05 °/s bias,
// still periods between moves; one simulated minute, run in manual time.
import { gunTopic } from "@cng/protocol";
import { afterEach, expect, it } from "vitest";
import { angleDiff, createVirtualGun, type Motion, type Pose } from "../../hub/src/sim/espruino/index.js";
import { hubClient, startBroker, until } from "./broker.js";

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** Aim at a new seat every 4 s: 1.5 s smooth turn (with some pitch), then 2.5 s still. Still for the first 3 s. */
function seatHopping(): Motion {
  const targets: Pose[] = [{ yaw: 0, pitch: 0, roll: 0 }];
  const yaws = [40, -35, 75, 10, -70, 120, 160, -150, -20, 55, -90, 0, 30, -45];
  for (let i = 0; i < yaws.length; i++) targets.push({ yaw: yaws[i], pitch: (i % 3) * 8 - 8, roll: (i % 2) * 6 });
  const lerp = (a: number, b: number, s: number) => a + (b - a) * s;
  return (t: number) => {
    if (t < 3) return targets[0];
    const k = Math.floor((t - 3) / 4);
    const u = (t - 3 - k * 4) / 1.5;
    const a = targets[Math.min(k, targets.length - 1)];
    const b = targets[Math.min(k + 1, targets.length - 1)];
    if (u >= 1) return b;
    const s = (1 - Math.cos(Math.PI * u)) / 2;
    return {
      yaw: a.yaw + angleDiff(b.yaw, a.yaw) * s,
      pitch: lerp(a.pitch, b.pitch, s),
      roll: lerp(a.roll, b.roll, s),
    };
  };
}

it("keeps the heading within 2° over 60 s despite gyro bias and noise", async () => {
  const broker = await startBroker();
  broker.creds.set("f1", "x");
  const hub = await hubClient(broker.port);
  cleanup.push(
    () => broker.close(),
    () => hub.close(),
  );
  const motion = seatHopping();
  const g = createVirtualGun({
    board: "esp32-mpu6050",
    clock: "manual",
    config: { id: "f1", secret: "x", table: "t1", hub: { host: "127.0.0.1", port: broker.port } },
    imu: { motion, gyroBias: [0.05, -0.05, 0.05], gyroNoise: 0.08, accelNoise: 0.01, seed: 7 },
  });
  cleanup.push(() => g.stop());
  const aimTopic = gunTopic("t1", "f1", "aim");
  await g.advance(61000);
  const aims = await until(
    () => {
      const a = hub.got.filter((m) => m.topic === aimTopic);
      return a.length > 0 && a[a.length - 1].msg.t >= 59000 ? a : undefined;
    },
    5000,
    "aim up to 60 s",
  );
  let worst = 0;
  let worstPitch = 0;
  let stillSeen = 0;
  for (const a of aims) {
    const truth = motion(a.msg.t / 1000);
    worst = Math.max(worst, Math.abs(angleDiff(a.msg.y, truth.yaw)));
    if (a.msg.s) {
      stillSeen++;
      worstPitch = Math.max(worstPitch, Math.abs(a.msg.p - truth.pitch));
    }
  }
  console.log(
    `fusion: ${aims.length} samples, worst heading error ${worst.toFixed(2)}°, still pitch ${worstPitch.toFixed(2)}°`,
  );
  expect(aims.length).toBeGreaterThan(1300);
  expect(worst).toBeLessThanOrEqual(2);
  expect(worstPitch).toBeLessThanOrEqual(2);
  expect(stillSeen).toBeGreaterThan(100);
  expect(g.errors).toEqual([]);
}, 30000);

it("follows a quick swing without losing its heading (the gyro range holds a player's fastest turn)", async () => {
  const broker = await startBroker();
  broker.creds.set("f2", "x");
  const hub = await hubClient(broker.port);
  cleanup.push(
    () => broker.close(),
    () => hub.close(),
  );
  // still at 0°, then a 150° snap in 0.2 s (peak ≈ 1,180 °/s), then still at 150° for 3 s
  const motion: Motion = (t) => {
    if (t < 3) return { yaw: 0, pitch: 0, roll: 0 };
    const u = Math.min(1, (t - 3) / 0.2);
    return { yaw: 150 * ((1 - Math.cos(Math.PI * u)) / 2), pitch: 0, roll: 0 };
  };
  const g = createVirtualGun({
    board: "esp32-mpu6050",
    clock: "manual",
    config: { id: "f2", secret: "x", table: "t1", hub: { host: "127.0.0.1", port: broker.port } },
    imu: { motion, gyroBias: [0.05, -0.05, 0.05], gyroNoise: 0.08, accelNoise: 0.01, seed: 9 },
  });
  cleanup.push(() => g.stop());
  const aimTopic = gunTopic("t1", "f2", "aim");
  await g.advance(6500);
  const settled = await until(
    () => {
      const a = hub.got.filter((m) => m.topic === aimTopic && m.msg.t >= 4000);
      return a.length > 20 && a[a.length - 1].msg.t >= 6000 ? a : undefined;
    },
    5000,
    "aim after the swing",
  );
  for (const a of settled) expect(Math.abs(angleDiff(a.msg.y, 150))).toBeLessThan(2);
  expect(g.errors).toEqual([]);
}, 30000);
