// @heavy: guns on the real Espruino interpreter, in real time
// The board models know the chip they stand for (hardware/chips.json), on both runtimes: Espruino's ESP32
// analogWrite on D25/D26 is the DAC (a DC level, no tone), an MPU-6050 board may carry an MPU-6500 or a clone with
// another WHO_AM_I, and Serial2 set up with only rx drives its default TX pin. Each profile's gun, built as flashed,
// sounds, lights and finds its IMU there; a profile as a builder might have written it is built and shown failing.
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM build script without types
import { compile, rollBundle } from "../../firmware/build/build.mjs";
import { type BoardProfile, createGun, type Gun, loadBoard, type RealGun } from "../../hub/src/sim/espruino/index.js";
import { hubClient, startBroker } from "../fakes/broker.js";
import { interpreter, sleep, waitFor } from "../fakes/real-gun.js";

const RUNTIMES = ["vm", "espruino"] as const;
const guns: Gun[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  const gs = guns.splice(0);
  for (const g of gs) g.stop();
  await Promise.all(gs.map((g) => ("stopped" in g ? (g as RealGun).stopped() : undefined)));
  for (const c of closers.splice(0)) await c();
  await sleep(50);
});

/** A profile's bundle as the build makes it, without the build's profile checks (a profile a builder might write). */
async function bundleOf(b: BoardProfile): Promise<string> {
  const bundle = await rollBundle();
  try {
    return await compile(bundle, b, "0.1.0");
  } finally {
    await bundle.close();
  }
}

const CONFIG = {
  id: "g1",
  secret: "s3cret-factory",
  hub: { host: "127.0.0.1", port: 9 },
  wifi: { ssid: "w", pass: "p" },
};
const green = (c: number) => c >> 16 === 0 && (c & 0xff00) !== 0;
const red = (c: number) => c >> 16 > 0 && (c & 0xffff) === 0;

