// The serial devices of the vm's board and Espruino's console on them: the USB serial port (Serial1 on the ESP
// chips, USB on boards that have it, Bluetooth on a Puck.js: its Nordic UART), where the console is until the
// firmware moves it (LoopbackA.setConsole); the other ports, such as a UART-RVC IMU's; the loopback.
import { type BoardProfile, consoleDevice } from "../../boards/profile.js";
import { Emitter } from "./emitter.js";
import type { VirtualUsbSerial } from "./gun.js";

/** pins a serial port's setup may name; one left out is the chip's default */
export interface SerialPins {
  rx?: unknown;
  tx?: unknown;
}

/** A serial device as Espruino gives it to the firmware. */
export interface EspSerial {
  setup(baud?: number, opts?: SerialPins): void;
  on(ev: string, fn: (d: string) => void): void;
  write(d: unknown): void;
  setConsole(force?: boolean): void;
}

export interface VmSerial {
  /** the devices by their global names */
  devices: Record<string, EspSerial>;
  /** the USB serial port, seen from the PC */
  usb: VirtualUsbSerial;
  /** the console's lines, wherever the console is */
  lines: string[];
  /** a line Espruino prints: kept, and sent to the PC while the console is on USB (or to `away` while it is there) */
  log(line: string): void;
  /**
   * Whether a connection (a telnet client, a Bluetooth central) may take the console: Espruino moves it unless the
   * firmware forced it with `setConsole(true)` (jsiIsConsoleDeviceForced).
   */
  movable(): boolean;
  /** the console taken by a connection (`to` gets what it prints), or given back (undefined) */
  away(to: ((text: string) => void) | undefined): void;
  /**
   * A connection on the USB device itself (a Puck.js's Bluetooth central): Espruino moves the console to it unless the
   * firmware forced it where it is (`on`), and back to `to` when it goes, if it is still there and not forced.
   */
  moveTo(device: string, on: boolean): void;
  /**
   * Runs what the PC sends while the console is on the USB device: each line in the firmware's scope, its value back as
   * Espruino's REPL prints it (a board whose link is a radio: whoever connects types there). Echo only without it.
   */
  repl(run: ((js: string) => string) | undefined): void;
}

export interface VmSerialOptions {
  /** hears each console line */
  onConsole?: (line: string) => void;
  /** runs a callback into the firmware (errors go to the board's clock) */
  guard(fn: () => void): void;
  /** a port set up with `opts`: `receive(d)` gives it data from what hangs on it */
  setup(name: string, opts: SerialPins | undefined, receive: (d: string) => void): void;
}

const DEVICES = ["Serial1", "Serial2", "USB", "Bluetooth", "LoopbackA", "LoopbackB"];

export function vmSerial(board: BoardProfile, o: VmSerialOptions): VmSerial {
  return new SerialPorts(board, o);
}

class SerialPorts implements VmSerial {
  readonly devices: Record<string, EspSerial> = {};
  readonly usb: VirtualUsbSerial;
  readonly lines: string[] = [];
  private readonly usbDevice: string;
  private consoleOn: string;
  private forced = false;
  /** a connection holding the console (telnet): where console output goes meanwhile */
  private taken: ((text: string) => void) | undefined;
  private run: ((js: string) => string) | undefined;
  /** what the PC typed since the last line it ended */
  private typed = "";
  private out = "";
  private readonly listeners: ((text: string) => void)[] = [];
  private readonly usbEvents = new Emitter();

  constructor(
    board: BoardProfile,
    private readonly o: VmSerialOptions,
  ) {
    this.usbDevice = consoleDevice(board);
    this.consoleOn = this.usbDevice;
    for (const name of DEVICES) {
      if ((name === "USB" || name === "Bluetooth") && this.usbDevice !== name) continue;
      this.devices[name] = this.device(name);
    }
    const self = this;
    this.usb = {
      device: this.usbDevice,
      get console() {
        return self.consoleOn;
      },
      send: (text) => this.fromPc(text),
      onData: (fn) => {
        this.listeners.push(fn);
      },
      get out() {
        return self.out;
      },
    };
  }

  readonly log = (s: string): void => {
    this.lines.push(s);
    this.o.onConsole?.(s);
    if (this.taken) this.taken(`${s}\r\n`);
    else if (this.consoleOn === this.usbDevice) this.toPc(`${s}\r\n`);
  };

  movable(): boolean {
    return !this.forced;
  }

  away(to: ((text: string) => void) | undefined): void {
    this.taken = to;
  }

  moveTo(device: string, on: boolean): void {
    if (this.forced || (!on && this.consoleOn !== this.usbDevice)) return;
    this.consoleOn = device;
    this.typed = "";
  }

  repl(fn: ((js: string) => string) | undefined): void {
    this.run = fn;
  }

  private device(name: string): EspSerial {
    const em = name === this.usbDevice ? this.usbEvents : new Emitter();
    return {
      setup: (_baud, opts) => this.o.setup(name, opts, (d) => em.emit("data", d)),
      on: (ev, fn) => em.on(ev, fn as (...a: unknown[]) => void),
      write: (d: unknown) => {
        if (name === this.usbDevice) this.toPc(String(d));
      },
      setConsole: (force?: boolean) => {
        this.consoleOn = name;
        this.forced = !!force;
      },
    };
  }

  private toPc(d: string): void {
    this.out += d;
    for (const fn of this.listeners) fn(d);
  }

  /** What the PC sends on the USB device: the firmware's when the console is away, else the REPL's. */
  private fromPc(text: string): void {
    const o = this.o;
    if (this.consoleOn !== this.usbDevice) {
      o.guard(() => this.usbEvents.emit("data", text));
      return;
    }
    // the REPL echoes what it gets (and runs it, where the board says so)
    this.toPc(text.replace(/\r?\n/g, "\r\n"));
    if (!this.run) return;
    this.typed += text;
    for (let i = this.typed.indexOf("\n"); i >= 0; i = this.typed.indexOf("\n")) {
      const js = this.typed.slice(0, i).replace(/\r$/, "");
      this.typed = this.typed.slice(i + 1);
      // Espruino's own prefix for a line it runs without echoing it (\x10), and Ctrl-C (it clears the line)
      let k = 0;
      while (js.charCodeAt(k) === 3 || js.charCodeAt(k) === 16) k++;
      const code = js.slice(k);
      const run = this.run;
      if (code && run) o.guard(() => this.toPc(`${run(code)}\r\n>`));
      if (this.consoleOn !== this.usbDevice) {
        // the console moved away (the firmware took it): the rest of the bytes are the firmware's
        const rest = this.typed;
        this.typed = "";
        if (rest) o.guard(() => this.usbEvents.emit("data", rest));
        return;
      }
    }
  }
}
