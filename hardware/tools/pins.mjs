// Which pins a board profile may use, and why not: the chip facts in hardware/chips.json applied to the roles a
// profile gives its pins. The firmware build refuses a profile these rules refuse (firmware/build/build.mjs), and so
// does the wiring generator (hardware/tools/wiring.mjs).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { IMUS, imuOf } from "../imus/index.mjs";

const here = dirname(fileURLToPath(import.meta.url));

/**
 * hardware/chips.json: per chip, the GPIOs it has, its console, flash, input-only, DAC and strapping pins, the pins its
 * I2C can drive, serial defaults and ADC.
 */
export const CHIPS = JSON.parse(readFileSync(join(here, "..", "chips.json"), "utf8"));

/** NodeMCU / Wemos D1 mini silkscreen labels of the ESP8266 GPIOs (they differ from Espruino's D names). */
export const NODEMCU = {
  16: "D0",
  5: "D1",
  4: "D2",
  0: "D3",
  2: "D4",
  14: "D5",
  12: "D6",
  13: "D7",
  15: "D8",
  3: "RX",
  1: "TX",
};

/** Puck.js v2: what is on the board (firmware/src/puck.ts, Espruino's boards/PUCKJS.py), and its pads for a piezo. */
export const PUCK = { btn: "D0", leds: ["D5", "D4", "D3"], pads: ["D1", "D2", "D28", "D29", "D30", "D31"] };

export function gpio(pin) {
  return pin === "A0" ? null : Number(pin.slice(1));
}

/**
 * Each pin a profile uses: what it does, what it needs of the pin (`pwm`: analogWrite with a frequency or a duty
 * cycle; `out`: a digital output; `i2c`: open-drain both ways; `in`: an input with the internal pull-up; `rx`, `adc`:
 * inputs) and the level its wiring holds the pin at while the chip resets (`low`, `high` or `open`), which is what a
 * strapping pin reads.
 */
export function rolesOf(b) {
  const r = [];
  const add = (what, pin, needs, atReset) => r.push({ what, pin, needs, atReset });
  // a magnetic buzzer's coil or a transistor's base pulls the pin down; a bare piezo disc would not
  add("buzzer", b.bz.pin, "pwm", "low");
  if (b.led.kind === "neopixel") add("LED", b.led.pin, "out", "open");
  else {
    // a common anode's leg sits near 3V3 through the LED; a common cathode's holds the pin at the LED's forward
    // voltage, ≈ 1.7-2.6 V at a pull-up's fraction of a mA: under the chip's input-high threshold (0.75 × 3.3 V)
    const lvl = b.led.inv ? "high" : "low";
    add("LED red", b.led.pr, "pwm", lvl);
    add("LED green", b.led.pg, "pwm", lvl);
    add("LED blue", b.led.pb, "pwm", lvl);
  }
  for (const u of imuOf(b)?.pins(b.imu) ?? []) add(u.what, u.pin, u.needs, u.atReset);
  // the switch to GND closed while the trigger is held through a reset (which gives the console back: SERIAL.md)
  add("trigger", b.trig.pin, b.trig.pressed ? "rx" : "in", b.trig.pressed ? "high" : "low");
  if (b.bat) add("battery", b.bat.pin, "adc", "high");
  return r.filter((x) => x.pin !== undefined);
}

const OUTPUT = ["pwm", "out", "i2c"];

