// The table box: an Arduino running StandardFirmata on USB, driven by johnny-five, with an
// RGB LED (or an analog RGB strip through MOSFETs) and a piezo. It plays the same cues as the
// guns. It is optional: a missing or unplugged box is logged and the hub carries on; with a
// serial path it is reopened every `retryMs` until it answers again.
import { SerialPort, type SerialPortMock } from "serialport";
import type { Logger } from "../log.js";
import { PortRetry } from "../serial/retry.js";
import { type TableCue, toTableCue, type WireCue } from "./cue.js";
import { type FirmataIo, type FivePiezo, type FiveRgbLed, firmataOver, loadFive } from "./five.js";
import { CuePlayer } from "./player.js";

/** Arduino pin numbers. R, G, B must be PWM pins (Uno/Nano: 3, 5, 6, 9, 10, 11). */
export interface TableBoxPins {
  red: number;
  green: number;
  blue: number;
  piezo: number;
}

export const TABLE_BOX_PINS: TableBoxPins = { red: 9, green: 10, blue: 11, piezo: 8 };
/** StandardFirmata's baud rate. */
export const FIRMATA_BAUD = 57600;
/**
 * Highest tone the box plays. johnny-five sounds a piezo by toggling the pin over Firmata, two
 * serial messages per period, so higher notes are played whole octaves lower.
 */
export const TABLE_BOX_MAX_HZ = 1000;

export interface TableBoxOptions {
  /** serial device of the Arduino, e.g. /dev/ttyACM0 (Linux), /dev/cu.usbmodem1101 (macOS), COM3 */
  port?: string;
  /** makes the port (tests: serialport's SerialPortMock); default a real SerialPort */
  openPort?: (path: string, baudRate: number) => SerialPort | SerialPortMock;
  /** a johnny-five IO made elsewhere (tests: mock-firmata); no reopening then */
  io?: FirmataIo;
  log: Logger;
  pins?: Partial<TableBoxPins>;
  /** common-anode RGB LED (its long leg to 5 V) */
  anode?: boolean;
  /** reopen the port this often after a failure, ms; 0 = never (default 5000) */
  retryMs?: number;
  /** how long the board may take to answer once the port is open, ms (default 10000) */
  readyTimeoutMs?: number;
  /** the hub clock, for cues with a start time `at` */
  now?: () => number;
}

export interface TableBox {
  /** true while a board is connected and ready */
  readonly connected: boolean;
  /** true once the board first answered, false when the first attempt failed */
  readonly ready: Promise<boolean>;
  /** Plays a cue; while no board is connected the cue runs on silently. */
  play(cue: TableCue | WireCue): void;
  /** LED off, buzzer silent, port closed, no more retries. */
  close(): Promise<void>;
}

/** Lowers a frequency by whole octaves until the box can play it. */
export function playableHz(hz: number, max = TABLE_BOX_MAX_HZ): number {
  let f = hz;
  while (f > max) f /= 2;
  return Math.round(f);
}

function hex(rgb: number): string {
  return "#" + (rgb & 0xffffff).toString(16).padStart(6, "0");
}

/** Adds what to do to a serial error people commonly hit. */
function explain(path: string, e: Error): string {
  const m = e.message;
  if (/permission denied|EACCES/i.test(m)) {
    return `${m}: add yourself to the dialout group (sudo usermod -aG dialout $USER), then log out and back in`;
  }
  if (/no such file|ENOENT|cannot open/i.test(m)) {
    return `${m}: is the Arduino plugged in? List ports with \`ls /dev/ttyACM* /dev/ttyUSB*\``;
  }
  if (/timeout/i.test(m)) {
    return `no Firmata answer on ${path}: upload StandardFirmata (Arduino IDE: File → Examples → Firmata → StandardFirmata)`;
  }
  return m;
}

interface Session {
  lost: boolean;
  led: FiveRgbLed | null;
  piezo: FivePiezo | null;
  port: SerialPort | SerialPortMock | null;
}

export function startTableBox(o: TableBoxOptions): TableBox {
  if (!o.port && !o.io) throw new Error("startTableBox needs a serial port path or an io");
  const box = new Box(o);
  box.connect();
  return box;
}

/** One box: its port opened and reopened, johnny-five's board on it, the cues played while one is there. */
class Box implements TableBox {
  readonly ready: Promise<boolean>;
  private readonly log: Logger;
  private readonly pins: TableBoxPins;
  private readonly where: string;
  private readonly retry: PortRetry;
  private readonly player: CuePlayer;
  private closed = false;
  private live: Session | null = null;
  private settle: ((ok: boolean) => void) | null = null;

