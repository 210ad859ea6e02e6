#!/usr/bin/env node
// Generates hardware/wiring/<board>.md (parts list, pin table, power, runtime) and
// hardware/wiring/<board>.svg (wiring diagram) from the board profiles in hardware/boards/.
// The profiles are the single source of pin truth; tests/hardware checks the committed
// output matches them. Run after changing a profile:
//
//   node hardware/tools/wiring.mjs           write the files
//   node hardware/tools/wiring.mjs --check   exit 1 when a committed file is out of date
//   node hardware/tools/wiring.mjs --help    say so; any other argument is refused and nothing is written
//
// A profile of a shape this script does not know stops it with the file and the field named.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { IMUS, imuHz, imuOf } from "../imus/index.mjs";
import { CHIPS, gpio, NODEMCU, PUCK, pinProblems, psramPins } from "./pins.mjs";
import { magneticMa, NETS, PARTS, powerProblems, powerRows, RES } from "./power.mjs";

const here = dirname(fileURLToPath(import.meta.url));
export const BOARDS_DIR = join(here, "..", "boards");
export const OUT_DIR = join(here, "..", "wiring");

// ---------------------------------------------------------------- profile shape

class ProfileError extends Error {}

/** field → [required, check]; a nested object is a shape of its own. */
const SHAPE = {
  name: [true, "string"],
  summary: [true, "string"],
  chip: [true, ["ESP32", "ESP8266", "NRF52"]],
  baud: [true, "number"],
  // the links the firmware bundle carries (firmware/build/build.mjs): "wifi", and "serial" (hardware/SERIAL.md)
  links: [false, "links"],
  // the serial link's device when it is not the board's USB serial port: "Bluetooth" on a Puck.js (its Nordic UART)
  con: [false, "string"],
  has: [false, "features"],
  storage: [false, "number"],
  otaWhyNot: [false, "string"],
  imu: [
    true,
    {
      kind: [true, Object.keys(IMUS)],
      scl: [false, "pin"],
      sda: [false, "pin"],
      addr: [false, "number"],
      hz: [false, "number"],
      ser: [false, "string"],
      rx: [false, "pin"],
      tx: [false, "pin"],
      sbaud: [false, "number"],
      mount: [false, "string"],
    },
  ],
  trig: [true, { pin: [true, "pin"], pressed: [true, [0, 1]] }],
  led: [
    true,
    {
      kind: [true, ["neopixel", "rgb"]],
      pin: [false, "pin"],
      pr: [false, "pin"],
      pg: [false, "pin"],
      pb: [false, "pin"],
      inv: [false, "boolean"],
      max: [false, "number"],
      // a WS2812B's supply: one of the nets (hardware/tools/power.mjs)
      vcc: [false, NETS],
    },
  ],
  bz: [true, { pin: [true, "pin"], soft: [false, "boolean"] }],
  // the divider's top: the charger's B+ pad (the cell, before the switch), or where a builder put it
  bat: [false, { pin: [true, "pin"], div: [true, "number"], top: [true, NETS] }],
  // what feeds the board: its own USB regulator (hardware/parts.json boards) and what the switched cell feeds
  power: [false, { board: [true, "string"], cell: [true, ["buckboost", "5V"]] }],
  budget: [true, { bytes: [true, "number"], jsvars: [true, "number"] }],
};

function checkShape(obj, shape, where, file) {
  const fail = (m) => {
    throw new ProfileError(
      `${file}: ${m}. The wiring generator (hardware/tools/wiring.mjs) does not know this profile shape: ` +
        "teach it the change, then run `node hardware/tools/wiring.mjs`.",
    );
  };
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) fail(`${where || "the profile"} must be an object`);
  for (const k of Object.keys(obj)) if (!(k in shape)) fail(`unknown field ${where}${k}`);
  for (const [k, [required, rule]] of Object.entries(shape)) {
    const v = obj[k];
    const at = `${where}${k}`;
    if (v === undefined) {
      if (required) fail(`missing field ${at}`);
      continue;
    }
    if (Array.isArray(rule)) {
      if (!rule.includes(v)) fail(`${at} is ${JSON.stringify(v)}, expected one of ${rule.join(", ")}`);
    } else if (rule === "links") {
      if (!Array.isArray(v) || !v.length || v.some((l) => l !== "wifi" && l !== "serial"))
        fail(`${at} is ${JSON.stringify(v)}, expected a list of "wifi", "serial"`);
    } else if (rule === "features") {
      const known = ["ota", "find", "mount", "rssi", "batcal"];
      if (!Array.isArray(v) || v.some((f) => !known.includes(f)))
        fail(`${at} is ${JSON.stringify(v)}, expected a list of ${known.map((f) => `"${f}"`).join(", ")}`);
    } else if (rule === "pin") {
      if (typeof v !== "string" || !/^(D\d{1,2}|A0)$/.test(v))
        fail(`${at} is ${JSON.stringify(v)}, expected a pin like D14 or A0`);
    } else if (typeof rule === "string") {
      if (typeof v !== rule) fail(`${at} must be a ${rule}`);
    } else checkShape(v, rule, `${at}.`, file);
  }
}

