// Firmware build: firmware/dist/tsc (ES5 ESM from `tsc -b`) → one IIFE per board profile
// (rollup) → terser (ecma 5) → static checks → firmware/dist/<board>/gun.js + dist/sizes.json.
// Fails (exit 1) on any check: not ES5, use before definition, something Espruino lacks, over budget.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import nodeResolve from "@rollup/plugin-node-resolve";
import { rollup } from "rollup";
import { minify } from "terser";
import { IMUS, imuKindList, imuOf } from "../../hardware/imus/index.mjs";
import { adcTransfer } from "../../hardware/tools/adc.mjs";
import { CHIPS, pinProblems } from "../../hardware/tools/pins.mjs";
import { powerProblems } from "../../hardware/tools/power.mjs";
import { checkBundle } from "./checks.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const fwDir = join(root, "firmware");
const tscDir = join(fwDir, "dist", "tsc");
const entry = join(tscDir, "main.js");
const boardsDir = join(root, "hardware", "boards");

/** Pin-like strings become Espruino globals (`D14`, `A0`, `Serial2`, `USB`, `Bluetooth`) in the baked profile. */
const PIN = /^(D\d{1,2}|A\d|Serial\d|I2C\d|USB|Bluetooth)$/;

/** The links a board's bundle carries (profile `links`, default WiFi only). */
export function linksOf(b) {
  return b.links ?? ["wifi"];
}

/**
 * The device the serial link's lines go over (hardware/SERIAL.md): the profile's `con`, else the board's USB serial
 * port — `Serial1` on the ESP chips, `USB` on boards that have it. A Puck.js says `Bluetooth` (its Nordic UART).
 */
export function conOf(b) {
  return b.con ?? (/^ESP/.test(b.chip) ? "Serial1" : "USB");
}

function fail(msg) {
  process.stderr.write(`build:firmware: ${msg}\n`);
  process.exit(1);
}

