// The gun's LED and buzzer on the vm's board: what the pins do with them is the chips' model both boards run
// (firmware/espruino/chips/pins.mjs); here each change is logged at its gun ms.
import { Outputs } from "../../../../firmware/espruino/chips/pins.mjs";
import type { BoardProfile } from "../../boards/profile.js";
import type { LedEvent, ToneEvent } from "./gun.js";
import { pinName } from "./vm-context.js";

export interface AnalogOptions {
  freq?: number;
  soft?: boolean;
  forceSoft?: boolean;
}

export interface VmOutputs {
  led: LedEvent[];
  tones: ToneEvent[];
  /** calls `fn` with each tone change as it happens; returns the unsubscribe */
  onTone(fn: (e: ToneEvent) => void): () => void;
  /** the same for the LED's colour */
  onLed(fn: (e: LedEvent) => void): () => void;
  ledNow(): number;
  toneNow(): number;
  digitalWrite(p: unknown, v: number | boolean): void;
  analogWrite(p: unknown, v: number, opts?: AnalogOptions): void;
  /** require("neopixel") */
  neopixel: { write(p: unknown, d: number[]): void };
}

/**
 * The outputs of `board`, whose chip holds a DC level on `dacPins` (GPIO numbers); `now` is the gun's ms, `log` the
 * console Espruino prints its errors to.
 */
export function vmOutputs(
  board: BoardProfile,
  dacPins: readonly number[],
  now: () => number,
  log: (line: string) => void,
): VmOutputs {
  const led: LedEvent[] = [];
  const tones: ToneEvent[] = [];
  const heard = new Set<(e: ToneEvent) => void>();
  const seen = new Set<(e: LedEvent) => void>();
  let colour = 0;
  let freq = 0;
  const parts = new Outputs(
    { ...board.led, bz: board.bz.pin, dac: dacPins.map((g) => `D${g}`) },
    (c) => {
      const e = { t: now(), c };
      led.push(e);
      colour = c;
      for (const fn of seen) fn(e);
    },
    (f) => {
      const e = { t: now(), f };
      tones.push(e);
      freq = f;
      for (const fn of heard) fn(e);
    },
    log,
  );
  return {
    led,
    tones,
    onTone: (fn) => {
      heard.add(fn);
      return () => heard.delete(fn);
    },
    onLed: (fn) => {
      seen.add(fn);
      return () => seen.delete(fn);
    },
    ledNow: () => colour,
    toneNow: () => freq,
    digitalWrite: (p, v) => parts.write(pinName(p), v ? 1 : 0),
    analogWrite: (p, v, opts) => parts.analog(pinName(p), v, opts),
    neopixel: { write: (p, d) => parts.neopixel(pinName(p), d) },
  };
}