// ---------------------------------------------------------------- pins per chip

/** What is printed next to the pin on the common boards. */
function printed(chip, pin) {
  if (pin === "A0") return "A0";
  const g = gpio(pin);
  if (chip === "ESP8266") return NODEMCU[g] ?? `GPIO${g} (not broken out)`;
  return `${g} (D${g}, G${g} or IO${g})`;
}

/** Refuses pins that cannot do their job on the chip, with the reason (hardware/tools/pins.mjs). */
function checkPins(b, file) {
  if (b.chip !== "NRF52") {
    if (b.led.kind === "neopixel" && !b.led.pin)
      throw new ProfileError(`${file}: led.pin is required for a neopixel LED`);
    if (b.led.kind === "rgb")
      for (const k of ["pr", "pg", "pb"])
        if (!b.led[k]) throw new ProfileError(`${file}: led.${k} is required for an RGB LED`);
    const imu = imuOf(b);
    if (imu.needs.fields.some((f) => !b.imu[f])) throw new ProfileError(`${file}: ${imu.needs.why}`);
  }
  const p = pinProblems(b);
  if (p.length) throw new ProfileError(`${file}: ${p.join("; ")}`);
}

/** Refuses a profile whose parts are out of their rating in a power mode its page documents (hardware/tools/power.mjs). */
function checkPower(b, file) {
  if (b.led.kind === "neopixel" && b.chip !== "NRF52" && !b.led.vcc)
    throw new ProfileError(`${file}: led.vcc is required for a neopixel LED: the net its VCC is wired to`);
  const p = powerProblems(b);
  if (p.length) throw new ProfileError(`${file}: out of rating: ${p.join("; ")}`);
}

export function loadBoards(dir = BOARDS_DIR) {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  if (!files.length) throw new ProfileError(`no board profiles in ${dir}`);
  return files.map((f) => {
    const file = `hardware/boards/${f}`;
    let b;
    try {
      b = JSON.parse(readFileSync(join(dir, f), "utf8"));
    } catch (e) {
      throw new ProfileError(`${file}: not JSON (${e.message})`);
    }
    checkBoard(b, file);
    if (`${b.name}.json` !== f) throw new ProfileError(`${file}: name "${b.name}" does not match the file name`);
    return b;
  });
}

export function checkBoard(b, file) {
  checkShape(b, SHAPE, "", file);
  checkPins(b, file);
  checkPower(b, file);
  return b;
}

// ---------------------------------------------------------------- parts

/** Parts catalogue: module name people search for, and an approximate price (EUR, 2024, single unit from the usual online shops). */
const PART = {
  ESP32: {
    part: "ESP32 dev board",
    module: 'ESP32 DevKitC / "ESP32 DevKit V1" (ESP32-WROOM-32, CP2102 or CH340 USB)',
    eur: 6,
  },
  ESP8266: {
    part: "ESP8266 dev board",
    module: "Wemos D1 mini (recommended) or NodeMCU v2/v3 (ESP-12E/F, 4 MB)",
    eur: 3,
  },
  // the IMUs to buy (hardware/imus)
  ...Object.fromEntries(Object.values(IMUS).flatMap((e) => (e.part ? [[e.kind, e.part]] : []))),
  trigger: { part: "trigger switch", module: "lever microswitch KW11-3Z (or a 6×6 mm tactile button)", eur: 0.3 },
  neopixel: {
    part: "LED",
    module: 'WS2812B on a small breakout ("WS2812 RGB LED module", or one LED cut from a strip)',
    eur: 0.5,
  },
  rgb: { part: "LED", module: "5 mm RGB LED, 4 legs, common cathode (common anode: set led.inv)", eur: 0.2 },
  // green and blue legs drop ≈ 2.8-3.2 V, red ≈ 1.9 V: at 3.3 V one value for all three starves green and blue
  rgbRes: {
    part: "LED resistors",
    module: `1 × ${RES.rgb.r} Ω (red), 2 × ${RES.rgb.g} Ω (green, blue), 1/4 W`,
    eur: 0.05,
  },
  NRF52: {
    part: "Puck.js v2",
    module: "Puck.js v2 / v2.1 (espruino.com or its resellers): nRF52832, accelerometer + gyro, button, LEDs, CR2032",
    eur: 40,
  },
  coin: { part: "battery", module: "CR2032 coin cell (the Puck takes one; a fresh, branded one)", eur: 1 },
  tape: {
    part: "mounting",
    module: "double-sided foam tape or Velcro dots, and a strip of gaffer / electrical tape",
    eur: 2,
  },
  piezoClip: {
    part: "buzzer (optional)",
    module: "bare piezo disc with leads (20-27 mm, no oscillator inside), soldered to the D2 and GND pads",
    eur: 0.5,
  },
  piezo: {
    part: "buzzer",
    module:
      'bare piezo disc with leads (20-27 mm piezo element, no oscillator inside); not an active buzzer, not a magnetic "passive buzzer" module',
    eur: 0.3,
  },
  piezoRes: { part: "buzzer resistor", module: `${RES.piezo} Ω, 1/4 W, in series with the piezo`, eur: 0.02 },
  batCap: {
    part: "battery sense capacitor",
    module: "100 nF ceramic, from the battery pin to GND",
    eur: 0.05,
  },
  lipo: { part: "battery", module: "1S LiPo 3.7 V 1000 mAh with JST-PH plug and protection (e.g. 603450)", eur: 6 },
  charger: {
    part: "charger",
    module:
      "TP4056 charger board with protection (DW01A, 6 pads: B+ B- OUT+ OUT-), micro-USB, or USB-C with its two 5.1 kΩ CC pull-downs (many USB-C boards leave them out and charge only from a USB-A cable: test it with a C-to-C cable); sold set to 1 A (R_PROG 1.2 kΩ): fine for 1000 mAh, for a smaller cell change R_PROG (the current is ≈ 1200 V / R_PROG: 2.4 kΩ → 0.5 A; TP4056 datasheet)",
    eur: 0.7,
  },
  regulator: {
    part: "3.3 V regulator",
    module: `${PARTS.regulators.buckboost.what}`,
    eur: 3,
  },
  switch: { part: "power switch", module: "slide switch SS12D00", eur: 0.1 },
  cap: { part: "capacitor", module: "470 µF 6.3 V electrolytic across 3V3/GND (WiFi current peaks)", eur: 0.1 },
  // only for the magnetic buzzer the pages offer instead of the piezo
  magnetic: {
    part: "magnetic buzzer (instead of the piezo)",
    module: `NPN transistor (S8050, 2N2222), 1 kΩ, ${RES.magnetic} Ω, 1N4148 diode`,
    eur: 0.1,
  },
  misc: {
    part: "wire, heat-shrink, hot glue",
    module: "26-28 AWG silicone wire, 2-pin JST-PH pair for the battery",
    eur: 2,
  },
};