/** The profile as JS source, keeping only what the firmware reads. */
export function boardSource(b) {
  // the kinds and a common anode are build-time constants (IMU_KIND, LED_KIND, LED_INV), 0x68 is the driver's own
  // default address, and the buzzer's `soft` is the page's word only (an ESP8266's PWM is software whatever it says)
  const { kind: _i, ...imu } = b.imu;
  const { kind: _l, inv: _v, vcc: _s, ...led } = b.led;
  if (imu.addr === 0x68) imu.addr = undefined;
  const keep = { name: b.name, imu, trig: b.trig, led, bz: { pin: b.bz.pin } };
  // the serial link's device: Serial1 on the ESP chips, USB on boards that have it, the profile's `con` (Bluetooth)
  if (linksOf(b).includes("serial")) keep.con = conOf(b);
  const lit = (v) => {
    if (typeof v === "string") return PIN.test(v) ? v : JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(lit).join(",")}]`;
    if (v && typeof v === "object") {
      return `{${Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .map(([k, x]) => `${k}:${lit(x)}`)
        .join(",")}}`;
    }
    return JSON.stringify(v);
  };
  return lit(keep);
}

/**
 * The battery reading as the firmware computes it: volts = analogRead(pin) × a + b, the chip's ADC transfer
 * (hardware/chips.json: an ESP32's typical one at 11 dB, uncalibrated) through the profile's divider `div`.
 */
export function batTransfer(b) {
  const adc = CHIPS[b.chip]?.adc;
  if (!adc) fail(`${b.name}: bat on a chip without an ADC in hardware/chips.json`);
  return adcTransfer(adc, b.bat.div);
}

export function loadBoards() {
  return readdirSync(boardsDir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => {
      const b = JSON.parse(readFileSync(join(boardsDir, f), "utf8"));
      if (b.name !== f.slice(0, -5)) fail(`${f}: name must be ${f.slice(0, -5)}`);
      const why = profileProblem(b);
      if (why) fail(`${f}: ${why}`);
      return b;
    });
}

/** What stops a board profile from building a gun that works, or undefined. */
export function profileProblem(b) {
  const imu = imuOf(b);
  if (!imu) return `imu.kind must be ${imuKindList()}`;
  // an IMU a board carries goes with that board, and that board with it (the Puck.js's, read through its Puck object)
  const own = imu.onChip ? imu : Object.values(IMUS).find((e) => e.onChip?.chip === b.chip);
  if (own && (own !== imu || b.chip !== own.onChip.chip))
    return `imu.kind ${own.kind} goes with chip ${own.onChip.chip} (${own.onChip.board})`;
  if (!["neopixel", "rgb"].includes(b.led?.kind)) return "led.kind must be neopixel or rgb";
  if (!b.trig?.pin || !b.bz?.pin) return "trig.pin and bz.pin are required";
  if (!(b.budget?.bytes > 0)) return "budget.bytes is required";
  if (b.bat && !(b.bat.div >= 1)) return "bat.div is the divider's ratio, battery volts per pin volt (≥ 1)";
  const links = linksOf(b);
  // a board without WiFi (Puck.js) carries the serial link alone, over its `con` device
  if (
    !Array.isArray(links) ||
    !links.length ||
    links.some((l) => !["wifi", "serial"].includes(l)) ||
    new Set(links).size !== links.length
  )
    return 'links must be ["wifi"], ["wifi", "serial"] or ["serial"]';
  if (b.con !== undefined && (!links.includes("serial") || !PIN.test(b.con)))
    return 'con names the serial link\'s device (Serial1, USB, Bluetooth), with "serial" in links';
  const has = featuresOf(b);
  if (!Array.isArray(has) || has.some((f) => !FEATURES.includes(f))) return `has must list only ${FEATURES.join(", ")}`;
  // the IMU mounting (shared/protocol/src/mount.ts): chip axis forward, then up; other than +x+z only with "mount"
  const m = b.imu.mount;
  if (m !== undefined && (!/^[+-][xyz][+-][xyz]$/.test(m) || m[1] === m[3]))
    return `imu.mount must be the chip axis forward then up, e.g. "+x+z" (got ${JSON.stringify(m)})`;
  if (m !== undefined && m !== "+x+z" && !has.includes("mount"))
    return `imu.mount ${m} needs "mount" in has (this bundle cannot remap the IMU)`;
  // a pin that cannot do its job on this chip (hardware/chips.json): the gun would be built, and never work
  const pins = pinProblems(b);
  if (pins.length) return pins.join("; ");
  // a part out of its rating in a power mode its page documents (hardware/parts.json): it would be built, and fail
  // on the bench, on its battery or on a power bank
  const power = powerProblems(b);
  return power.length ? `out of rating: ${power.join("; ")}` : undefined;
}

/** Optional features a profile may list in `has`; each becomes a build-time constant HAS_<NAME> (dead code elsewhere). */
export const FEATURES = ["ota", "find", "mount", "rssi", "batcal"];

/** The optional features a board's bundle carries (profile `has`, default none). */
export function featuresOf(b) {
  return b.has ?? [];
}

/** Sources lint: biome's use-before-declaration rule on the firmware and the protocol it bundles. */
function lintSources() {
  const biome = join(root, "node_modules", ".bin", "biome");
  const r = spawnSync(
    biome,
    ["lint", "--only=correctness/noInvalidUseBeforeDeclaration", "firmware/src", "shared/protocol/src"],
    { cwd: root, encoding: "utf8" },
  );
  if (r.status !== 0) fail(`use before declaration in the sources:\n${r.stdout}${r.stderr}`);
}

/**
 * The `./imu` module main.js imports: every IMU kind's driver (hardware/imus: `driver`), one picked by the board's
 * IMU_KIND, which terser folds to that driver alone.
 */
function imuDrivers() {
  const ID = "\0cng-imu-driver";
  const kinds = Object.values(IMUS);
  return {
    name: "cng-imu-driver",
    resolveId: (source, importer) => (source === "./imu" && importer === entry ? ID : null),
    load(id) {
      if (id !== ID) return null;
      const imports = kinds.map(
        (e, i) => `import { imu as d${i} } from ${JSON.stringify(join(tscDir, `${e.driver}.js`))};`,
      );
      const pick = kinds.reduceRight(
        (rest, e, i) => (rest ? `IMU_KIND === ${JSON.stringify(e.kind)} ? d${i} : ${rest}` : `d${i}`),
        "",
      );
      return `${imports.join("\n")}\nexport var imu = ${pick};\n`;
    },
  };
}

/** The firmware's modules rolled into one (rollup); `compile` makes each board's bundle from it. */
export async function rollBundle() {
  if (!existsSync(entry)) fail(`${entry} is missing: run \`npm run build:ts\` (tsc -b) first`);
  return rollup({
    input: entry,
    plugins: [imuDrivers(), nodeResolve()],
    treeshake: { moduleSideEffects: (id) => id === entry },
    onwarn(w) {
      fail(`rollup: ${w.message}`);
    },
  });
}

