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
  const usbDevice = consoleDevice(board);
  let consoleOn = usbDevice;
  let forced = false;
  /** a connection holding the console (telnet): where console output goes meanwhile */
  let taken: ((text: string) => void) | undefined;
  let run: ((js: string) => string) | undefined;
  let typed = "";
  let out = "";
  const listeners: ((text: string) => void)[] = [];
  const lines: string[] = [];
  const toPc = (d: string) => {
    out += d;
    for (const fn of listeners) fn(d);
  };
  const usbEvents = new Emitter();
  const devices: Record<string, EspSerial> = {};
  for (const name of DEVICES) {
    if ((name === "USB" || name === "Bluetooth") && usbDevice !== name) continue;
    const em = name === usbDevice ? usbEvents : new Emitter();
    devices[name] = {
      setup: (_baud, opts) => o.setup(name, opts, (d) => em.emit("data", d)),
      on: (ev, fn) => em.on(ev, fn as (...a: unknown[]) => void),
      write(d: unknown) {
        if (name === usbDevice) toPc(String(d));
      },
      setConsole(force?: boolean) {
        consoleOn = name;
        forced = !!force;
      },
    };
  }
  const usb: VirtualUsbSerial = {
    device: usbDevice,
    get console() {
      return consoleOn;
    },
    send(text: string) {
      if (consoleOn !== usbDevice) {
        o.guard(() => usbEvents.emit("data", text));
        return;
      }
      // the REPL echoes what it gets (and runs it, where the board says so)
      toPc(text.replace(/\r?\n/g, "\r\n"));
      if (!run) return;
      typed += text;
      for (let i = typed.indexOf("\n"); i >= 0; i = typed.indexOf("\n")) {
        const js = typed.slice(0, i).replace(/\r$/, "");
        typed = typed.slice(i + 1);
        // Espruino's own prefix for a line it runs without echoing it (\x10), and Ctrl-C (it clears the line)
        let k = 0;
        while (js.charCodeAt(k) === 3 || js.charCodeAt(k) === 16) k++;
        const code = js.slice(k);
        const r = run;
        if (code) o.guard(() => toPc(`${r(code)}\r\n>`));
        if (consoleOn !== usbDevice) {
          // the console moved away (the firmware took it): the rest of the bytes are the firmware's
          const rest = typed;
          typed = "";
          if (rest) o.guard(() => usbEvents.emit("data", rest));
          return;
        }
      }
    },
    onData(fn) {
      listeners.push(fn);
    },
    get out() {
      return out;
    },
  };
  const log = (s: string) => {
    lines.push(s);
    o.onConsole?.(s);
    if (taken) taken(`${s}\r\n`);
    else if (consoleOn === usbDevice) toPc(`${s}\r\n`);
  };
  return {
    devices,
    usb,
    lines,
    log,
    movable: () => !forced,
    away(to) {
      taken = to;
    },
    moveTo(device, on) {
      if (forced || (!on && consoleOn !== usbDevice)) return;
      consoleOn = device;
      typed = "";
    },
    repl(fn) {
      run = fn;
    },
  };
}