/** Why the cell goes through the buck-boost module and not the board's own regulator. */
function regulatorNote(b) {
  const board = PARTS.boards[b.power.board];
  const ldo = PARTS.regulators[board.ldo];
  return b.chip === "ESP8266"
    ? `never the D1 mini's 5V pin: its own regulator (${ldo.ma} mA, or ${PARTS.regulators.LDO150.ma} mA on many clones) drops out as the cell runs down, the WiFi's peaks then reset the board, and USB's 5 V would reach the cell past the charger`
    : `never the DevKit's 5V/VIN pin: its ${board.ldo} needs ≈ ${(ldo.out + ldo.dropout[1]).toFixed(1)} V in and browns out as the cell runs down`;
}

/** Supply current, mA, with where the figure comes from (datasheets; not measured on these builds). */
const CURRENT = {
  ESP32: [
    125,
    "ESP32 with WiFi connected, no sleep: ≈ 95-100 mA receiving, up to 240 mA sending (Espressif datasheet; the peaks: Power modes)",
  ],
  ESP8266: [
    80,
    "ESP8266 with WiFi connected, no sleep: ≈ 56 mA receiving, up to 215 mA sending (Espressif datasheet; the peaks: Power modes)",
  ],
  ...Object.fromEntries(Object.values(IMUS).map((e) => [e.kind, e.current])),
  neopixel: [4, "WS2812B: ≈ 1 mA dark, ≤ 60 mA × max brightness when white; a few mA on average in a game"],
  rgb: [5, "RGB LED, 220 Ω on red, 47 Ω on green and blue: ≈ 4-6 mA a colour × max brightness; a few mA on average"],
  piezo: [0.5, "piezo disc: under 1 mA while it sounds (it is a ≈ 20 nF capacitor)"],
  NRF52: [
    2.5,
    "nRF52832 running the firmware at 52 Hz and a Bluetooth connection streaming aim: ≈ 1.5-3 mA (Nordic datasheet, Espruino's Puck.js power figures)",
  ],
  puckLeds: [
    2,
    "the Puck's own LEDs at the profile's brightness cap: ≈ 2 mA on average (the target's colour shows while aiming)",
  ],
};

/** Parts of a profile: [id, qty, note]. */
function bomOf(b) {
  if (b.chip === "NRF52")
    return [
      ["NRF52", 1, "its accelerometer + gyro, button and LEDs are the gun's; nothing to solder"],
      ["coin", 1, ""],
      ["tape", 1, ""],
      ["piezoClip", 0, "only for sound; the LEDs give every cue without it"],
    ];
  const rows = [
    [
      b.chip,
      1,
      psramPins(b).length
        ? `**not a WROVER module**: ${psramPins(b)
            .map((r) => r.pin)
            .join(", ")} carry a WROVER's PSRAM`
        : "",
    ],
    [b.imu.kind, 1, imuOf(b).part?.note ?? ""],
    ["trigger", 1, ""],
    [b.led.kind, 1, b.led.kind === "neopixel" ? "+ 330 Ω resistor in the data line" : ""],
    ...(b.led.kind === "rgb" ? [["rgbRes", 1, "≈ 4-6 mA a colour at 3.3 V, so the seat colours keep their hue"]] : []),
    ["piezo", 1, ""],
    ["piezoRes", 1, `limits its charging peaks to 10 mA${b.chip === "ESP8266" ? " (an ESP8266 pin gives 12 mA)" : ""}`],
    ["lipo", 1, ""],
    ["charger", 1, ""],
    [
      "regulator",
      1,
      `into 3V3 from the switched cell, which it holds at 3.3 V from 4.2 V down to 3.0 V; ${regulatorNote(b)}`,
    ],
    ["switch", 1, ""],
    ["cap", 1, ""],
  ];
  if (b.bat) rows.push(["divider", 1, ""], ["batCap", 1, capNote(b)]);
  rows.push(["misc", 1, ""]);
  return rows;
}

