// Attack: reading secrets off the host's own laptop. A flag is part of the command line, which every user of the
// machine reads (`ps`, /proc/<pid>/cmdline): `cng flash --password` (the WiFi's), `cng hub --pin`. Each such command
// takes its secrets from the environment too, and warns when one comes as a flag.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const cng = fileURLToPath(new URL("../../bin/cng.js", import.meta.url));
const flash = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(
    process.execPath,
    [
      cng,
      "flash",
      "-b",
      "esp32-mpu6050",
      "--id",
      "g1",
      "--hub",
      "10.0.0.2",
      "--wifi",
      "TableWifi",
      "--dry-run",
      ...args,
    ],
    { encoding: "utf8", env: { ...process.env, ...env } },
  );

it("cng flash takes the WiFi password and the gun's secret from the environment, and warns when they are flags", () => {
  const flagged = flash(["--password", "hunter22", "--secret", "s3cret-of-g1"]);
  expect(flagged.status).toBe(0);
  expect(flagged.stderr).toMatch(/--password on the command line can be read by anyone.*CNG_WIFI_PASSWORD/);
  expect(flagged.stderr).toMatch(/--secret on the command line .*CNG_GUN_SECRET/);
  // what it prints never shows them
  expect(flagged.stdout).not.toMatch(/hunter22|s3cret-of-g1/);
  const quiet = flash([], { CNG_WIFI_PASSWORD: "hunter22", CNG_GUN_SECRET: "s3cret-of-g1" });
  expect(quiet.status).toBe(0);
  expect(quiet.stderr).toBe("");
  expect(quiet.stdout).toMatch(/config +\{.*"wifi":\{"ssid":"TableWifi","pass":"\*+"\}/);
});
