// The electrical check of a board profile: in each power mode its page documents (on its battery, on USB at the
// bench, as a serial gun, on a power bank), what each net gives, what the regulator feeding 3V3 takes in and gives
// out, what the parts draw at their peak, and whether each part gets a supply, a current and an input level within
// its rating (hardware/parts.json: the datasheets' figures). The firmware build refuses a profile these rules refuse
// (firmware/build/build.mjs), and so does the wiring generator (hardware/tools/wiring.mjs), as they refuse a pin.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { imuOf } from "../imus/index.mjs";
import { adcCount } from "./adc.mjs";
import { CHIPS } from "./pins.mjs";

const here = dirname(fileURLToPath(import.meta.url));

/** hardware/parts.json: supplies, regulators, boards and parts, with their figures' sources. */
export const PARTS = JSON.parse(readFileSync(join(here, "..", "parts.json"), "utf8"));

/**
 * The resistors the pages give, ohms: one value a leg for an RGB LED (green and blue drop ≈ 3 V, red ≈ 1.9 V), the
 * piezo's (its charging peaks), the one in series with a magnetic buzzer's coil, a NeoPixel's data line, and the
 * battery divider's resistors (1 %, and the ESP32's bottom one).
 */
export const RES = {
  rgb: { r: 220, g: 47, b: 47 },
  piezo: 330,
  magnetic: 47,
  neopixelData: 330,
  divBottom: 100e3,
  divTol: 0.01,
};

/** The forward voltage of each RGB leg at a few mA (firmware/espruino/chips/pins.mjs LED_VF: the models' figure). */
const LED_VF = { r: 1.9, g: 2.8, b: 2.8 };

/** The 3V3 rail: what the regulators hold it at. */
const V33 = 3.3;

/** The nets a part's supply or the divider's top may name. */
export const NETS = ["3V3", "5V", "OUT", "B+"];

/** Each power mode, as its page names it. */
export const MODE_NAMES = {
  battery: "on its battery",
  usb: "on USB at the bench (flashing, cng check)",
  serial: "a serial gun on its USB cable (hardware/SERIAL.md)",
  bank: "a power bank in the grip, into the board's USB socket (no cell, flashed --bat none)",
};

/** The power modes a profile documents: every LiPo gun runs on its cell, on USB at the bench and from a power bank
 * (hardware/README.md); a profile with the serial link also as a serial gun. A Puck.js has its coin cell only. */
export function modesOf(b) {
  if (b.chip === "NRF52") return [];
  return ["battery", "usb", ...((b.links ?? ["wifi"]).includes("serial") ? ["serial"] : []), "bank"];
}

const shift = (r, d) => (r ? [r[0] + d, r[1] + d] : null);
const v2 = (x) => x.toFixed(2);
const vs = (r) => `${v2(r[0])}-${v2(r[1])} V`;

/** A regulator's dropout at `ma`: its datasheet's figure, grown with the load on a CMOS part. */
function dropout(reg, ma) {
  if (!reg.dropout) return 0;
  const [at, v] = reg.dropout;
  return reg.fixedDropout ? v : (v * Math.max(ma, at)) / at;
}

/** The resistor a piezo, a magnetic buzzer or an RGB leg has, and the current it lets through at 3.3 V. */
export function legMa(leg) {
  return ((V33 - LED_VF[leg]) / RES.rgb[leg]) * 1000;
}
export function magneticMa(series = RES.magnetic) {
  const m = PARTS.parts.magnetic;
  return ((V33 - m.vce) / (m.ohms + series)) * 1000;
}

