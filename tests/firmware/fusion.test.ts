// Orientation from the MPU-6050 bundle: synthetic motion with gyro noise and a 0.05 °/s bias,
// still periods between moves; one simulated minute, run in manual time.
import { gunTopic } from "@cng/protocol";
import { afterEach, expect, it } from "vitest";
import { angleDiff, createVirtualGun, type Motion } from "../../hub/src/sim/espruino/index.js";
import { hubClient, startBroker } from "../fakes/broker.js";
import { waitFor } from "../fakes/hub.js";
import { seatHoppingMinute } from "./seat-hopping.js";

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

it("keeps the heading within 2° over 60 s despite gyro bias and noise", async () => {
  const r = await seatHoppingMinute("esp32-mpu6050", "f1", cleanup);
  console.log(`fusion: ${r.n} samples, worst heading error ${r.yaw.toFixed(2)}°, still pitch ${r.pitch.toFixed(2)}°`);
  expect(r.n).toBeGreaterThan(1300);
  expect(r.yaw).toBeLessThanOrEqual(2);
  expect(r.pitch).toBeLessThanOrEqual(2);
  expect(r.still).toBeGreaterThan(100);
  expect(r.errors).toEqual([]);
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
  const settled = await waitFor(
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

it("keeps its heading through a swing the laptop stalled over (real time: the board samples on its own clock)", async () => {
  const broker = await startBroker();
  broker.creds.set("f3", "x");
  const hub = await hubClient(broker.port);
  cleanup.push(
    () => broker.close(),
    () => hub.close(),
  );
  // still at 0°, then a 90° turn in 0.3 s from `swingAt` (gun s), then still
  let swingAt = Number.POSITIVE_INFINITY;
  const motion: Motion = (t) => {
    const u = Math.max(0, Math.min(1, (t - swingAt) / 0.3));
    return { yaw: 90 * ((1 - Math.cos(Math.PI * u)) / 2), pitch: 0, roll: 0 };
  };
  const g = createVirtualGun({
    board: "esp32-mpu6050",
    clock: "real",
    config: { id: "f3", secret: "x", table: "t1", hub: { host: "127.0.0.1", port: broker.port } },
    imu: { motion, gyroNoise: 0.05, accelNoise: 0.01, seed: 4 },
  });
  cleanup.push(() => g.stop());
  const aimTopic = gunTopic("t1", "f3", "aim");
  const aims = () => hub.got.filter((m) => m.topic === aimTopic);
  await waitFor(() => aims().length > 5 || undefined, 10_000, "the gun streaming");
  // the laptop busy for 600 ms from just before the turn to after it: the board's timers all run late
  swingAt = (g.now() + 50) / 1000;
  const until = performance.now() + 600;
  while (performance.now() < until) {}
  const after = await waitFor(
    () => {
      const a = aims().filter((m) => m.msg.t >= swingAt * 1000 + 800);
      return a.length > 5 ? a : undefined;
    },
    10_000,
    "aim after the turn",
  );
  for (const a of after) expect(Math.abs(angleDiff(a.msg.y, 90))).toBeLessThan(2);
  expect(g.errors).toEqual([]);
}, 30000);
