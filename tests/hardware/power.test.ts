// The electrical check (hardware/tools/power.mjs, with hardware/parts.json) and the power side of the wiring pages, read
// as a builder reads them: in every power mode a page documents (on the battery, on USB at the bench, as a serial gun,
// on a power bank) each part gets a supply within its rating and the regulator it names carries the peak; the gauge's
// divider reads the cell with its top on the charger's B+ pad, with room under the ADC's top; a magnetic buzzer has a
// series resistor. The build and the generator refuse the profiles these pages used to describe.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM build script without types
import { profileProblem } from "../../firmware/build/build.mjs";
// @ts-expect-error plain ESM script without types
import { magneticMa, modesOf, PARTS, powerProblems, powerRows, RES } from "../../hardware/tools/power.mjs";
// @ts-expect-error plain ESM script without types
import { checkBoard, loadBoards } from "../../hardware/tools/wiring.mjs";
import { checkSnippet, describeCheck } from "../../hub/src/check/index.js";

const root = new URL("../../", import.meta.url);
const read = (rel: string) => readFileSync(new URL(rel, root), "utf8");
const profile = (name: string) => JSON.parse(read(`hardware/boards/${name}.json`));
const esp32 = profile("esp32-mpu6050");
const bno = profile("esp32-bno085");
const esp8266 = profile("esp8266-mpu6050");

/** refused by the wiring generator and by the firmware build, each reason matched */
function refused(b: unknown, ...why: RegExp[]) {
  let thrown = "";
  try {
    checkBoard(b, "x.json");
  } catch (e) {
    thrown = (e as Error).message;
  }
  const built = profileProblem(b) ?? "";
  for (const w of why) {
    expect(thrown, "wiring.mjs").toMatch(w);
    expect(built, "build.mjs").toMatch(w);
  }
}

/** The rows of the page's table that starts with `head`: its cells, trimmed. */
function rows(md: string, head: string): string[][] {
  const at = md.indexOf(head);
  expect(at, head).toBeGreaterThanOrEqual(0);
  const out: string[][] = [];
  for (const line of md.slice(at).split("\n").slice(2)) {
    if (!line.startsWith("|")) break;
    out.push(
      line
        .slice(1, -1)
        .split(" | ")
        .map((c) => c.trim()),
    );
  }
  return out;
}

const lipos = (loadBoards() as { name: string; chip: string; links?: string[]; bat?: unknown }[]).filter(
  (b) => b.chip !== "NRF52",
);