/** What the parts on 3V3 draw at their peak, mA: [what, mA] each (the chip sending, every LED leg lit, the buzzer). */
export function peakLoad(b) {
  const p = PARTS.parts;
  const rows = [
    [`${b.chip} sending`, p[b.chip].peakMa],
    [imuOf(b).module, imuOf(b).rating.ma],
  ];
  if (b.led.kind === "rgb") rows.push(["RGB LED, every leg lit", legMa("r") + legMa("g") + legMa("b")]);
  else if (b.led.vcc === "3V3") rows.push(["WS2812B, white", 3 * p.neopixel.maPerChannel * (b.led.max ?? 1)]);
  // the page offers a magnetic buzzer through a transistor from 3V3 instead of the piezo: the larger of the two
  rows.push(["buzzer (magnetic, the page's alternative)", Math.max((V33 / RES.piezo) * 1000, magneticMa())]);
  return { rows, ma: rows.reduce((s, [, ma]) => s + ma, 0) };
}

/**
 * The nets in mode `m`, volts [min, max] or null where nothing drives them: the cell at the charger's B+ pad, OUT
 * after the switch (on for the battery, off on USB: hardware/README.md), the board's 5V pin, and the regulator that
 * makes 3V3 with what it is fed.
 */
export function netsIn(b, m) {
  const S = PARTS.supplies;
  const board = PARTS.boards[b.power.board];
  const cell = m === "bank" ? null : S.cell.v;
  const out = m === "battery" ? cell : null;
  let five = m === "battery" ? null : shift(m === "bank" ? S.bank.v : S.usb.v, -board.usbDrop);
  if (m === "battery" && b.power.cell === "5V") five = out;
  const reg = m === "battery" && b.power.cell === "buckboost" ? "buckboost" : board.ldo;
  return { "B+": cell, OUT: out, "5V": five, "3V3": [V33, V33], reg, regIn: reg === "buckboost" ? out : five };
}

/** The divider's ratio at its resistors' tolerance: the lowest (the pin's highest volts for a cell's). */
export function dividerLow(b) {
  const t = RES.divTol;
  const a0 = PARTS.boards[b.power.board].a0;
  if (b.chip === "ESP8266") {
    // a series resistor before the board's own divider on A0 (220 k / 100 k on a D1 mini or a NodeMCU)
    const series = (b.bat.div - (a0.top + a0.bottom) / a0.bottom) * a0.bottom;
    return (series * (1 - t) + a0.top * (1 - a0.tol) + a0.bottom * (1 + a0.tol)) / (a0.bottom * (1 + a0.tol));
  }
  const top = (b.bat.div - 1) * RES.divBottom;
  return (top * (1 - t) + RES.divBottom * (1 + t)) / (RES.divBottom * (1 + t));
}

/** The ADC's highest input the firmware's transfer holds, volts: an ESP32's linear range, an ESP8266's full scale. */
export function adcTop(chip) {
  const adc = CHIPS[chip].adc;
  return adc.kind === "esp32" ? adc.linearToMv / 1000 : adc.fullScaleV;
}

/** The least room the gauge must leave under the ADC's top at a full cell, nominal parts (a part 1-2 % off). */
export const ADC_HEADROOM = 0.05;

const names = (b) => ({
  led: b.led.kind === "rgb" ? "the RGB LED" : "the WS2812B",
  reg: (k) => `${k === "buckboost" ? "the buck-boost module" : `the board's ${k}`} (${PARTS.regulators[k].ma} mA)`,
});