function fmtEur(x) {
  return `€${x < 1 ? x.toFixed(2) : x.toFixed(x % 1 ? 1 : 0)}`;
}

// ---------------------------------------------------------------- connections

/** The battery sense resistors that make the profile's divider `div` (battery volts per pin volt). */
function divider(b) {
  if (!b.bat) return null;
  const d = b.bat.div;
  // where its top is soldered: the charger's B+ pad reads the cell in every mode, the switch on or off
  const from = TOP[b.bat.top];
  if (b.chip === "ESP32") {
    // div = (top + bottom) / bottom, bottom 100 kΩ
    const top = Math.round((d - 1) * 100);
    if (top <= 0) throw new ProfileError(`bat.div ${d}: no divider gives that`);
    return { text: `${top} kΩ from ${from} to ${b.bat.pin}, 100 kΩ from ${b.bat.pin} to GND`, top, bottom: 100 };
  }
  // D1 mini / NodeMCU have 220 k + 100 k on A0 already (3.2 V full scale); a series resistor stretches it.
  const series = Math.round((d - 3.2) * 100);
  if (series <= 0) throw new ProfileError(`bat.div ${d} needs no extra resistor on a D1 mini`);
  return { text: `${series} kΩ from ${from} to A0 (with the board's own 220 k/100 k divider)`, top: series, bottom: 0 };
}

/** The nets as a builder finds them on the parts. */
const TOP = {
  "B+": "the TP4056 board's B+ pad (the cell itself, before the switch)",
  OUT: "the switch's far side (OUT+ after the switch)",
  "5V": "the board's 5V pin",
  "3V3": "3V3",
};

/** Why the battery pin has a capacitor: the ADC's sampling draws on it, not on the divider's high resistance. */
function capNote(b) {
  const d = divider(b);
  if (b.chip === "ESP8266") return "it holds A0 steady behind the divider while the ADC samples";
  return `the ADC samples the ${Math.round((d.top * d.bottom) / (d.top + d.bottom))} kΩ divider through it`;
}

/** How the firmware turns the battery pin's reading into volts (hardware/chips.json, firmware/build/build.mjs). */
function batReading(b) {
  const adc = CHIPS[b.chip].adc;
  const d = b.bat.div;
  return adc.kind === "esp32"
    ? `${b.bat.pin}; volts = (count × ${adc.mvPerCount.toFixed(3)} mV + ${adc.offsetMv} mV) × ${d}: the ESP32 ADC's typical transfer at 11 dB (Espruino reads it uncalibrated; chips spread ± ${Math.round((adc.vrefSpreadMv / adc.vrefMv) * 100)} %), times this gun's calibration (Setup)`
    : `${b.bat.pin}; volts = analogRead × ${adc.fullScaleV} V × ${d}, times this gun's calibration (Setup)`;
}

/** The page's power section for a LiPo gun: its wiring, the switch and why, the charger's quirks, the board's regulator
 * (a D1 mini's: how to tell which), each power mode checked (hardware/tools/power.mjs), the magnetic buzzer's circuit. */
