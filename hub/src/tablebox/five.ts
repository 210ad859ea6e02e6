// johnny-five and firmata-io are CommonJS without types: load them lazily (the hub only pays
// for them with --table-box) and give the few parts we use a type.
import type { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import type { Duplex } from "node:stream";

const require = createRequire(import.meta.url);

/** A johnny-five IO: firmata-io's `Firmata`, or mock-firmata's in tests. */
export interface FirmataIo extends EventEmitter {
  isReady?: boolean;
  name?: string;
}

export interface FiveBoard extends EventEmitter {
  isReady: boolean;
  io: FirmataIo;
}

export interface FiveRgbLed {
  color(hex: string): unknown;
  off(): unknown;
  stop(): unknown;
}

export interface FivePiezo {
  frequency(hz: number, ms: number): unknown;
  noTone(): unknown;
}

interface Five {
  Board: new (o: object) => FiveBoard;
  Led: { RGB: new (o: object) => FiveRgbLed };
  Piezo: new (o: object) => FivePiezo;
}

let five: Five | null = null;

export function loadFive(): Five {
  five ??= require("johnny-five") as Five;
  return five;
}

/** StandardFirmata spoken over an already-made transport (a serialport 13 `SerialPort`). */
export function firmataOver(transport: Duplex): FirmataIo {
  const { Firmata } = require("firmata-io") as { Firmata: new (t: Duplex) => FirmataIo };
  return new Firmata(transport);
}