/** Why the profile's parts are out of their rating in a mode it documents: a list of sentences, empty when all is well. */
export function powerProblems(b) {
  if (b.chip === "NRF52") return [];
  const out = [];
  const P = PARTS;
  if (!b.power) return ["power missing: say what feeds the board (power.board, power.cell)"];
  if (!P.boards[b.power.board]) out.push(`power.board ${b.power.board}: not in hardware/parts.json`);
  if (!["buckboost", "5V"].includes(b.power.cell)) out.push(`power.cell ${b.power.cell}: buckboost or 5V`);
  if (b.led.kind === "neopixel" && !NETS.includes(b.led.vcc))
    out.push(`led.vcc ${b.led.vcc}: the WS2812B's supply is one of ${NETS.join(", ")}`);
  if (b.bat && !NETS.includes(b.bat.top))
    out.push(`bat.top ${b.bat.top}: the divider's top is one of ${NETS.join(", ")}`);
  if (out.length) return out;
  const chip = P.parts[b.chip];
  const load = peakLoad(b);
  const n = names(b);
  // USB's 5 V reaches the cell past the charger when the switched cell feeds the 5V pin
  if (b.power.cell === "5V")
    out.push(
      "the switched cell on the 5V pin: USB plugged in with the switch on charges the cell from 5 V past the TP4056's current and voltage control; feed 3V3 through the buck-boost module instead",
    );
  for (const m of modesOf(b)) {
    const at = MODE_NAMES[m];
    const nets = netsIn(b, m);
    const reg = P.regulators[nets.reg];
    const rname = n.reg(nets.reg);
    if (!nets.regIn) out.push(`${at}: nothing feeds ${rname}`);
    else {
      const low = reg.in ? reg.in[0] : reg.out + dropout(reg, load.ma);
      if (nets.regIn[0] < low - 1e-9)
        out.push(
          `${at}: ${rname} needs ${v2(low)} V in at ${Math.round(load.ma)} mA, its supply falls to ${v2(nets.regIn[0])} V`,
        );
      if (reg.in && nets.regIn[1] > reg.in[1]) out.push(`${at}: ${rname} takes at most ${reg.in[1]} V`);
    }
    if (load.ma > reg.ma)
      out.push(
        `${at}: ${rname} is rated ${reg.ma} mA, the gun draws up to ${Math.round(load.ma)} mA (${load.rows
          .map(([w, ma]) => `${w} ${Math.round(ma)}`)
          .join(", ")})`,
      );
    if (chip.supplyMa && reg.ma < chip.supplyMa)
      out.push(`${at}: the ${b.chip}'s supply must deliver ${chip.supplyMa} mA, ${rname} is rated less`);
    if (b.led.kind === "neopixel") {
      const px = P.parts.neopixel;
      const vdd = nets[b.led.vcc];
      if (!vdd) out.push(`${at}: ${n.led}'s VCC (${b.led.vcc}) has no supply: the LED stays dark`);
      else {
        if (vdd[0] < px.vdd[0] || vdd[1] > px.vdd[1])
          out.push(`${at}: ${n.led}'s VCC (${b.led.vcc}) gives ${vs(vdd)}, outside its ${vs(px.vdd)}`);
        const high = chip.voh * V33;
        if (high < px.vih * vdd[1])
          out.push(
            `${at}: ${n.led}'s data from the ${b.chip} (${v2(high)} V, its lowest high) is under its input threshold, ${px.vih} × ${v2(vdd[1])} V = ${v2(px.vih * vdd[1])} V`,
          );
      }
    }
    // the gauge reads the cell wherever a cell is: also on USB with the switch off (cng check, a serial gun)
    if (b.bat && nets["B+"]) {
      const top = nets[b.bat.top];
      if (!top)
        out.push(`${at}: the battery divider's top (${b.bat.top}) reads nothing; wire it to the charger's B+ pad`);
      else if (top !== nets["B+"])
        out.push(`${at}: the battery divider's top (${b.bat.top}) reads ${vs(top)}, not the cell`);
    }
  }
  if (b.led.kind === "rgb") {
    const pinMa = CHIPS[b.chip].pinMa;
    for (const leg of ["r", "g", "b"]) {
      const ma = legMa(leg);
      if (ma > Math.min(pinMa, P.parts.rgb.legMa) || ma < 3)
        out.push(
          `the RGB LED's ${leg} leg draws ${ma.toFixed(1)} mA, outside 3-${Math.min(pinMa, P.parts.rgb.legMa)} mA`,
        );
    }
  }
  if (magneticMa() > P.parts.magnetic.maxMa)
    out.push(`a magnetic buzzer draws ${Math.round(magneticMa())} mA, more than ${P.parts.magnetic.maxMa}`);
  if (b.bat) {
    const cellMax = P.supplies.cell.v[1];
    const top = adcTop(b.chip);
    const worst = cellMax / dividerLow(b);
    const nominal = cellMax / b.bat.div;
    if (worst >= top)
      out.push(
        `battery reading: a full cell (${v2(cellMax)} V) can put ${worst.toFixed(3)} V on the ADC (1 % resistors${
          b.chip === "ESP8266" ? ", the board's own at 5 %" : ""
        }), past its ${top} V: it clips`,
      );
    else if (nominal > top * (1 - ADC_HEADROOM))
      out.push(
        `battery reading: a full cell puts ${nominal.toFixed(3)} V on the ADC, within ${Math.round(ADC_HEADROOM * 100)} % of its ${top} V`,
      );
  }
  return out;
}

