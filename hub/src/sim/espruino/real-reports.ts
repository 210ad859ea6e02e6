// What the real interpreter's board reports of the gun (real-link.ts), kept as the Gun interface shows it: the LED and
// the buzzer over time, the WiFi and TCP connects, the console wherever it is, pin clashes and errors.
import { type BoardProfile, consoleDevice } from "../../boards/profile.js";
import type { GunImuFilters, GunWifi, LedEvent, ToneEvent, VirtualUsbSerial } from "./gun.js";
import { apAtBoot, powersaveAtBoot } from "./radio.js";
import { ConsoleLines } from "./real-console.js";
import type { LinkListener, Report } from "./real-link.js";

/** The USB serial port seen from the PC: what the board wrote, and where its console is. */
class RealUsb implements VirtualUsbSerial {
  console: string;
  out = "";
  private readonly listeners: ((t: string) => void)[] = [];

  constructor(
    readonly device: string,
    readonly send: (text: string) => void,
  ) {
    this.console = device;
  }

  onData(fn: (t: string) => void): void {
    this.listeners.push(fn);
  }

  /** What the board wrote to USB. */
  heard(t: string): void {
    this.out += t;
    for (const fn of this.listeners) fn(t);
  }
}

export class ReportedGun implements LinkListener {
  readonly led: LedEvent[] = [];
  readonly tones: ToneEvent[] = [];
  readonly pinClash: string[] = [];
  readonly console: string[] = [];
  readonly errors: unknown[] = [];
  readonly wifi: { connects: GunWifi["connects"]; powersave: string | null; ap: boolean };
  readonly usb: RealUsb;
  /** host:port of each TCP connect the firmware made */
  readonly connects: string[] = [];
  /** each NRF.setSecurity a Puck.js's firmware made */
  readonly security: unknown[] = [];
  /** the MPU-6050's filters as the firmware last configured them */
  imuFilters: GunImuFilters | undefined;
  /** the board asked for a reboot (E.reboot): its process ends next */
  protected rebooting = false;
  private readonly heard = new Set<(e: ToneEvent) => void>();
  private readonly seen = new Set<(e: LedEvent) => void>();
  private ledC = 0;
  private toneF = 0;
  private readonly lines: ConsoleLines;

  /** `send` takes bytes for the board's USB. */
  constructor(board: BoardProfile, onConsole: ((line: string) => void) | undefined, send: (text: string) => void) {
    this.usb = new RealUsb(consoleDevice(board), send);
    this.wifi = { connects: [], powersave: powersaveAtBoot(board), ap: apAtBoot(board) };
    this.lines = new ConsoleLines(this.console, this.errors, onConsole);
  }

  ledNow(): number {
    return this.ledC;
  }
  toneNow(): number {
    return this.toneF;
  }

  onTone(fn: (e: ToneEvent) => void): () => void {
    this.heard.add(fn);
    return () => this.heard.delete(fn);
  }

  onLed(fn: (e: LedEvent) => void): () => void {
    this.seen.add(fn);
    return () => this.seen.delete(fn);
  }

  /** What the board wrote to USB itself: the console while it is there. */
  text(t: string): void {
    this.usb.heard(t);
    if (this.usb.console === this.usb.device) this.lines.add(t);
  }

  bad(e: Error): void {
    this.errors.push(e);
  }

  report(r: Report): void {
    switch (r.kind) {
      case "L":
        this.ledC = r.v[1];
        this.led.push({ t: r.v[0], c: r.v[1] });
        for (const fn of this.seen) fn({ t: r.v[0], c: r.v[1] });
        break;
      case "T":
        this.toneF = r.v[1];
        this.tones.push({ t: r.v[0], f: r.v[1] });
        for (const fn of this.heard) fn({ t: r.v[0], f: r.v[1] });
        break;
      case "W":
        this.wifi.connects.push({ ssid: r.v[0], password: r.v[1] });
        break;
      case "P":
        if (typeof r.v === "string") this.wifi.powersave = r.v;
        break;
      case "S":
        this.wifi.ap = r.v;
        break;
      case "N":
        this.connects.push(`${r.v[0]}:${r.v[1]}`);
        break;
      case "C":
        this.lines.add(r.v);
        break;
      case "K":
        this.usb.console = r.v === "usb" ? this.usb.device : r.v;
        break;
      case "R":
        this.rebooting = true;
        break;
      case "E":
        this.errors.push(new Error(`board: ${r.v}`));
        break;
      case "X":
        this.pinClash.push(r.v);
        break;
      case "Q":
        this.security.push(r.v);
        break;
      case "I":
        this.imuFilters = { accel: r.v[0], gyro: r.v[1] };
        break;
    }
  }
}