/** Why each pin of a profile cannot do its job on its chip: a list of sentences, empty when all is well. */
export function pinProblems(b) {
  if (b.chip === "NRF52") return puckProblems(b);
  const out = [];
  const chip = CHIPS[b.chip] ?? {};
  const has = (set, g) => !!set && set.pins.includes(g);
  const roles = rolesOf(b);
  const seen = new Map();
  for (const { what, pin } of roles) {
    if (seen.has(pin)) out.push(`${pin} is used for both ${seen.get(pin)} and ${what}`);
    seen.set(pin, what);
  }
  for (const { what, pin, needs, atReset } of roles) {
    const g = gpio(pin);
    if (g === null) {
      if (needs !== "adc") out.push(`${what} on A0: A0 is analog input only`);
      continue;
    }
    if (chip.gpios && !chip.gpios.pins.includes(g)) out.push(`${what} on ${pin}: ${chip.gpios.why}`);
    if (has(chip.console, g)) out.push(`${what} on ${pin}: ${chip.console.why}`);
    if (needs === "i2c" && chip.i2c && !chip.i2c.pins.includes(g)) out.push(`${what} on ${pin}: ${chip.i2c.why}`);
    if (has(chip.flash, g)) out.push(`${what} on ${pin}: ${chip.flash.why}`);
    if (has(chip.inputOnly, g) && (OUTPUT.includes(needs) || needs === "in"))
      out.push(`${what} on ${pin}: ${chip.inputOnly.why}`);
    if (has(chip.dac, g) && needs === "pwm") out.push(`${what} on ${pin}: ${chip.dac.why}`);
    const strap = chip.straps?.[g];
    if (strap?.breaks && strap.breaks === atReset)
      out.push(`${what} on ${pin}: a strapping pin, held ${atReset} by its wiring at reset: ${strap.why}`);
    if (needs === "in" && has(chip.pullDown, g)) out.push(`${what} on ${pin}: ${chip.pullDown.why}`);
    if (what === "trigger" && has(chip.noWatch, g)) out.push(`trigger on ${pin}: ${chip.noWatch.why}`);
    if (b.chip === "ESP8266" && NODEMCU[g] === undefined)
      out.push(`${what} on ${pin}: GPIO${g} is not broken out on NodeMCU / D1 mini`);
  }
  out.push(...(imuOf(b)?.pinProblems?.(b.imu, chip) ?? []));
  if (b.bat) {
    const g = gpio(b.bat.pin);
    if (b.chip === "ESP32" && !(g >= 32 && g <= 39))
      out.push(`battery on ${b.bat.pin}: use an ADC1 pin (32-39); ADC2 stops working with WiFi on`);
    if (b.chip === "ESP8266" && b.bat.pin !== "A0") out.push("battery: the ESP8266's only analog input is A0");
  }
  return out;
}

/** The pins a profile uses that an ESP32-WROVER module keeps for its PSRAM (the parts list then says "not WROVER"). */
export function psramPins(b) {
  const p = CHIPS[b.chip]?.psram;
  return p ? rolesOf(b).filter((r) => p.pins.includes(gpio(r.pin))) : [];
}

/** A Puck.js profile: its own IMU, button and LEDs on their pins, the piezo on a pad, the Bluetooth link. */
function puckProblems(b) {
  const out = [];
  const own = Object.values(IMUS).find((e) => e.onChip?.chip === b.chip);
  if (own && b.imu.kind !== own.kind)
    out.push(`imu.kind must be ${own.kind} on a ${own.onChip.board} (its own accelerometer + gyro)`);
  if (b.trig.pin !== PUCK.btn || b.trig.pressed !== 1) out.push("trig must be the Puck's button: D0, pressed reads 1");
  if (b.led.kind !== "rgb" || b.led.inv || [b.led.pr, b.led.pg, b.led.pb].join() !== PUCK.leds.join())
    out.push("led must be the Puck's own LEDs: rgb on D5 (red), D4 (green), D3 (blue)");
  if (!PUCK.pads.includes(b.bz.pin))
    out.push(`bz.pin ${b.bz.pin} is not one of the Puck's pads (${PUCK.pads.join(", ")})`);
  if (b.bat) out.push("bat: a Puck.js measures its own coin cell (E.getBattery), leave bat out");
  if (b.con !== "Bluetooth" || (b.links ?? ["wifi"]).join() !== "serial")
    out.push('a Puck.js has no WiFi: links ["serial"] with con "Bluetooth"');
  return out;
}