/** One board's bundle: its profile baked in, its IMU, LED, links and features only, minified for Espruino. */
export async function compile(bundle, b, version) {
  const { output } = await bundle.generate({
    format: "iife",
    strict: false,
    intro: `var BOARD=${boardSource(b)},FW=${JSON.stringify(version)};`,
  });
  const min = await minify(output[0].code, {
    ecma: 5,
    compress: {
      ecma: 5,
      passes: 3,
      hoist_funs: false,
      // inlining a function with arguments leaves `var`s after a `return`: Espruino does not hoist them
      inline: 1,
      global_defs: {
        IMU_KIND: b.imu.kind,
        IMU_HZ: imuOf(b).hz,
        // the WHO_AM_I answers its driver takes: the parts sold under its kind's name (hardware/imus)
        "@IMU_IDS": JSON.stringify((imuOf(b).ids?.whoAmI ?? []).map(([id]) => id)),
        LED_KIND: b.led.kind,
        LED_INV: !!b.led.inv,
        LINK_SERIAL: linksOf(b).includes("serial"),
        LINK_WIFI: linksOf(b).includes("wifi"),
        CHIP: b.chip,
        ADC_N: b.chip === "ESP32" ? 8 : 1,
        // what each IMU's driver takes as constants (hardware/imus: its registers, the ids it accepts)
        ...Object.assign({}, ...Object.values(IMUS).map((e) => e.defines ?? {})),
        BAT: !!b.bat,
        ...(b.bat ? { "@BAT_PIN": b.bat.pin, BAT_A: batTransfer(b).a, BAT_B: batTransfer(b).b } : {}),
        ...Object.fromEntries(FEATURES.map((f) => [`HAS_${f.toUpperCase()}`, featuresOf(b).includes(f)])),
      },
    },
    mangle: true,
    format: { ecma: 5, ascii_only: true },
  });
  return min.code;
}

/** Bytes each of a board's features adds to its bundle: the bundle with it minus the bundle without it. */
export async function featureCosts(bundle, b, version) {
  const all = Buffer.byteLength(await compile(bundle, b, version));
  const costs = {};
  for (const f of featuresOf(b)) {
    const without = { ...b, has: featuresOf(b).filter((x) => x !== f) };
    costs[f] = all - Buffer.byteLength(await compile(bundle, without, version));
  }
  return { bytes: all, costs };
}

async function main() {
  const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
  lintSources();
  const bundle = await rollBundle();
  const sizes = {};
  const problems = [];
  for (const b of loadBoards()) {
    const code = await compile(bundle, b, version);
    for (const p of checkBundle(code, b.budget.bytes)) problems.push(`${b.name}: ${p}`);
    const dir = join(fwDir, "dist", b.name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "gun.js"), code);
    sizes[b.name] = {
      bytes: Buffer.byteLength(code),
      budget: b.budget.bytes,
      jsvars: b.budget.jsvars,
      links: linksOf(b),
      has: featuresOf(b),
    };
    console.log(
      `firmware: ${b.name} ${Buffer.byteLength(code)} / ${b.budget.bytes} bytes, ${linksOf(b).join(" + ")}${featuresOf(b).length ? `, has ${featuresOf(b).join(" ")}` : ""}`,
    );
  }
  await bundle.close();
  writeFileSync(join(fwDir, "dist", "sizes.json"), `${JSON.stringify({ version, boards: sizes }, null, 2)}\n`);
  if (problems.length) fail(problems.join("\n"));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e) => fail(e.stack || String(e)));
}