function powerSection(b) {
  const G = b.chip === "ESP8266" ? "G" : "GND";
  const board = PARTS.boards[b.power.board];
  const coil = PARTS.parts.magnetic;
  const lines = [
    `LiPo → TP4056 board (B+/B−) → its OUT+ → slide switch → the 3.3 V buck-boost module's VIN → its VOUT → the board's **3V3** pin; OUT−, the module's GND → ${G}. ` +
      `${regulatorNote(b)[0].toUpperCase()}${regulatorNote(b).slice(1)}. Solder the 470 µF capacitor across 3V3 and ${G} near the board.`,
    "",
    b.bat
      ? `The battery divider's top goes on ${TOP[b.bat.top]}: there it reads the cell whatever the switch says, so \`cng check\` on USB and a serial gun read it too; taken after the switch, it reads nothing whenever the switch is off.`
      : "",
    "",
    "**The switch is off whenever a USB cable is in the board** (flashing, `cng check`, a serial gun): the board's own regulator (from USB) and the buck-boost module (from the cell) would both drive 3V3, and the cell would run down on the bench. " +
      "Charge through the TP4056's own USB socket with the switch off too: the gun's draw would hide the charge's end from the charger.",
    "",
    "A protected TP4056 board (DW01A) holds OUT+ at 0 V after a cell is first soldered to it, until 5 V has been on its USB socket once: plug its charger in once before the first power-up, or the gun looks dead. " +
      "A USB-C board charges from a C-to-C cable only with its two 5.1 kΩ CC pull-downs fitted (many leave them out: then it charges from a USB-A charger only).",
    "",
    ...(b.power.board === "d1mini"
      ? [
          `**Which regulator your D1 mini has**: read the marking on the small regulator chip by its USB socket. ${PARTS.regulators.ME6211.what.replace(/^ME6211C33M5G, 5 legs, marked S2RC/, "S2RC is an ME6211, 500 mA")}: good in every mode below. ` +
            `4B2X or 4A2D is a ${PARTS.regulators.LDO150.ma} mA part many boards sold as D1 mini carry: good on the battery (the buck-boost module feeds 3V3 then, past it), but under the WiFi's transmit peaks on USB (${PARTS.parts.ESP8266.peakMa} mA and more): on USB such a board may reset, and it cannot be a power-bank gun. Flash and check it on USB, play it on its battery, and take a board marked S2RC or a NodeMCU (AMS1117, 1 A) for a power bank.`,
          "",
        ]
      : []),
    "### Power modes",
    "",
    `Each mode this page documents, as \`hardware/tools/power.mjs\` checks it against the parts' ratings (\`hardware/parts.json\`, from their datasheets; the build and this page refuse a profile out of rating): ${board.what}.`,
    "",
    table(["mode", "powered by", "3V3 from (rated)", "peak on 3V3", "LED", "battery reading"], powerRows(b)),
    "",
    "### A magnetic buzzer instead of the piezo disc",
    "",
    `A "passive buzzer" module with a coil (≈ ${coil.ohms} Ω) on the pin, even through 100 Ω, would draw ≈ 28 mA, past what a pin gives (${b.chip} ≈ ${CHIPS[b.chip].pinMa} mA), and its coil kicks back when it stops. ` +
      `Drive it through an NPN transistor (S8050, 2N2222): 1 kΩ from \`${b.bz.pin}\` to the base, emitter to ${G}, from 3V3 through **${RES.magnetic} Ω** then the buzzer to the collector, and a 1N4148 diode across the buzzer (its band to the buzzer's + side). ` +
      `The ${RES.magnetic} Ω holds the coil to ≈ ${Math.round(magneticMa())} mA: without it the coil alone pulls ≈ ${Math.round(magneticMa(0))} mA pulses from the 3V3 rail the WiFi runs on. A bare piezo disc needs none of that.`,
    "",
  ];
  return lines.filter((l, i) => l !== "" || lines[i - 1] !== "");
}

/** Rows of the pin table: [part, part pin, board pin (Espruino name) or supply, note]. */
function connections(b) {
  const rows = [];
  if (b.chip === "NRF52")
    return [
      ...imuOf(b).wiring(b.imu, "3V3"),
      ["trigger (the Puck's button)", "on the board", b.trig.pin, "press the Puck itself; pressed reads 1"],
      ["LED red", "on the board", b.led.pr, "LED1"],
      ["LED green", "on the board", b.led.pg, "LED2"],
      ["LED blue", "on the board", b.led.pb, "LED3"],
      [
        "piezo (optional)",
        "+",
        b.bz.pin,
        "soldered to the pad: take the PCB out of its case first; no resistor needed",
      ],
      ["piezo (optional)", "−", "GND", ""],
    ];
  const three = "3V3";
  rows.push(...imuOf(b).wiring(b.imu, three));
  const pressedTo = b.trig.pressed === 0 ? "GND" : three;
  rows.push(
    [
      "trigger switch",
      "COM",
      b.trig.pin,
      b.trig.pressed === 0 ? "internal pull-up; pressed reads 0" : "needs a 10 kΩ pull-down; pressed reads 1",
    ],
    ["trigger switch", "NO", pressedTo, "normally open contact"],
  );
  if (b.led.kind === "neopixel") {
    rows.push(
      ["LED (WS2812B)", "DIN", b.led.pin, `through ${RES.neopixelData} Ω`],
      ["LED (WS2812B)", "5V / VCC", b.led.vcc, TOP[b.led.vcc]],
      ["LED (WS2812B)", "GND", "GND", ""],
    );
  } else {
    rows.push(
      ["LED (RGB)", "R", b.led.pr, `through ${RES.rgb.r} Ω`],
      ["LED (RGB)", "G", b.led.pg, `through ${RES.rgb.g} Ω (green and blue drop ≈ 3 V)`],
      ["LED (RGB)", "B", b.led.pb, `through ${RES.rgb.b} Ω`],
      ["LED (RGB)", b.led.inv ? "common anode (long leg)" : "common cathode (long leg)", b.led.inv ? three : "GND", ""],
    );
  }
  rows.push(
    [
      "piezo",
      "+",
      b.bz.pin,
      `through ${RES.piezo} Ω${b.bz.soft ? "; software PWM on the ESP8266" : ""}; a magnetic buzzer instead needs a transistor and a diode (below)`,
    ],
    ["piezo", "−", "GND", ""],
  );
  const d = divider(b);
  if (d)
    rows.push(
      ["battery sense", "divider", b.bat.pin, d.text],
      ["battery sense", "100 nF", b.bat.pin, `from ${b.bat.pin} to GND, close to the board`],
    );
  return rows;
}

