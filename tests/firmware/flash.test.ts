// `cng flash` uploads through EspruinoTools (the espruino npm package) in a child process, which
// opens the serial device by path: so the board here is a fake Espruino console on a
// pseudo-terminal (fake_espruino_pty.py), and what it stored is compared with the bundle.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunConfigProblem } from "@cng/protocol";
import { describe, expect, it } from "vitest";
import { FlashError, flash, planFlash } from "../../hub/src/flash/flash.js";
import { bundlePathFor, createVirtualGun, loadBoard } from "../../hub/src/sim/espruino/index.js";
import { fakeEspruinoPty, hasPython } from "./fake-espruino-pty.js";

const config = {
  id: "g1",
  secret: "s3cret",
  table: "main",
  hub: { host: "192.168.1.10", port: 1883 },
  wifi: { ssid: "party", pass: 'pa"ss' },
};

const cng = fileURLToPath(new URL("../../bin/cng.js", import.meta.url));

const python = hasPython();
if (!python) console.warn("flash tests skipped: python3 (with its pty module) is needed for the fake board");

describe.skipIf(!python)("flashing through EspruinoTools to a fake Espruino on a pty", () => {
  it("writes exactly the bundle to .bootcde and the config to gun.json, offline, verifies and restarts", async () => {
    const board = await fakeEspruinoPty();
    const plan = planFlash("esp32-mpu6050", config);
    const steps: string[] = [];
    const r = await flash(plan, {
      path: board.path,
      onProgress: (p) => steps.push(`${p.step} ${p.done}/${p.total}`),
    });
    const seen = await board.stop();
    const bundle = readFileSync(bundlePathFor("esp32-mpu6050"), "latin1");
    expect(seen.storage[".bootcde"] === bundle).toBe(true); // (not toBe: the diff would be the bundle)
    expect(JSON.parse(seen.storage["gun.json"] ?? "")).toEqual(config);
    // nothing else was written, nothing the fake did not understand was sent
    expect(Object.keys(seen.storage).sort()).toEqual([".bootcde", "gun.json"]);
    expect(seen.unknown).toEqual([]);
    expect(r).toEqual({ version: "2v25", bytes: bundle.length });
    expect(seen.resets).toBe(1); // EspruinoTools resets before sending
    expect(seen.loads).toBe(1); // and the gun is started after the read-back
    expect(seen.repl).toBe(1); // a gun on its serial link is asked for the console first
    expect(steps[0]).toBe("hello 0/1");
    expect(steps).toContain("hello 1/1");
    const send = steps.filter((s) => s.startsWith("send "));
    expect(send.length).toBeGreaterThan(3);
    const [done, total] = send.at(-1)!.slice(5).split("/").map(Number);
    expect(done).toBe(total);
    expect(total).toBeGreaterThan(bundle.length);
    expect(steps.slice(-2)).toEqual(["verify 1/1", "done 1/1"]);
  }, 30000);

  it("a gun updated over the air runs what is flashed now: the update's files are erased", async () => {
    const board = await fakeEspruinoPty({
      files: { "ota.json": '{"f":"gun.a","c":1}', "gun.a": "old update", "gun.b": "older", "keep.me": "x" },
    });
    await flash(planFlash("esp32-mpu6050", config), { path: board.path });
    const seen = await board.stop();
    expect(seen.erased.sort()).toEqual(["gun.a", "gun.b", "ota.json", "ota.new"]);
    expect(Object.keys(seen.storage).sort()).toEqual([".bootcde", "gun.json", "keep.me"]);
    expect(seen.unknown).toEqual([]);
  });

  it("fails clearly, within seconds, when no board answers", async () => {
    const board = await fakeEspruinoPty({ silent: true });
    const plan = planFlash("esp8266-mpu6050", config);
    const t0 = Date.now();
    const err = await flash(plan, { path: board.path }).catch((e) => e);
    await board.stop();
    expect(err).toBeInstanceOf(FlashError);
    expect(err.code).toBe("no-answer");
    expect(err.message).toMatch(/no answer from an Espruino console/);
    expect(Date.now() - t0).toBeLessThan(10000);
  }, 20000);

  it("says when the port cannot be opened", async () => {
    const plan = planFlash("esp32-mpu6050", config);
    const err = await flash(plan, { path: "/dev/cng-no-such-port" }).catch((e) => e);
    expect(err).toBeInstanceOf(FlashError);
    expect(err.code).toBe("port");
    expect(err.message).toMatch(/cng-no-such-port/);
  }, 20000);
});

it("refuses a bad config before touching the port", () => {
  expect(() => planFlash("esp32-mpu6050", { ...config, id: "Bad Id" })).toThrow(/--id/);
  expect(() => planFlash("nope", config)).toThrow(/unknown board "nope"/);
});

