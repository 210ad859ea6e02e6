// Flashing over a serial port that answers like an Espruino console (serialport's MockBinding).
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { FlashError } from "../../hub/src/flash/console.js";
import { flash, planFlash } from "../../hub/src/flash/flash.js";
import { bundlePathFor } from "../../hub/src/sim/espruino/index.js";
import { fakeEspruino } from "./fake-espruino.js";

const config = {
  id: "g1",
  secret: "s3cret",
  table: "main",
  hub: { host: "192.168.1.10", port: 1883 },
  wifi: { ssid: "party", pass: 'pa"ss' },
};

it("writes exactly the bundle to .bootcde and the config to gun.json, verifies and restarts", async () => {
  const board = fakeEspruino("/dev/ttyFAKE0");
  const plan = planFlash("esp32-mpu6050", config);
  const steps: string[] = [];
  const r = await flash(plan, {
    path: "/dev/ttyFAKE0",
    binding: board.binding,
    onProgress: (p) => steps.push(`${p.step} ${p.done}/${p.total}`),
  });
  const bundle = readFileSync(bundlePathFor("esp32-mpu6050"), "latin1");
  expect(board.storage.get(".bootcde")).toBe(bundle);
  expect(JSON.parse(board.storage.get("gun.json") ?? "")).toEqual(config);
  expect(r).toEqual({ version: "2v25", bytes: bundle.length });
  expect(board.loads).toBe(1);
  expect(steps[0]).toBe("hello 0/1");
  expect(steps).toContain(`bundle ${plan.chunks - 1}/${plan.chunks - 1}`);
  expect(steps.at(-1)).toBe("done 1/1");
  // nothing but console commands went over the line: no files other than the two
  expect([...board.storage.keys()].sort()).toEqual([".bootcde", "gun.json"]);
});

it("fails clearly when no board answers", async () => {
  const board = fakeEspruino("/dev/ttyFAKE1", false);
  const plan = planFlash("esp8266-mpu6050", config);
  const err = await flash(plan, { path: "/dev/ttyFAKE1", binding: board.binding, timeoutMs: 300 }).catch((e) => e);
  expect(err).toBeInstanceOf(FlashError);
  expect(err.code).toBe("no-answer");
  expect(err.message).toMatch(/no answer from an Espruino console/);
});

it("refuses a bad config before touching the port", () => {
  expect(() => planFlash("esp32-mpu6050", { ...config, id: "Bad Id" })).toThrow(/--id/);
  expect(() => planFlash("nope", config)).toThrow(/unknown board "nope"/);
});

it("flashes a gun for the serial link without a hub address, only where the firmware has that link", async () => {
  const serial = { id: "g2", secret: "s3cret", table: "main", link: "serial" as const };
  expect(() => planFlash("esp32-mpu6050", { ...serial, link: undefined })).toThrow(/--hub is required/);
  expect(() => planFlash("esp8266-mpu6050", serial)).toThrow(/no serial link/);
  const board = fakeEspruino("/dev/ttyFAKE2");
  await flash(planFlash("esp32-mpu6050", serial), { path: "/dev/ttyFAKE2", binding: board.binding });
  expect(JSON.parse(board.storage.get("gun.json") ?? "")).toEqual(serial);
  // a gun already on its serial link is asked for the console first
  expect(board.lines.some((l) => l.startsWith("repl "))).toBe(true);
});