// ---------------------------------------------------------------- markdown

function table(head, rows) {
  const esc = (s) => String(s).replace(/\|/g, "\\|");
  return [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.map(esc).join(" | ")} |`),
  ].join("\n");
}

/** The share of a CR2032's rated 225 mAh a Puck gets at its few mA, above its 2.2 V (see runtime). */
const COIN_USABLE = 0.15;

/** The parts' sizes, mm, roughly (their makers' or sellers' figures): what a blaster must hold. */
const SIZE = {
  ESP32: "ESP32 DevKitC ≈ 55 × 28 × 13 (with its pins)",
  ESP8266: "Wemos D1 mini ≈ 35 × 26 × 8 (a NodeMCU ≈ 58 × 31)",
  ...Object.fromEntries(Object.values(IMUS).flatMap((e) => (e.size ? [[e.kind, e.size]] : []))),
  lipo: "LiPo 603450: 50 × 34 × 6 (the name is its size: 6.0 mm thick, 34 wide, 50 long)",
  charger: "TP4056 board ≈ 26 × 17",
  regulator: "buck-boost module ≈ 15 × 12",
};

function runtime(b) {
  const parts = [b.chip, b.imu.kind, b.chip === "NRF52" ? "puckLeds" : b.led.kind, "piezo"];
  const total = parts.reduce((s, p) => s + CURRENT[p][0], 0);
  const regulatorLoss = b.power?.cell === "buckboost" ? 0.9 : 1;
  // a CR2032 is rated 225 mAh at 0.2 mA; at several mA it sags below the Puck's 2.2 V after a small part of that
  // (one test at 9 mA: under 2.5 V in half an hour, 1.5 V by 12 h, https://embeddedcomputing.com/technology/open-source/
  // development-kits/cr2032-maximum-current-capacity-datasheet-reality-and-alternatives): about 15 % of it
  const hours = b.chip === "NRF52" ? (225 * COIN_USABLE) / total : (1000 * 0.85 * regulatorLoss) / total;
  return { parts, total: Math.round(total * 10) / 10, hours };
}

/** Where the pin is on the board, as printed. */
function printedAt(b, pin) {
  if (b.chip !== "NRF52") return printed(b.chip, pin);
  return PUCK.pads.includes(pin) ? `${pin} (a pad on the PCB, under the silicone cover)` : "inside (on the board)";
}

export function renderMarkdown(b) {
  const bom = bomOf(b);
  const bomRows = bom.map(([id, qty, note]) => {
    if (id === "divider") {
      const d = divider(b);
      const what = d.bottom ? `${d.top} kΩ + ${d.bottom} kΩ resistors` : `${d.top} kΩ resistor`;
      return ["battery sense", qty, `${what}, 1 %`, note || d.text, fmtEur(0.05)];
    }
    const p = PART[id];
    return [p.part, qty === 0 ? "0-1" : qty, p.module, note, fmtEur(p.eur)];
  });
  const sum = bom.reduce((s, [id, qty]) => s + (id === "divider" ? 0.05 : PART[id].eur * qty), 0);
  const pins = connections(b).map(([part, pp, pin, note]) => [
    part,
    pp,
    /^(D\d+|A0)$/.test(pin) ? `\`${pin}\`` : pin,
    /^(D\d+|A0)$/.test(pin) ? printedAt(b, pin) : "",
    note,
  ]);
  const rt = runtime(b);
  const lines = [
    `<!-- Generated by hardware/tools/wiring.mjs from hardware/boards/${b.name}.json: do not edit, run the script. -->`,
    `# Gun build: \`${b.name}\``,
    "",
    b.summary,
    "",
    `![wiring diagram](${b.name}.svg)`,
    "",
    "## Parts",
    "",
    table(["part", "qty", "what to buy", "note", "≈ price"], bomRows),
    "",
    `Roughly ${fmtEur(Math.round(sum))} of parts, plus a foam gun to put them in.`,
    "",
    "## Pins",
    "",
    `Pin names are Espruino's (\`D14\` = GPIO14), as in the profile. ${
      b.chip === "NRF52"
        ? "On a Puck.js everything but the piezo is on the board: there is nothing to wire, and nothing to solder unless you add the piezo (two wires on its pads)."
        : b.chip === "ESP8266"
          ? '**On a D1 mini or NodeMCU the printed labels are different**: use the "printed on the board" column.'
          : "ESP32 boards print the GPIO number, sometimes with a D, G or IO in front."
    }`,
    "",
    table(["part", "part pin", "board pin", "printed on the board", "note"], pins),
    "",
    "## Power",
    "",
    ...(b.chip === "NRF52"
      ? [
          "A CR2032 coin cell in the Puck's holder: no charger, no switch (take the cell out, or flip it, to switch off; " +
            "a Puck with its coin cell out is off). The gun talks to the hub over Bluetooth Low Energy: the hub's laptop, or " +
            "the dashboard in a Chromium browser, bridges its lines (hardware/SERIAL.md) onto the broker.",
          "",
          "Flash it over Bluetooth from the Espruino Web IDE (hardware/PUCK.md): a Puck has no USB socket.",
          "",
        ]
      : powerSection(b)),
    "## Fitting it in a blaster",
    "",
    b.chip === "NRF52"
      ? "A Puck.js is 36 mm across and 12.5 mm thick in its case (Espruino's Puck.js page): it goes on the outside of any gun, the game's own solid foam ones too. Tape it where the trigger finger presses it (hardware/PUCK.md)."
      : "The game's own foam guns are solid foam: nothing goes inside them. Buy a hollow plastic toy blaster whose two shell halves are held by screws (most Nerf-style pistols are), and check before buying that its body or grip has room for the parts below, laid side by side or stacked with foam tape between them: " +
        [b.chip, b.imu.kind, "lipo", "charger", "regulator"].map((k) => SIZE[k]).join("; ") +
        " (mm). " +
        (b.chip === "ESP32"
          ? "The ESP32 module's antenna is the end of its metal can with the zig-zag trace on the board: put that end at the shell's edge, at least 1 cm from the battery, the wires and any screw or weight, never behind metal or foil (Setup shows each gun's WiFi signal). "
          : "The D1 mini's antenna is the zig-zag trace at its end, away from the USB socket: keep it at the shell's edge, at least 1 cm from the battery, the wires and any metal. ") +
        "Leave the board's USB socket reachable through a slot in the shell (flashing, `cng check`, the serial link) and the charger's socket too (charging).",
    "",
    "## Expected runtime",
    "",
    table(
      ["draws", "mA (average)", "source"],
      rt.parts.map((p) => [p, CURRENT[p][0], CURRENT[p][1]]),
    ),
    "",
    `About ${rt.total} mA in all: ${b.chip === "NRF52" ? `a CR2032 (rated 225 mAh at 0.2 mA; at this drain its voltage sags below the Puck's 2.2 V after about ${Math.round(COIN_USABLE * 100)} % of it: one test at 9 mA saw it under 2.5 V in half an hour; carry spare cells)` : `a 1000 mAh LiPo (85 % usable${b.power?.cell === "buckboost" ? ", 90 % regulator efficiency" : ""})`} lasts **about ${rt.hours.toFixed(
      1,
    )} hours** of play. These are datasheet figures, not measurements: ${b.chip === "NRF52" ? "watch" : "check yours with a USB power meter on the board's USB socket, and watch"} the battery column on the dashboard's Setup page.`,
    "",
    "## Firmware facts for this board",
    "",
    table(
      ["", ""],
      [
        ["chip", b.chip],
        ["console baud (for `cng flash`)", b.baud],
        ["IMU", imuOf(b).summary(b.imu, imuHz(b))],
        ["trigger", `${b.trig.pin}, pressed reads ${b.trig.pressed}`],
        [
          "LED",
          b.led.kind === "neopixel"
            ? `WS2812B on ${b.led.pin}`
            : `RGB PWM on ${b.led.pr}/${b.led.pg}/${b.led.pb}${b.led.inv ? ", common anode" : ""}`,
        ],
        ["LED brightness cap", `${Math.round((b.led.max ?? 1) * 100)} %`],
        ["buzzer", `${b.bz.pin}${b.bz.soft ? ", software PWM" : ""}`],
        [
          "battery",
          b.chip === "NRF52" ? "the coin cell, E.getBattery() (percent)" : b.bat ? batReading(b) : "not measured",
        ],
        ...(b.chip === "NRF52" ? [["link", `the line protocol (hardware/SERIAL.md) over ${b.con}'s Nordic UART`]] : []),
        ["code budget", `${b.budget.bytes} bytes, ${b.budget.jsvars} JsVars`],
        ["firmware features", b.has?.length ? b.has.join(", ") : "none"],
        ["Storage", b.storage ? `${Math.round(b.storage / 1024)} KB` : "not stated"],
      ],
    ),
    "",
  ];
  return lines.join("\n");
}