describe.each(RUNTIMES)("the board model on %s", (runtime) => {
  const start = async (o: Parameters<typeof createGun>[0]) => {
    const g = await createGun({ ...o, runtime });
    guns.push(g);
    return g;
  };
  const skip = runtime === "espruino" && !interpreter.path;

  describe.skipIf(skip)("each ESP profile as committed", () => {
    it.each(["esp32-mpu6050", "esp32-bno085", "esp8266-mpu6050"])(
      "%s greets with two tones and green, blinks red and beeps on a bad gun.json, drives no pin twice",
      async (board) => {
        const g = await start({ board, config: CONFIG });
        const bad = await start({ board, config: null });
        await waitFor(() => g.tones.some((t) => t.f === 2400), 4000, "the boot greeting");
        await waitFor(() => bad.tones.some((t) => t.f === 300), 4000, "the config error beep");
        expect(g.tones.filter((t) => t.f > 0).map((t) => t.f)).toEqual([1800, 2400]);
        expect(g.led.some((l) => green(l.c))).toBe(true);
        expect(bad.led.some((l) => red(l.c))).toBe(true);
        expect(g.pinClash).toEqual([]);
        expect(g.console.filter((l) => /PWM/.test(l))).toEqual([]);
      },
    );
  });

  describe.skipIf(skip)(
    "ESP32 profiles a builder might write: buzzer on D25, LED legs on D25/D26, Serial2 without tx",
    () => {
      it("the buzzer on the DAC pin D25 never sounds", async () => {
        const b = { ...loadBoard("esp32-mpu6050"), bz: { pin: "D25", soft: false } };
        const g = await start({ board: b, code: await bundleOf(b), config: CONFIG });
        await waitFor(() => g.led.some((l) => green(l.c)), 4000, "the green greeting");
        await sleep(500);
        expect(g.tones.filter((t) => t.f > 0)).toEqual([]);
      });

      it("red and green on D25/D26 get a DC level, never lit (only blue works), and D4's buzzer is Serial2's TX", async () => {
        const now = loadBoard("esp32-bno085");
        const { tx: _tx, ...imu } = now.imu;
        const b = { ...now, imu, led: { ...now.led, pr: "D25", pg: "D26", pb: "D27" } };
        const code = await bundleOf(b);
        const g = await start({ board: b, code, config: CONFIG });
        const bad = await start({ board: b, code, config: null });
        await waitFor(() => g.tones.some((t) => t.f === 2400), 4000, "the boot greeting");
        await waitFor(() => bad.tones.some((t) => t.f === 300), 4000, "the config error beep");
        await sleep(300);
        // the greeting's green and the error's red blink: nothing shows
        expect(g.led.filter((l) => l.c !== 0)).toEqual([]);
        expect(bad.led.filter((l) => l.c !== 0)).toEqual([]);
        expect(g.pinClash).toEqual(["D4: Serial2's default TX and the buzzer"]);
      });
    },
  );

  describe.skipIf(skip)("MPU-6050 boards that carry another chip", () => {
    // the accelerometer's low-pass: CONFIG's on an MPU-6050, ACCEL_CONFIG2's (0x1d) on the others, 218-460 Hz when
    // left alone, aliased into pitch and roll at a 50-100 Hz poll; the same ≈ 44 Hz on every part the firmware takes
    it.each([
      ["esp32-mpu6050", 0x68, { accel: 44, gyro: 42 }],
      ["esp32-mpu6050", 0x71, { accel: 41, gyro: 41 }],
      ["esp8266-mpu6050", 0x70, { accel: 41, gyro: 41 }],
      ["esp8266-mpu6050", 0x73, { accel: 41, gyro: 41 }],
      ["esp8266-mpu6050", 0x98, { accel: 44.8, gyro: 41 }],
    ] as const)(
      "%s with WHO_AM_I %i: both filters near 44 Hz, as the firmware writes them",
      async (board, who, want) => {
        const g = await start({ board, config: CONFIG, imu: { whoAmI: who } });
        await waitFor(() => g.imuFilters !== undefined, 4000, "the IMU configured");
        await sleep(200);
        expect(g.imuFilters).toEqual(want);
      },
    );

    it.each([
      ["esp32-mpu6050", "an MPU-6500", 0x70],
      ["esp32-mpu6050", "a clone", 0x98],
      ["esp8266-mpu6050", "an MPU-6500", 0x70],
      ["esp8266-mpu6050", "a clone", 0x98],
    ] as const)("%s with %s (WHO_AM_I %i) aims; an unknown id gets an err that names it", async (board, _chip, who) => {
      const broker = await startBroker(0, new Map(), true);
      const hub = await hubClient(broker.port);
      closers.push(hub.close, broker.close);
      const config = { ...CONFIG, hub: { host: "127.0.0.1", port: broker.port } };
      const turn = (t: number) => ({ yaw: Math.min(t, 1) * 60, pitch: 0, roll: 0 });
      const ok = await start({ board, config, imu: { whoAmI: who, motion: turn } });
      const odd = await start({ board, config: { ...config, id: "g2" }, imu: { whoAmI: 0x12 } });
      const aims = () => hub.got.filter((m) => m.topic.endsWith("/g1/aim")).map((m) => m.msg);
      await waitFor(() => hub.got.some((m) => m.topic.endsWith("/g2/err")), 8000, "g2's err");
      await waitFor(() => aims().some((a) => Math.abs(a.y) > 30), 8000, "g1 aiming as it turns");
      expect(hub.got.filter((m) => m.topic.endsWith("/g1/err"))).toEqual([]);
      const err = hub.got.find((m) => m.topic.endsWith("/g2/err"))!.msg;
      expect(err).toEqual({ v: 1, e: "imu", m: "WHO_AM_I 0x12 unknown" });
      expect(ok.errors).toEqual([]);
      expect(odd.errors).toEqual([]);
    });
  });
});