  constructor(private readonly o: TableBoxOptions) {
    this.log = o.log;
    this.pins = { ...TABLE_BOX_PINS, ...o.pins };
    this.where = o.port ?? o.io?.name ?? "io";
    this.retry = new PortRetry(o.io ? 0 : (o.retryMs ?? 5000), o.log, () => this.connect());
    this.ready = new Promise<boolean>((resolve) => {
      this.settle = resolve;
    });
    this.player = new CuePlayer(
      {
        colour: (c) => {
          try {
            this.live?.led?.color(hex(c));
          } catch (e) {
            this.log.debug({ err: (e as Error).message }, "table box LED write failed");
          }
        },
        tone: (hz, ms) => {
          try {
            if (hz > 0) this.live?.piezo?.frequency(playableHz(hz), ms);
            else this.live?.piezo?.noTone();
          } catch (e) {
            this.log.debug({ err: (e as Error).message }, "table box piezo write failed");
          }
        },
      },
      o.now,
    );
  }

  get connected(): boolean {
    return this.live !== null;
  }

  play(cue: TableCue | WireCue): void {
    if (this.closed) return;
    this.player.play(toTableCue(cue));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.player.stop();
    this.closed = true;
    this.retry.stop();
    const s = this.live;
    this.live = null;
    this.firstResult(false);
    if (s) s.lost = true;
    const port = s?.port;
    if (port?.isOpen) {
      // let the "LED off" writes reach the board before the port goes
      await new Promise<void>((r) => port.drain(() => r()));
      await new Promise<void>((r) => port.close(() => r()));
    }
  }

  connect(): void {
    if (this.closed) return;
    const s: Session = { lost: false, led: null, piezo: null, port: null };
    if (this.o.io) {
      this.attach(s, this.o.io);
      return;
    }
    const path = this.o.port!;
    try {
      const port = this.o.openPort
        ? this.o.openPort(path, FIRMATA_BAUD)
        : new SerialPort({ path, baudRate: FIRMATA_BAUD, autoOpen: false });
      s.port = port;
      const io = firmataOver(port);
      port.on("error", (e) => this.lose(s, explain(path, e)));
      // The johnny-five board is made only once the port is open (johnny-five keeps every board it
      // ever made), and before Firmata hears "open", so that it sees Firmata's "connect".
      port.prependOnceListener("open", () => this.attach(s, io));
      port.open((e) => {
        if (e) this.lose(s, explain(path, e));
      });
    } catch (e) {
      this.lose(s, explain(path, e as Error));
    }
  }

  private firstResult(ok: boolean): void {
    this.settle?.(ok);
    this.settle = null;
  }

  private attach(s: Session, io: FirmataIo): void {
    const where = this.where;
    try {
      const five = loadFive();
      const board = new five.Board({
        io,
        repl: false,
        sigint: false,
        debug: false,
        timeout: this.o.readyTimeoutMs ?? 10_000,
      });
      io.on("error", (e: Error) => this.lose(s, explain(where, e)));
      io.on("close", () => this.lose(s, "unplugged (port closed)"));
      io.on("disconnect", () => this.lose(s, "unplugged"));
      board.on("error", (e: Error) => this.lose(s, explain(where, e)));
      board.on("ready", () => {
        if (s.lost || this.closed) return;
        const pins = this.pins;
        s.led = new five.Led.RGB({
          pins: { red: pins.red, green: pins.green, blue: pins.blue },
          isAnode: this.o.anode ?? false,
          board,
        });
        s.piezo = new five.Piezo({ pin: pins.piezo, board });
        s.led.off();
        this.live = s;
        if (this.retry.ok()) this.log.info({ port: where }, `table box ${where} is back`);
        else this.log.info({ port: where, pins }, `table box ready on ${where}`);
        this.firstResult(true);
      });
    } catch (e) {
      this.lose(s, explain(where, e as Error));
    }
  }

  private lose(s: Session, why: string): void {
    if (s.lost) return;
    s.lost = true;
    if (this.live === s) this.live = null;
    try {
      s.piezo?.noTone();
    } catch {
      // the port is gone; nothing to silence
    }
    if (s.port?.isOpen) s.port.close(() => {});
    this.firstResult(false);
    if (this.closed) return;
    this.retry.failed({ port: this.where }, `table box ${this.where}: ${why}`, "; the hub carries on without it");
  }
}
