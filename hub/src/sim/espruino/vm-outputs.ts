// The gun's LED and buzzer on the vm's board: what the pins do with them is the chips' model both boards run
// (firmware/espruino/chips/pins.mjs); here each change is logged at its gun ms.
import { Outputs } from "../../../../firmware/espruino/chips/pins.mjs";
import type { BoardProfile } from "./board.js";
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
  let colour = 0;
  let freq = 0;
  const parts = new Outputs(
    { ...board.led, bz: board.bz.pin, dac: dacPins.map((g) => `D${g}`) },
    (c) => {
      led.push({ t: now(), c });
      colour = c;
    },
    (f) => {
      tones.push({ t: now(), f });
      freq = f;
    },
    log,
  );
  return {
    led,
    tones,
    ledNow: () => colour,
    toneNow: () => freq,
    digitalWrite: (p, v) => parts.write(pinName(p), v ? 1 : 0),
    analogWrite: (p, v, opts) => parts.analog(pinName(p), v, opts),
    neopixel: { write: (p, d) => parts.neopixel(pinName(p), d) },
  };
}