describe("every LiPo profile, in every power mode its page documents", () => {
  it("a Puck.js documents no power mode: no rows, no problems", () => {
    const puck = (loadBoards() as { chip: string }[]).find((b) => b.chip === "NRF52")!;
    expect(modesOf(puck)).toEqual([]);
    expect(powerRows(puck)).toEqual([]);
    expect(powerProblems(puck)).toEqual([]);
  });

  it.each(lipos.map((b) => [b.name, b] as const))("%s: every part within its rating", (_n, b) => {
    const modes = modesOf(b);
    expect(modes).toEqual(
      ["battery", "usb", ...((b.links ?? ["wifi"]).includes("serial") ? ["serial"] : []), "bank"].filter(Boolean),
    );
    expect(powerProblems(b)).toEqual([]);
  });

  it.each(lipos.map((b) => [b.name] as const))(
    "%s's page: a lit LED, a regulator over the peak and the cell read in each mode",
    (name) => {
      const md = read(`hardware/wiring/${name}.md`);
      const table = rows(md, "| mode | powered by | 3V3 from (rated) |");
      const b = profile(name);
      expect(table.length).toBe(modesOf(b).length);
      for (const [mode, , reg, peak, led, gauge] of table) {
        // the LED's supply there, independent of the generator's wording: an RGB LED hangs on the chip's pins
        expect(led, mode).toBe("lit from its pins (3V3)");
        const rated = Number(/\((\d+) mA\)/.exec(reg!)![1]);
        expect(Number(/^(\d+) mA$/.exec(peak!)![1]), mode).toBeLessThanOrEqual(rated);
        // an ESP's supply must deliver its datasheet's current (ESP32: 0.5 A)
        expect(rated).toBeGreaterThanOrEqual(PARTS.parts[b.chip].supplyMa ?? 0);
        if (/power bank/.test(mode!)) expect(gauge).toMatch(/not measured/);
        else expect(gauge, mode).toBe("the cell, from B+");
      }
      // the divider's top on the charger's B+ pad, before the switch
      const div = rows(md, "| part | part pin | board pin |").find((r) => r[1] === "divider")!;
      expect(div[4]).toMatch(/from the TP4056 board's B\+ pad \(the cell itself, before the switch\)/);
      // and the cell into 3V3 through the buck-boost module, never the board's 5V pin
      expect(md).toMatch(/slide switch → the 3\.3 V buck-boost module's VIN → its VOUT → the board's \*\*3V3\*\* pin/);
    },
  );
});

describe("the profiles the pages used to describe, refused with the reason", () => {
  it("a WS2812B on the battery after the switch: dark on USB, under its 3.5 V on a LiPo", () => {
    const old = { ...esp32, led: { kind: "neopixel", pin: "D27", max: 0.3, vcc: "OUT" } };
    refused(
      old,
      /on USB at the bench \(flashing, cng check\): the WS2812B's VCC \(OUT\) has no supply: the LED stays dark/,
      /a serial gun on its USB cable .*: the WS2812B's VCC \(OUT\) has no supply/,
      /a power bank in the grip.*: the WS2812B's VCC \(OUT\) has no supply/,
      /on its battery: the WS2812B's VCC \(OUT\) gives 3\.00-4\.26 V, outside its 3\.50-5\.30 V/,
    );
    // on 3V3 it is under its supply range; on the 5V pin a 3.3 V data line is under its input threshold
    refused({ ...old, led: { ...old.led, vcc: "3V3" } }, /VCC \(3V3\) gives 3\.30-3\.30 V, outside its 3\.50-5\.30 V/);
    refused(
      { ...old, led: { ...old.led, vcc: "5V" } },
      /the WS2812B's data from the ESP32 \(2\.64 V, its lowest high\) is under its input threshold, 0\.7 × 5\.25 V/,
    );
    // a WS2812B with no supply named at all
    expect(() => checkBoard({ ...old, led: { kind: "neopixel", pin: "D27" } }, "x.json")).toThrow(
      /led\.vcc is required/,
    );
  });

  it("the cell on a D1 mini's 5V pin: its regulator drops out, and USB charges the cell past the charger", () => {
    refused(
      { ...esp8266, power: { ...esp8266.power, cell: "5V" } },
      /USB plugged in with the switch on charges the cell from 5 V past the TP4056/,
      /on its battery: the board's ME6211 \(500 mA\) needs 3\.\d\d V in at \d+ mA, its supply falls to 3\.00 V/,
    );
  });

  it("a D1 mini clone's 150 mA regulator: past its rating on USB and on a power bank, fine on the battery", () => {
    const clone = { ...esp8266, power: { ...esp8266.power, board: "d1mini-clone" } };
    const why = powerProblems(clone) as string[];
    expect(
      why.some((w) => /^on USB at the bench.*LDO150 \(150 mA\) is rated 150 mA, the gun draws up to/.test(w)),
    ).toBe(true);
    expect(why.some((w) => /^a power bank.*rated 150 mA/.test(w))).toBe(true);
    expect(why.filter((w) => /^on its battery/.test(w))).toEqual([]);
    refused(clone, /ESP8266 sending 215/);
  });

  it("the divider's top after the switch reads nothing on USB; on the 5V pin it reads the USB rail", () => {
    refused(
      { ...bno, bat: { ...bno.bat, top: "OUT" } },
      /on USB at the bench .*: the battery divider's top \(OUT\) reads nothing; wire it to the charger's B\+ pad/,
      /a serial gun .*: the battery divider's top \(OUT\) reads nothing/,
    );
    refused(
      { ...esp8266, bat: { ...esp8266.bat, top: "5V" } },
      /divider's top \(5V\) reads 4\.45-4\.95 V, not the cell/,
    );
    expect(() => checkBoard({ ...bno, bat: { pin: "D35", div: 2 } }, "x.json")).toThrow(/missing field bat\.top/);
  });

  it("an ESP8266 divider that puts a full cell at the ADC's 1.0 V clips; 150 kΩ leaves room", () => {
    // (100 + 220 + 100) / 100 = 4.2: a 4.26 V cell is 1.01 V on TOUT, past full scale before any part's tolerance
    refused(
      { ...esp8266, bat: { ...esp8266.bat, div: 4.2 } },
      /battery reading: a full cell \(4\.26 V\) can put 1\.\d+ V/,
    );
    // 130 kΩ: under full scale with nominal parts, over it with the board's own 5 % ones
    refused({ ...esp8266, bat: { ...esp8266.bat, div: 4.5 } }, /past its 1 V: it clips/);
    expect(esp8266.bat.div).toBe(4.7);
    expect(read("hardware/wiring/esp8266-mpu6050.md")).toMatch(/\| battery sense \| 1 \| 150 kΩ resistor, 1 % \|/);
  });
});

describe("the magnetic buzzer's transistor circuit", () => {
  it.each(lipos.map((b) => [b.name] as const))("%s's page puts a resistor in series with the coil", (name) => {
    const md = read(`hardware/wiring/${name}.md`);
    const para = md.split("### A magnetic buzzer instead of the piezo disc")[1]!.split("\n## ")[0]!;
    const ohms = Number(/from 3V3 through \*\*(\d+) Ω\*\* then the buzzer to the collector/.exec(para)?.[1]);
    const coil = PARTS.parts.magnetic;
    // the coil and the saturated transistor from 3V3, by the parts' own figures
    const ma = ((3.3 - coil.vce) / (coil.ohms + ohms)) * 1000;
    expect(ma).toBeLessThanOrEqual(coil.maxMa);
    expect(ohms).toBe(RES.magnetic);
    expect(magneticMa()).toBeCloseTo(ma, 6);
    // without it: the ≈ 190 mA pulses on the radio's rail the issue found
    expect(magneticMa(0)).toBeGreaterThan(180);
    expect(para).toMatch(/1N4148 diode across the buzzer/);
  });
});

describe("the D1 mini's regulator and the charger, as the page tells a builder", () => {
  const md = read("hardware/wiring/esp8266-mpu6050.md");

  it("says how to tell a 150 mA clone from the ME6211, and what each can do", () => {
    const tell = md.split("**Which regulator your D1 mini has**")[1]!.split("\n\n")[0]!;
    expect(tell).toMatch(/S2RC is an ME6211, 500 mA/);
    expect(tell).toMatch(/4B2X or 4A2D is a 150 mA part/);
    expect(tell).toMatch(/good on the battery/);
    expect(tell).toMatch(/cannot be a power-bank gun/);
    expect(md).not.toMatch(/the D1 mini's \*\*5V\*\* pin/);
  });

  it.each(lipos.map((b) => [b.name] as const))(
    "%s: says why the switch is off on USB, the charger's first 5 V, and the USB-C pull-downs",
    (name) => {
      const page = read(`hardware/wiring/${name}.md`);
      const power = page.split("## Power")[1]!.split("### Power modes")[0]!;
      expect(power).toMatch(/\*\*The switch is off whenever a USB cable is in the board\*\*.*would both drive 3V3/);
      expect(power).toMatch(/holds OUT\+ at 0 V after a cell is first soldered to it, until 5 V has been on its USB/);
      expect(power).toMatch(/two 5\.1 kΩ CC pull-downs/);
      const charger = rows(page, "| part | qty | what to buy |").find((r) => r[0] === "charger")!;
      expect(charger[2]).toMatch(/micro-USB, or USB-C with its two 5\.1 kΩ CC pull-downs/);
    },
  );
});

describe("cng check names the wiring fault when the gauge or the LED shows nothing", () => {
  const report = (count: number, volts: number) => ({
    lines: [`battery X: count ${count} of N, ${volts} V as read`],
    count,
    volts,
    done: true,
  });

  it("a divider that reads nothing on USB: its top after the switch, not on the charger's B+ pad", () => {
    // an ESP32 reads 0 counts as 0.28 V (ESP-IDF's 142 mV offset, doubled): no LiPo curve, the fault instead
    const out = describeCheck(report(0, 0.28), bno);
    expect(out.at(-1)).toMatch(/^battery: the divider reads nothing \(count 0\): its top is not on the cell/);
    expect(out.at(-1)).toMatch(/solder it to the TP4056 board's B\+ pad, before the switch/);
    expect(out.join("\n")).not.toMatch(/on the LiPo curve/);
    expect(describeCheck(report(3, 0.01), esp8266).at(-1)).toMatch(/the divider reads nothing \(count 3\)/);
  });

  it("a divider on the USB rail, or clipped: more than a cell gives", () => {
    // a D1 mini's top on its 5V pin on USB (4.45-4.95 V past its diode): 4.5 V through 4.7:1 is 0.96 V at A0
    const five = Math.round((4.5 / esp8266.bat.div) * 1024);
    expect(describeCheck(report(five, 4.5), esp8266).at(-1)).toMatch(
      /is more than a full cell gives .*its top is on 5V/,
    );
    expect(describeCheck(report(4095, 6.9), bno).at(-1)).toMatch(/the ADC is at its full scale \(count 4095\)/);
  });

  it("a cell read as a cell: its charge on the curve, no fault", () => {
    const cell = Math.round((3.9 / esp8266.bat.div) * 1024);
    expect(describeCheck(report(cell, 3.9), esp8266).at(-1)).toMatch(/^battery ≈ 71 % on the LiPo curve/);
  });

  it("the LED: what dark means with the profile's wiring, said before the colours", () => {
    for (const b of [esp32, bno, esp8266]) {
      const s = checkSnippet(b);
      expect(s).toContain(
        "led: it lights from its pins (3V3), on USB too: dark in every colour, its common leg is not on GND",
      );
      expect(s.indexOf("led: it lights")).toBeLessThan(s.indexOf("led red now"));
    }
    // a WS2812B on the switched cell: dark on USB whatever it is, and the check says why
    const old = { ...esp32, led: { kind: "neopixel", pin: "D27", max: 0.3, vcc: "OUT" } };
    expect(checkSnippet(old)).toContain("its VCC is on OUT, which has no supply on USB with the switch off");
  });
});