// ---------------------------------------------------------------- svg

const WIRE = { "3V3": "#d62728", GND: "#222222", "BAT (OUT+)": "#ff7f0e" };
const SIGNAL = ["#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"];

function xml(s) {
  return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function renderSvg(b) {
  const rows = connections(b);
  const rowH = 26;
  const top = 70;
  const height = top + rows.length * rowH + 50;
  const width = 860;
  const boardX = 20;
  const boardW = 230;
  const partX = 560;
  const out = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<!-- Generated by hardware/tools/wiring.mjs from hardware/boards/${b.name}.json -->`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${boardX}" y="24" font-size="16" font-weight="bold">${xml(b.name)}: wiring</text>`,
    `<text x="${boardX}" y="44" fill="#555">${xml(`Board pins are Espruino names${b.chip === "ESP8266" ? " (D1 mini / NodeMCU label in brackets)" : ""}; resistors sit in the wire.`)}</text>`,
    `<rect x="${boardX}" y="${top - 16}" width="${boardW}" height="${rows.length * rowH + 28}" rx="8" fill="#e8f0f8" stroke="#335"/>`,
    `<text x="${boardX + 10}" y="${top + 2}" font-weight="bold">${xml(b.chip === "ESP32" ? "ESP32 DevKit" : b.chip === "NRF52" ? "Puck.js v2" : "ESP8266 D1 mini / NodeMCU")}</text>`,
  );
  // group rows by part for the boxes on the right
  const groups = [];
  rows.forEach((r, i) => {
    const g = groups.at(-1);
    if (g && g.part === r[0]) g.last = i;
    else groups.push({ part: r[0], first: i, last: i });
  });
  for (const g of groups) {
    const y0 = top + g.first * rowH + 6;
    const h = (g.last - g.first + 1) * rowH - 4;
    out.push(
      `<rect x="${partX}" y="${y0}" width="280" height="${h}" rx="6" fill="#f7f3e8" stroke="#876"/>`,
      `<text x="${partX + 272}" y="${y0 + 15}" text-anchor="end" font-weight="bold">${xml(g.part)}</text>`,
    );
  }
  let sig = 0;
  rows.forEach(([, partPin, pin, note], i) => {
    const y = top + i * rowH + 20;
    const isPin = /^(D\d+|A0)$/.test(pin);
    const colour = isPin ? SIGNAL[sig++ % SIGNAL.length] : (WIRE[pin] ?? "#555");
    const label = isPin && b.chip === "ESP8266" ? `${pin} [${printed(b.chip, pin)}]` : pin;
    out.push(
      `<text x="${boardX + boardW - 8}" y="${y + 4}" text-anchor="end">${xml(label)}</text>`,
      `<circle cx="${boardX + boardW}" cy="${y}" r="3.5" fill="${colour}"/>`,
      `<line x1="${boardX + boardW}" y1="${y}" x2="${partX}" y2="${y}" stroke="${colour}" stroke-width="2.5"/>`,
      `<circle cx="${partX}" cy="${y}" r="3.5" fill="${colour}"/>`,
      `<text x="${partX + 8}" y="${y + 4}">${xml(partPin)}</text>`,
    );
    const res = /through (\d+ Ω)/.exec(note);
    if (res) {
      const rx = (boardX + boardW + partX) / 2 - 22;
      out.push(
        `<rect x="${rx}" y="${y - 6}" width="44" height="12" fill="#fff" stroke="${colour}" stroke-width="1.5"/>`,
        `<text x="${rx + 22}" y="${y + 4}" text-anchor="middle" font-size="9">${xml(res[1])}</text>`,
      );
    }
    if (partPin === "divider") {
      out.push(
        `<text x="${(boardX + boardW + partX) / 2}" y="${y - 6}" text-anchor="middle" font-size="10">${xml(note)}</text>`,
      );
    }
  });
  out.push(
    `<text x="${boardX}" y="${height - 14}" fill="#555">${xml(b.chip === "NRF52" ? "All on the board but the optional piezo. Tape the Puck on rigidly, any way round; the wizard finds how it sits." : `Red 3V3, black GND${b.bat ? ", the divider from the charger's B+ pad (before the switch)" : ""}. Power: see the page. Mount the IMU flat, X arrow to the muzzle.`)}</text>`,
    "</svg>",
    "",
  );
  return out.join("\n");
}