/** One row a mode for the page: what feeds the board, what makes 3V3 (rated), the peak, the LED, the gauge. */
export function powerRows(b) {
  // a Puck.js documents no power mode (its coin cell only), nor the peak figures of its chip
  if (modesOf(b).length === 0) return [];
  const load = peakLoad(b);
  const n = names(b);
  return modesOf(b).map((m) => {
    const nets = netsIn(b, m);
    const feed =
      m === "battery"
        ? `the cell (${vs(nets["B+"])}) through the switch`
        : m === "bank"
          ? `the power bank on the board's USB socket (${vs(nets["5V"])} on its 5V pin); no cell, no charger`
          : `USB on the board's USB socket (${vs(nets["5V"])} on its 5V pin); the switch off`;
    const led =
      b.led.kind === "rgb"
        ? "lit from its pins (3V3)"
        : nets[b.led.vcc]
          ? `${b.led.vcc}: ${vs(nets[b.led.vcc])}`
          : `dark: ${b.led.vcc} has no supply`;
    const gauge = !b.bat
      ? "not measured"
      : !nets["B+"]
        ? "not measured (no cell: flash it --bat none)"
        : nets[b.bat.top]
          ? `the cell, from ${b.bat.top}`
          : `nothing (${b.bat.top} is off)`;
    return [MODE_NAMES[m], feed, n.reg(nets.reg), `${Math.round(load.ma)} mA`, led, gauge];
  });
}

/**
 * What `cng check` makes of the battery pin's count, the board on USB with its switch off: a sentence naming the
 * wiring fault, or undefined when the count is one a cell through this profile's divider gives.
 */
export function gaugeFault(b, count) {
  if (!b.bat) return undefined;
  const adc = CHIPS[b.chip].adc;
  const [lo, hi] = PARTS.supplies.cell.v;
  const at = (v) => adcCount(adc, v / b.bat.div);
  if (count < at(lo) / 2)
    return (
      `battery: the divider reads nothing (count ${count}): its top is not on the cell. On USB the switch is off, so a top taken after it reads 0 V: ` +
      `solder it to the TP4056 board's B+ pad, before the switch (the wiring page). No cell on B+ either? A protected TP4056 board holds 0 V until 5 V has been on its own USB socket once`
    );
  if (count >= adc.counts - 1)
    return `battery: the ADC is at its full scale (count ${count}): more than a cell gives through this divider reaches the pin (its top on 5V or 3V3, or a resistor too small): a full cell gives ${at(hi)}`;
  if (count > at(hi) * 1.04)
    return `battery: count ${count} is more than a full cell gives through this divider (${at(hi)}): its top is on 5V or 3V3, not the charger's B+ pad`;
  return undefined;
}

/** What a dark LED means during `cng check` (the board on USB, its switch off), from the profile's wiring. */
export function ledOnUsb(b) {
  if (b.chip === "NRF52") return undefined;
  if (b.led.kind === "rgb")
    return `it lights from its pins (3V3), on USB too: dark in every colour, its common leg is not on ${
      b.led.inv ? "3V3 (a common anode: led.inv)" : "GND (or it is a common-anode LED: led.inv)"
    }; one colour dark, that leg's pin or resistor`;
  const vdd = netsIn(b, "usb")[b.led.vcc];
  return vdd
    ? `its VCC (${b.led.vcc}) gives ${vs(vdd)} on USB`
    : `its VCC is on ${b.led.vcc}, which has no supply on USB with the switch off: it stays dark here whatever it is (the electrical check refuses this wiring)`;
}
