// What a chip's Espruino build does with its pins (hardware/chips.json), for the board models: the DAC pins, the
// serial ports' default pins, the ADC's transfer (what they do with them: firmware/espruino/chips/pins.mjs).
import { readFileSync } from "node:fs";
import { imuOf } from "../../../hardware/imus/index.mjs";
import type { ChipAdc } from "../../../hardware/tools/adc.mjs";
import { type BoardProfile, projectRoot } from "./profile.js";

export { dacLed, LED_VF } from "../../../firmware/espruino/chips/pins.mjs";
export { adcCount, adcTransfer, type ChipAdc } from "../../../hardware/tools/adc.mjs";
export { gaugeFault, ledOnUsb } from "../../../hardware/tools/power.mjs";

interface PinSet {
  pins: number[];
  why: string;
}

export interface Chip {
  dac?: PinSet;
  flash?: PinSet;
  inputOnly?: PinSet;
  psram?: PinSet;
  /** per serial device, the pins its setup takes when not given */
  serial?: Record<string, { tx: number; rx: number }>;
  adc?: ChipAdc;
  /** Espruino's telnet console, on at every boot: its TCP port on a board */
  telnet?: { port: number; why: string };
}

let chips: Record<string, Chip> | undefined;

export function loadChip(name: string): Chip {
  chips ??= JSON.parse(readFileSync(`${projectRoot}hardware/chips.json`, "utf8")) as Record<string, Chip>;
  const c = chips[name] ?? {};
  const serial = c.serial ? Object.fromEntries(Object.entries(c.serial).filter(([k]) => k !== "why")) : undefined;
  return { ...c, serial: serial as Chip["serial"] };
}

export { IMUS, type ImuKind, imuHz, imuOf } from "../../../hardware/imus/index.mjs";

/** An IMU kind's WHO_AM_I register and the answers of the parts sold under its name (hardware/imus). */
export interface ImuIds {
  register: number;
  whoAmI: [number, string][];
}

export function loadImuIds(kind: string): ImuIds | undefined {
  return imuOf({ imu: { kind } })?.ids;
}

/** Each pin the profile gives a part, and which part. */
export function partPins(b: BoardProfile): Record<string, string> {
  const r: Record<string, string> = {};
  const add = (p: string | undefined, what: string) => {
    if (p) r[p] = what;
  };
  add(b.bz.pin, "buzzer");
  add(b.led.pin, "LED");
  add(b.led.pr, "LED red");
  add(b.led.pg, "LED green");
  add(b.led.pb, "LED blue");
  add(b.trig.pin, "trigger");
  for (const u of imuOf(b)?.pins(b.imu) ?? []) add(u.pin, u.what);
  add(b.bat?.pin, "battery");
  return r;
}