// ---------------------------------------------------------------- files

/** Every generated file: [path relative to the repository, text]. */
export function outputs(dir = BOARDS_DIR) {
  const boards = loadBoards(dir);
  const files = [];
  for (const b of boards) {
    files.push([`hardware/wiring/${b.name}.md`, renderMarkdown(b)]);
    files.push([`hardware/wiring/${b.name}.svg`, renderSvg(b)]);
  }
  return files;
}

const USAGE = `Usage: node hardware/tools/wiring.mjs [--check]

Writes hardware/wiring/<board>.md (parts, pins, power, runtime) and <board>.svg (diagram) from the board
profiles in hardware/boards/*.json.

  --check   write nothing; exit 1 and name each committed file that is out of date
  --help    show this and exit
`;

function main() {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(USAGE);
    return;
  }
  const unknown = args.filter((a) => a !== "--check");
  if (unknown.length) {
    process.stderr.write(
      `wiring: unknown argument ${unknown.map((a) => JSON.stringify(a)).join(", ")}; nothing written\n${USAGE}`,
    );
    process.exit(2);
  }
  const check = args.includes("--check");
  const root = join(here, "..", "..");
  let files;
  try {
    files = outputs();
  } catch (e) {
    if (e instanceof ProfileError) {
      process.stderr.write(`wiring: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  let stale = 0;
  for (const [rel, text] of files) {
    const path = join(root, rel);
    if (check) {
      let old = "";
      try {
        old = readFileSync(path, "utf8");
      } catch {}
      if (old !== text) {
        stale++;
        process.stderr.write(`out of date: ${rel}\n`);
      }
    } else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      process.stdout.write(`wrote ${rel}\n`);
    }
  }
  if (stale) {
    process.stderr.write("run: node hardware/tools/wiring.mjs\n");
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
