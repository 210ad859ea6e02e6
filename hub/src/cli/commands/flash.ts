// `cng flash`: put the firmware and a gun's config on an Espruino board over USB serial.
import { randomBytes, randomInt } from "node:crypto";
import { writeFileSync } from "node:fs";
import { gunConfigText } from "@cng/protocol";
import { type Command, InvalidArgumentError } from "commander";
import { boardNames, loadBoard } from "../../boards/profile.js";
import { checkConfig, FlashError, flash, type GunConfig, listPorts, planFlash } from "../../flash/flash.js";
import { warnVisible } from "./visible.js";

function int(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError("must be a positive whole number");
  return n;
}

interface FlashOpts {
  board: string;
  port?: string;
  id?: string;
  wifi?: string;
  password?: string;
  hub?: string;
  hubPort: number;
  link?: string;
  table: string;
  secret?: string;
  hz?: number;
  mount?: string;
  bat?: number | false;
  baud?: number;
  passkey?: string;
  out?: string;
  dryRun: boolean;
  verbose: boolean;
}

/** `--bat`: "none" (no divider: not measured) or a factor; anything else is left for the config check to refuse. */
function batOption(v: string): number | false {
  return v === "none" ? false : Number(v);
}

export function registerFlash(program: Command): void {
  program
    .command("flash")
    .description(
      "flash a gun: upload the board's firmware bundle and the gun's config (gun.json) over serial; a Puck.js: make its " +
        "gun.json (with a Bluetooth passkey) to upload with the Espruino Web IDE",
    )
    .requiredOption("-b, --board <board>", `board profile (${boardNames().join(", ")})`)
    .option("-p, --port <path>", "serial port, e.g. /dev/ttyUSB0 (without it: list the ports)")
    .option("--id <id>", "gun id, e.g. g1")
    .option("--wifi <ssid>", "WiFi network name (leave out to keep the board's saved WiFi)")
    .option("--password <pass>", "WiFi password (better: CNG_WIFI_PASSWORD, which no other user of this machine sees)")
    .option("--hub <host>", "hub host name or IP address (not needed with --link serial)")
    .option("--link <link>", "wifi, or serial: the gun talks over its USB cable via `cng hub --serial-gun`")
    .option("--hub-port <n>", "hub MQTT port", int, 1883)
    .option("--table <name>", "table name", "main")
    .option("--secret <s>", "the gun's MQTT password (default: a new random one, printed; or CNG_GUN_SECRET)")
    .option("--hz <n>", "aim rate, 1-50 Hz", int)
    .option("--mount <m>", "how the IMU sits: chip axis along the barrel, then up (+x+z; +x-z upside down)")
    .option(
      "--bat <k>",
      "the battery reading's calibration factor (Setup says it, 0.8-1.25), or none: no divider fitted (a power bank)",
      batOption,
    )
    .option("--baud <n>", "serial baud rate (default: the board's, 115200)", int)
    .option(
      "--passkey <digits>",
      "a Puck.js: its Bluetooth passkey, 6 digits (default: new random ones, printed once), or none",
    )
    .option("--out <file>", "a Puck.js (no USB): write its gun.json there, to upload with the Espruino Web IDE")
    .option("--dry-run", "print what would be sent, send nothing", false)
    .option("--verbose", "show EspruinoTools' own messages", false)
    .action(async (o: FlashOpts) => {
      try {
        await run(o);
      } catch (e) {
        if (e instanceof FlashError) {
          process.stderr.write(`cng flash: ${e.message}\n`);
          process.exitCode = 1;
        } else throw e;
      }
    });
}

/**
 * A board without USB (a Puck.js): nothing to flash from here. Its gun.json, with a new secret and a new Bluetooth
 * passkey (shown here once; the gun keeps it in gun.json), to upload with the Espruino Web IDE (hardware/PUCK.md).
 */
