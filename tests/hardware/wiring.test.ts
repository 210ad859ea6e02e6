// The board profiles are the pin truth: the committed wiring pages and diagrams must match them.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import { checkBoard, loadBoards, outputs } from "../../hardware/tools/wiring.mjs";

const root = new URL("../../", import.meta.url);
const read = (rel: string) => readFileSync(new URL(rel, root), "utf8");

describe("wiring pages and diagrams", () => {
  it("are up to date with hardware/boards/*.json (else run node hardware/tools/wiring.mjs)", () => {
    const files = outputs() as [string, string][];
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const [rel, text] of files) expect(read(rel), rel).toBe(text);
  });

  it("list every pin of each profile in the pin table and on the diagram", () => {
    for (const b of loadBoards()) {
      const md = read(`hardware/wiring/${b.name}.md`);
      const svg = read(`hardware/wiring/${b.name}.svg`);
      const pinsInTable = new Set([...md.matchAll(/^\|[^|]+\|[^|]+\| `(D\d+|A0)` \|/gm)].map((m) => m[1]));
      const want = [b.trig.pin, b.bz.pin];
      if (b.imu.kind === "mpu6050") want.push(b.imu.scl, b.imu.sda);
      else if (b.imu.kind === "bno085") want.push(b.imu.rx);
      if (b.led.kind === "neopixel") want.push(b.led.pin);
      else want.push(b.led.pr, b.led.pg, b.led.pb);
      if (b.bat) want.push(b.bat.pin);
      expect([...pinsInTable].sort(), b.name).toEqual([...new Set(want)].sort());
      for (const p of want) expect(svg, `${b.name} diagram shows ${p}`).toMatch(new RegExp(`>${p}( \\[[^\\]]+\\])?<`));
    }
  });

  it("gives the printed NodeMCU / D1 mini label next to each ESP8266 pin", () => {
    const md = read("hardware/wiring/esp8266-mpu6050.md");
    // Espruino D5 is GPIO5, printed D1 on the board: the classic mix-up
    expect(md).toMatch(/\| SCL \| `D5` \| D1 \|/);
    expect(md).toMatch(/\| SDA \| `D4` \| D2 \|/);
  });

  it("stops loudly on a profile of a shape it does not know, naming the file and the field", () => {
    const b = JSON.parse(read("hardware/boards/esp32-mpu6050.json"));
    expect(() => checkBoard({ ...b, vib: { pin: "D13" } }, "hardware/boards/x.json")).toThrow(
      /hardware\/boards\/x\.json: unknown field vib.*run `node hardware\/tools\/wiring\.mjs`/,
    );
    const { trig: _t, ...noTrig } = b;
    expect(() => checkBoard(noTrig, "x.json")).toThrow(/missing field trig/);
    expect(() => checkBoard({ ...b, led: { ...b.led, kind: "oled" } }, "x.json")).toThrow(/led\.kind is "oled"/);
  });

  it("refuses pins that cannot work: shared, boot strapping, input only, ADC2 for the battery", () => {
    const b = JSON.parse(read("hardware/boards/esp32-mpu6050.json"));
    expect(() => checkBoard({ ...b, bz: { pin: "D14" } }, "x.json")).toThrow(/D14 is used for both/);
    expect(() => checkBoard({ ...b, bz: { pin: "D2" } }, "x.json")).toThrow(/strapping/);
    expect(() => checkBoard({ ...b, bz: { pin: "D34" } }, "x.json")).toThrow(/input only/);
    expect(() => checkBoard({ ...b, bat: { pin: "D26", mul: 6.6 } }, "x.json")).toThrow(/ADC1/);
  });
});

describe("docs that state numbers the code uses", () => {
  it("TABLE_BOX.md wires the pins the table box drives", async () => {
    const { TABLE_BOX_PINS, FIRMATA_BAUD } = await import("../../hub/src/tablebox/index.js");
    const md = read("hardware/TABLE_BOX.md");
    expect(md).toMatch(new RegExp(`LED red \\|[^\\n]*\\*\\*D${TABLE_BOX_PINS.red}\\*\\*`));
    expect(md).toMatch(new RegExp(`LED green \\|[^\\n]*\\*\\*D${TABLE_BOX_PINS.green}\\*\\*`));
    expect(md).toMatch(new RegExp(`LED blue \\|[^\\n]*\\*\\*D${TABLE_BOX_PINS.blue}\\*\\*`));
    expect(md).toMatch(new RegExp(`piezo \\+ \\|[^\\n]*\\*\\*D${TABLE_BOX_PINS.piezo}\\*\\*`));
    expect(md).toContain(`${FIRMATA_BAUD} baud`);
  });

  it("SERIAL.md states the serial gun's baud rate and line limit", async () => {
    const { SERIAL_GUN_BAUD, MAX_LINE } = await import("../../hub/src/serial/index.js");
    const md = read("hardware/SERIAL.md");
    expect(md).toContain(`${SERIAL_GUN_BAUD} baud`);
    expect(md).toContain(`At most ${MAX_LINE} bytes a line`);
    for (const b of loadBoards()) expect(b.baud).toBe(SERIAL_GUN_BAUD);
  });
});
