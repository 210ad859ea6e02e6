// Board profiles (hardware/boards/<name>.json): the pins and parts a gun is built from.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ImuKind } from "@cng/protocol";
import type { ImuProfile } from "../../../hardware/imus/index.mjs";

export interface BoardProfile {
  name: string;
  summary?: string;
  chip: "ESP32" | "ESP8266" | "NRF52" | string;
  baud?: number;
  /** the links the firmware bundle carries (default ["wifi"]); "serial" = hardware/SERIAL.md; a Puck.js: ["serial"] */
  links?: ("wifi" | "serial")[];
  /** the serial link's device when not the board's USB serial port (Serial1 / USB): "Bluetooth" on a Puck.js */
  con?: string;
  /** its IMU's pins and settings, as its kind takes them (hardware/imus); a real chip (`sim` is a gun without one) */
  imu: ImuProfile & { kind: Exclude<ImuKind, "sim"> };
  trig: { pin: string; pressed: 0 | 1 };
  led: {
    kind: "neopixel" | "rgb";
    pin?: string;
    pr?: string;
    pg?: string;
    pb?: string;
    inv?: boolean;
    max?: number;
    /** a WS2812B's supply: the net its VCC is wired to (hardware/tools/power.mjs NETS) */
    vcc?: string;
  };
  bz: { pin: string; soft?: boolean };
  /**
   * the LiPo on `pin` through a divider of ratio `div` (battery volts per pin volt), its top soldered to `top`: the
   * charger's B+ pad, before the switch
   */
  bat?: { pin: string; div: number; top?: string };
  /** what feeds the board (hardware/parts.json boards) and what the switched cell feeds: "buckboost" into 3V3 */
  power?: { board: string; cell: "buckboost" | "5V" };
  budget: { bytes: number; jsvars: number };
  /** optional firmware features (firmware/build/build.mjs FEATURES) */
  has?: ("ota" | "find" | "mount" | "rssi" | "batcal")[];
  /** Storage bytes, from the board's flash layout (Espruino's boards/<BOARD>.py saved_code) */
  storage?: number;
  /** why the profile leaves updates over the air out, said by `cng ota` */
  otaWhyNot?: string;
}

/** The project folder (this file sits at hub/{src,dist}/boards/). */
export const projectRoot = fileURLToPath(new URL("../../../", import.meta.url));

export const boardsDir = `${projectRoot}hardware/boards`;

export function boardNames(): string[] {
  return readdirSync(boardsDir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5))
    .sort();
}

export function loadBoard(name: string): BoardProfile {
  if (!boardNames().includes(name)) {
    throw new Error(`unknown board "${name}"; known boards: ${boardNames().join(", ")}`);
  }
  return JSON.parse(readFileSync(`${boardsDir}/${name}.json`, "utf8")) as BoardProfile;
}

/** The device a board's console starts on, and its serial link's lines go over: Serial1, USB or Bluetooth. */
export function consoleDevice(board: BoardProfile): string {
  return board.con ?? (/^ESP/.test(board.chip) ? "Serial1" : "USB");
}

/** Where the build puts a board's flashed bundle. */
export function bundlePathFor(board: string): string {
  return `${projectRoot}firmware/dist/${board}/gun.js`;
}