function bluetoothConfig(o: FlashOpts): void {
  if (!o.id) throw new FlashError("config", "--id is required");
  if (o.passkey !== undefined && o.passkey !== "none" && !/^\d{6}$/.test(o.passkey))
    throw new FlashError("config", "--passkey is 6 digits, or none");
  if (o.secret !== undefined) warnVisible("--secret", "CNG_GUN_SECRET");
  const config: GunConfig = {
    id: o.id,
    secret: o.secret ?? process.env.CNG_GUN_SECRET ?? randomBytes(12).toString("base64url"),
    table: o.table,
    // its only link, whatever gun.json says: said so, as the config check asks of a gun without a hub address
    link: "serial",
  };
  if (o.hz) config.hz = o.hz;
  if (o.mount) config.mount = o.mount;
  if (o.passkey !== "none") config.pk = o.passkey ?? String(randomInt(0, 1_000_000)).padStart(6, "0");
  checkConfig(config);
  const text = gunConfigText(config);
  const board = loadBoard(o.board);
  console.log(`board      ${board.name} (${board.chip}): no USB, so nothing is flashed from here (hardware/PUCK.md)`);
  if (o.out) {
    writeFileSync(o.out, text, { mode: 0o600 });
    console.log(`gun.json   written to ${o.out}: upload it as gun.json with the Espruino Web IDE, beside gun.js`);
  } else console.log(`gun.json   ${text}`);
  if (config.pk) {
    console.log(`passkey    ${config.pk}: type it when the laptop asks to pair with the Puck (shown here once)`);
  } else console.log("passkey    none: any central in range may connect to its Bluetooth (it still proves its bridge)");
}

async function run(o: FlashOpts): Promise<void> {
  if (loadBoard(o.board).con === "Bluetooth") return bluetoothConfig(o);
  if (o.passkey !== undefined || o.out !== undefined)
    throw new FlashError("config", "--passkey and --out are for a board flashed over Bluetooth (a Puck.js)");
  if (!o.port && !o.dryRun) {
    const ports = await listPorts();
    if (!ports.length) console.log("no serial ports found: plug the board in (and check the USB cable carries data)");
    else {
      console.log("serial ports (pass one with --port):");
      for (const p of ports) console.log(`  ${p.path}${p.label ? `  ${p.label}` : ""}`);
    }
    return;
  }
  const serial = o.link === "serial";
  if (!o.id || (!o.hub && !serial)) {
    throw new FlashError("config", "--id and --hub (or --link serial) are required to flash a gun");
  }
  if (o.password !== undefined) warnVisible("--password", "CNG_WIFI_PASSWORD");
  if (o.secret !== undefined) warnVisible("--secret", "CNG_GUN_SECRET");
  const password = o.password ?? process.env.CNG_WIFI_PASSWORD;
  const secret = o.secret ?? process.env.CNG_GUN_SECRET;
  const generated = !secret;
  const config: GunConfig = {
    id: o.id,
    secret: secret ?? randomBytes(12).toString("base64url"),
    table: o.table,
  };
  if (o.link) config.link = o.link as GunConfig["link"];
  if (o.hub) config.hub = { host: o.hub, port: o.hubPort };
  if (o.wifi) config.wifi = { ssid: o.wifi, pass: password ?? "" };
  if (o.hz) config.hz = o.hz;
  if (o.mount) config.mount = o.mount;
  if (o.bat !== undefined) config.bat = o.bat;
  const plan = planFlash(o.board, config);
  const shown = JSON.stringify({
    ...config,
    secret: "********",
    ...(config.wifi ? { wifi: { ...config.wifi, pass: "********" } } : {}),
  });
  console.log(`board      ${plan.board.name} (${plan.board.chip}, IMU ${plan.board.imu.kind})`);
  console.log(`firmware   ${plan.bundlePath}, ${plan.bundle.length} bytes → Storage .bootcde`);
  console.log(`config     ${shown} → Storage gun.json`);
  console.log(`uploader   EspruinoTools (espruino npm package), offline, board file ${plan.boardJson}`);
  if (o.dryRun) {
    console.log(
      'EspruinoTools sends reset(), then both files as require("Storage").write(…) lines in 1 KB chunks, unminified',
    );
    console.log("then both files are read back and compared, and load() starts the gun");
    console.log("dry run: nothing sent");
    return;
  }
  let last = "";
  const r = await flash(plan, {
    path: o.port!,
    baud: o.baud,
    verbose: o.verbose,
    onProgress: (p) => {
      const line = `${p.step} ${p.total > 1 ? `${Math.round((100 * p.done) / p.total)}%` : ""}`.trim();
      if (line !== last) process.stdout.write(`\r${line.padEnd(20)}`);
      last = line;
    },
  }).finally(() => {
    if (last) process.stdout.write("\n");
  });
  console.log(`flashed gun ${config.id}: Espruino ${r.version}, ${r.bytes} bytes verified; the gun restarts now`);
  if (generated) {
    console.log(`gun secret (MQTT password for user ${config.id}): ${config.secret}`);
    console.log(`  with an external broker: mosquitto_passwd -b cng.passwd ${config.id} ${config.secret}`);
  }
  if (serial) {
    console.log(`serial link: leave the cable in and run \`cng hub --serial-gun ${o.port}\` (hardware/SERIAL.md)`);
  }
}