it("plans a gun for the serial link without a hub address, only where the firmware has that link", () => {
  const serial = { id: "g2", secret: "s3cret", table: "main", link: "serial" as const };
  expect(() => planFlash("esp32-mpu6050", { ...serial, link: undefined })).toThrow(/--hub is required/);
  expect(() => planFlash("esp8266-mpu6050", serial)).toThrow(/no serial link/);
  const plan = planFlash("esp32-mpu6050", serial);
  expect(JSON.parse(plan.configText)).toEqual(serial);
  expect(plan.boardJson).toMatch(/hardware\/boards\/espruino\/ESP32\.json$/);
});

it("cng flash --bat: a factor Setup gave, or none (no divider: not measured); refused where it cannot be", () => {
  const c = { id: "g1", secret: "s", hub: { host: "10.0.0.2" } };
  expect(JSON.parse(planFlash("esp8266-mpu6050", { ...c, bat: 1.0412 }).configText).bat).toBe(1.0412);
  expect(JSON.parse(planFlash("esp32-mpu6050", { ...c, bat: false }).configText).bat).toBe(false);
  expect(() => planFlash("esp32-mpu6050", { ...c, bat: 1.4 })).toThrow(/--bat is the battery reading's calibration/);
  expect(() => planFlash("esp32-mpu6050", { ...c, bat: Number.NaN })).toThrow(/--bat/);
  // a Puck.js gauges its own coin cell (and is flashed over Bluetooth anyway)
  expect(gunConfigProblem({ ...c, bat: 1 }, loadBoard("puckjs"))).toBe("no-usb");
  expect(gunConfigProblem({ ...c, bat: 1 }, { ...loadBoard("puckjs"), con: undefined })).toBe("no-bat");
  // the command line: "none", a factor, nonsense
  const cli = (bat: string) =>
    spawnSync(
      process.execPath,
      [cng, "flash", "-b", "esp32-mpu6050", "--id", "g1", "--hub", "h", "--bat", bat, "--dry-run"],
      {
        encoding: "utf8",
      },
    );
  expect(cli("none").stdout).toMatch(/config +\{.*"bat":false\}/);
  expect(cli("1.02").stdout).toMatch(/config +\{.*"bat":1\.02\}/);
  const bad = cli("lots");
  expect(bad.status).toBe(1);
  expect(bad.stderr).toMatch(/cng flash: --bat is the battery reading's calibration/);
});

it("cng flash on a Puck.js (no USB): its gun.json with a new Bluetooth passkey, shown once, which the gun then sets", () => {
  const dir = mkdtempSync(join(tmpdir(), "cng-puck-"));
  try {
    const out = join(dir, "gun.json");
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [cng, "flash", "-b", "puckjs", "--id", "g7", ...args], { encoding: "utf8" });
    const r = cli("--out", out);
    expect(r.status, r.stderr).toBe(0);
    const written = JSON.parse(readFileSync(out, "utf8"));
    expect(written).toEqual({
      id: "g7",
      secret: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
      table: "main",
      link: "serial",
      pk: expect.stringMatching(/^\d{6}$/),
    });
    // the passkey is said once, here; the secret, which only asks to pair, stays in the file
    expect(r.stdout).toContain(`passkey    ${written.pk}: type it when the laptop asks to pair`);
    expect(r.stdout).not.toContain(written.secret);
    expect(statSync(out).mode & 0o077).toBe(0);
    // the Puck's firmware, booted on that gun.json, asks its radio for that passkey
    const g = createVirtualGun({ board: "puckjs", config: readFileSync(out, "utf8"), clock: "manual" });
    expect(g.console[0]).toBe("CNG gun g7 fw 0.1.0 on puckjs on Bluetooth");
    expect(g.ble!.security).toEqual([{ passkey: written.pk, mitm: 1, display: 1 }]);
    g.stop();
    // one's own, none, or refused; and not on a board with USB
    expect(JSON.parse(/gun\.json +(\{.*\})/.exec(cli("--passkey", "012345").stdout)![1]!).pk).toBe("012345");
    expect(JSON.parse(/gun\.json +(\{.*\})/.exec(cli("--passkey", "none").stdout)![1]!).pk).toBeUndefined();
    expect(cli("--passkey", "12345").stderr).toMatch(/--passkey is 6 digits, or none/);
    const usb = spawnSync(
      process.execPath,
      [cng, "flash", "-b", "esp32-mpu6050", "--id", "g1", "--hub", "h", "--passkey", "123456", "--dry-run"],
      { encoding: "utf8" },
    );
    expect(usb.stderr).toMatch(/--passkey and --out are for a board flashed over Bluetooth/);
    expect(gunConfigProblem({ id: "g1", secret: "s", link: "serial", pk: "123456" }, loadBoard("esp32-mpu6050"))).toBe(
      "no-pk",
    );
    expect(gunConfigProblem({ id: "g1", secret: "s", link: "serial", pk: "12345" })).toBe("pk");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
