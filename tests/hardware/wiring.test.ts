// The board profiles are the pin truth: the committed wiring pages and diagrams must match them.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM build script without types
import { profileProblem } from "../../firmware/build/build.mjs";
import { imuOf } from "../../hardware/imus/index.mjs";
// @ts-expect-error plain ESM script without types
import { pinProblems } from "../../hardware/tools/pins.mjs";
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
      // the IMU's pins, as its kind takes them (hardware/imus): SCL and SDA on I2C, RX (and a named TX) on a UART
      want.push(
        ...imuOf(b)!
          .pins(b.imu)
          .map((u) => u.pin!),
      );
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

  it("names the ESP8266 pins in its one-line summary by the label printed on the board, never by Espruino's", () => {
    const { summary } = JSON.parse(read("hardware/boards/esp8266-mpu6050.json"));
    // every D<n> in it is a printed label next to its GPIO: "printed D1 = GPIO5" or "printed D5 (GPIO14)"
    const named = [...summary.matchAll(/\bD(\d+)\b(?! mini)/g)];
    expect(named.length).toBeGreaterThanOrEqual(4);
    const paired = [...summary.matchAll(/printed (D\d) (?:= |\()GPIO(\d+)/g)];
    expect(paired.length).toBe(named.length);
    const NODEMCU: Record<string, string> = {
      16: "D0",
      5: "D1",
      4: "D2",
      0: "D3",
      2: "D4",
      14: "D5",
      12: "D6",
      13: "D7",
      15: "D8",
    };
    for (const [, label, gpio] of paired) expect(label, `GPIO${gpio}`).toBe(NODEMCU[gpio]);
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

  it("refuses pins that cannot work: shared, flash, input only, ADC2 for the battery", () => {
    const b = JSON.parse(read("hardware/boards/esp32-mpu6050.json"));
    expect(() => checkBoard({ ...b, bz: { pin: "D14" } }, "x.json")).toThrow(/D14 is used for both/);
    expect(() => checkBoard({ ...b, bz: { pin: "D34" } }, "x.json")).toThrow(/input only/);
    expect(() => checkBoard({ ...b, trig: { pin: "D36", pressed: 0 } }, "x.json")).toThrow(/no pull-up/);
    expect(() => checkBoard({ ...b, led: { kind: "neopixel", pin: "D7" } }, "x.json")).toThrow(/flash chip/);
    expect(() => checkBoard({ ...b, bat: { pin: "D26", div: 2, top: "B+" } }, "x.json")).toThrow(/ADC1/);
  });
});

describe("the chip's own pins (hardware/chips.json), checked as the build checks them", () => {
  const esp32 = JSON.parse(read("hardware/boards/esp32-mpu6050.json"));
  const bno = JSON.parse(read("hardware/boards/esp32-bno085.json"));
  const esp8266 = JSON.parse(read("hardware/boards/esp8266-mpu6050.json"));
  const refused = (b: unknown, why: RegExp) => {
    expect(() => checkBoard(b, "x.json")).toThrow(why);
    expect(profileProblem(b)).toMatch(why);
  };
  const taken = (b: unknown) => {
    expect(() => checkBoard(b, "x.json")).not.toThrow();
    expect(profileProblem(b)).toBeUndefined();
  };

  it("every profile passes", () => {
    for (const b of loadBoards()) expect(profileProblem(b), b.name).toBeUndefined();
  });

  it("no PWM or tone on the ESP32's DAC pins D25/D26: the buzzer never sounds, an LED leg gets a DC level", () => {
    refused({ ...esp32, bz: { pin: "D25" } }, /buzzer on D25: .*DAC.*ignores freq/);
    refused({ ...bno, led: { ...bno.led, pg: "D26" } }, /LED green on D26: .*DAC/);
    // a NeoPixel's data line is a plain digital output: fine there, as far as the pin goes
    expect(pinProblems({ ...esp32, led: { kind: "neopixel", pin: "D25", max: 0.3 } })).toEqual([]);
  });

  it("a serial IMU names its TX pin: Serial2 with only rx drives D4, a buzzer pin", () => {
    const { tx: _tx, ...noTx } = bno.imu;
    refused({ ...bno, imu: noTx }, /imu\.tx missing: Serial2\.setup with only rx drives D4/);
    refused({ ...bno, imu: { ...bno.imu, tx: bno.bz.pin } }, /D4 is used for both buzzer and IMU TX/);
  });

  it("strapping pins: refused where the part's wiring holds the level that breaks the boot", () => {
    // ESP32 GPIO12 high at reset selects 1.8 V flash; GPIO0 low starts the ROM bootloader; GPIO2 high stops esptool
    refused({ ...esp32, imu: { ...esp32.imu, sda: "D12" } }, /I2C SDA on D12: .*held high.*1\.8 V flash/);
    refused({ ...esp32, trig: { pin: "D0", pressed: 0 } }, /trigger on D0: .*held low.*ROM bootloader/);
    refused({ ...esp32, imu: { ...esp32.imu, scl: "D2" } }, /I2C SCL on D2: .*esptool cannot flash/);
    // where the wiring holds no level that matters, the pin works
    taken({ ...esp32, bz: { pin: "D2" } });
    taken({ ...esp32, trig: { pin: "D12", pressed: 0 } });
    // ESP8266: GPIO0 and 2 must be high at reset, GPIO15 low (and its pull-down beats a trigger's pull-up)
    refused({ ...esp8266, trig: { pin: "D0", pressed: 0 } }, /trigger on D0: .*ROM bootloader/);
    refused({ ...esp8266, bz: { pin: "D2", soft: true } }, /buzzer on D2: .*must be high at reset/);
    refused({ ...esp8266, imu: { ...esp8266.imu, sda: "D15" } }, /I2C SDA on D15: .*must be low at reset/);
    refused({ ...esp8266, trig: { pin: "D15", pressed: 0 } }, /trigger on D15: .*always reads pressed/);
    // I2C on GPIO0 / GPIO2 (printed D3 / D4): the pull-ups hold what they need
    taken({ ...esp8266, imu: { ...esp8266.imu, scl: "D0", sda: "D2" } });
    // a common-cathode LED leg clamps its pin near the LED's forward voltage, under the chip's input high: GPIO0 and
    // GPIO2 read low at reset; GPIO15 and GPIO16 take it
    refused({ ...esp8266, led: { ...esp8266.led, pg: "D0" } }, /LED green on D0: .*held low.*ROM bootloader/);
    refused({ ...esp8266, led: { ...esp8266.led, pb: "D2" } }, /LED blue on D2: .*held low.*must be high at reset/);
    refused({ ...esp32, led: { ...esp32.led, pr: "D0" } }, /LED red on D0: .*held low/);
    taken({ ...esp32, led: { ...esp32.led, pr: "D2", pg: "D12" } });
  });

  it("the console's UART, GPIOs an ESP32 does not have, and ESP8266 I2C on GPIO16: refused, with the reason", () => {
    // ESP32: GPIO1/3 are UART0, the console cng flash and cng check talk to
    refused({ ...esp32, bz: { pin: "D1" } }, /buzzer on D1: GPIO1 \(TX\) and GPIO3 \(RX\) are UART0/);
    refused({ ...esp32, trig: { pin: "D3", pressed: 0 } }, /trigger on D3: .*console/);
    // Espruino names D0-D39, the chip has no GPIO20, 24, 28-31
    for (const p of ["D20", "D24", "D28", "D29", "D30", "D31"])
      refused({ ...esp32, bz: { pin: p } }, new RegExp(`buzzer on ${p}: the ESP32 has no GPIO20, 24 or 28-31`));
    taken({ ...esp32, bz: { pin: "D32" } });
    // ESP8266: GPIO1/3 (printed TX/RX) are the console too
    refused({ ...esp8266, trig: { pin: "D3", pressed: 0 } }, /trigger on D3: .*UART0/);
    refused({ ...esp8266, bz: { pin: "D1", soft: true } }, /buzzer on D1: .*UART0/);
    // its bit-banged I2C drives GPIO0-15 through the GPIO registers; GPIO16 is the RTC's
    refused({ ...esp8266, imu: { ...esp8266.imu, sda: "D16" } }, /I2C SDA on D16: .*GPIO0-15 only/);
    refused({ ...esp8266, imu: { ...esp8266.imu, scl: "D16" } }, /I2C SCL on D16: .*i2c_master\.c/);
  });

  it("the parts list says not WROVER where a profile uses GPIO16/17 (a WROVER's PSRAM)", () => {
    expect(read("hardware/wiring/esp32-bno085.md")).toMatch(
      /ESP32 dev board \|[^\n]*not a WROVER module\*\*: D16, D17/,
    );
    expect(read("hardware/wiring/esp32-mpu6050.md")).not.toMatch(/WROVER/);
  });
});

describe("node hardware/tools/wiring.mjs", () => {
  const tool = fileURLToPath(new URL("hardware/tools/wiring.mjs", root));
  const run = (...args: string[]) => spawnSync(process.execPath, [tool, ...args], { encoding: "utf8" });

  it("--help says what it does and writes nothing", () => {
    const r = run("--help");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Usage: node hardware\/tools\/wiring\.mjs \[--check\]/);
    expect(r.stdout).toContain("--check");
    expect(r.stdout).not.toMatch(/wrote/);
  });

  it("refuses an unknown argument, writes nothing, and says which", () => {
    const r = run("--chek");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown argument "--chek"; nothing written/);
    expect(r.stdout).toBe("");
  });

  it("--check passes on the committed pages", () => {
    const r = run("--check");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});

describe("docs that state numbers the code uses", () => {
  it("README.md's wiring for the primary profile is its profile's", () => {
    const b = JSON.parse(read("hardware/boards/esp32-mpu6050.json"));
    const para = read("README.md").split("For the primary profile:")[1]!.split("```")[0]!;
    expect(para).toContain(`SDA to ${b.imu.sda}, SCL to ${b.imu.scl}`);
    expect(para).toContain(`a button from ${b.trig.pin}`);
    expect(para).toContain(`an RGB LED on ${b.led.pr}/${b.led.pg}/${b.led.pb}`);
    expect(para).toContain(`a piezo disc on ${b.bz.pin}`);
    expect(para).toContain(`divider on ${b.bat.pin}`);
  });

  it("hardware/README.md's profile table gives each build the price its wiring page adds up to", () => {
    const md = read("hardware/README.md");
    for (const b of loadBoards()) {
      const page = /Roughly (€\d+) of parts/.exec(read(`hardware/wiring/${b.name}.md`))![1];
      const row = md.split("\n").find((l) => l.startsWith(`| \`${b.name}\` |`));
      expect(row, b.name).toContain(`| ${page} |`);
    }
  });

  it("TABLE_BOX.md wires the pins the table box drives", async () => {
    const { TABLE_BOX_PINS, FIRMATA_BAUD } = await import("../../hub/src/tablebox/index.js");
    const md = read("hardware/TABLE_BOX.md");
    expect(md).toMatch(new RegExp(`LED red \\|[^\\n]*\\*\\*D${TABLE_BOX_PINS.red}\\*\\*`));
    expect(md).toMatch(new RegExp(`LED green \\|[^\\n]*\\*\\*D${TABLE_BOX_PINS.green}\\*\\*`));
    expect(md).toMatch(new RegExp(`LED blue \\|[^\\n]*\\*\\*D${TABLE_BOX_PINS.blue}\\*\\*`));
    expect(md).toMatch(new RegExp(`piezo \\+ \\|[^\\n]*\\*\\*D${TABLE_BOX_PINS.piezo}\\*\\*`));
    expect(md).toContain(`${FIRMATA_BAUD} baud`);
  });

  it("TABLE_BOX.md's buzzer resistor keeps a 5 V Uno pin within the ATmega328P's current, a magnetic buzzer's too", () => {
    const md = read("hardware/TABLE_BOX.md");
    const ohms = Number(/\| piezo \+ \| through (\d+) Ω \|/.exec(md)?.[1]);
    const parts = JSON.parse(read("hardware/parts.json")).parts;
    const avr = parts.atmega328p;
    // a bare disc's charging peak, and a magnetic "passive buzzer" module's ≈ 16 Ω coil on the same resistor
    expect((5 / ohms) * 1000).toBeLessThanOrEqual(avr.pinMa);
    expect((5 / (ohms + parts.magnetic.ohms)) * 1000).toBeLessThanOrEqual(avr.pinMa);
    expect(md).toMatch(/not a magnetic "passive buzzer" module\) \+ \d+ Ω/);
  });

  it("SERIAL.md states the serial gun's baud rate and line limit", async () => {
    const { SERIAL_GUN_BAUD, MAX_LINE } = await import("../../hub/src/serial/index.js");
    const md = read("hardware/SERIAL.md");
    expect(md).toContain(`${SERIAL_GUN_BAUD} baud`);
    expect(md).toContain(`At most ${MAX_LINE} bytes a line`);
    for (const b of loadBoards()) expect(b.baud).toBe(SERIAL_GUN_BAUD);
  });
});
