// A gun as the simulator and the tests see it, whichever runtime runs its firmware bundle: Node's `vm` with
// Espruino-shaped globals (vm-gun.ts), or the real Espruino interpreter in a process of its own (real-gun.ts).
import type { BoardProfile } from "../../boards/profile.js";
import type { ImuInputs, ImuModelOptions } from "./imu.js";

/** Where a gun's firmware runs: "vm" (Node's vm, fast, lenient) or "espruino" (the real interpreter). */
export type GunRuntime = "vm" | "espruino";

export interface LedEvent {
  /** gun ms */
  t: number;
  /** 0xRRGGBB as written to the LED (after the board's brightness cap) */
  c: number;
}
export interface ToneEvent {
  /** gun ms */
  t: number;
  /** Hz; 0 = silent */
  f: number;
}

/** The board's USB serial port, seen from the PC at the other end of the cable. */
export interface VirtualUsbSerial {
  /** the device name on the board: `Serial1` (ESP32, ESP8266), `USB`, or `Bluetooth` (a Puck.js: its Nordic UART) */
  readonly device: string;
  /** where Espruino's console (REPL) is now: the USB device, or `LoopbackA` once the firmware moved it */
  readonly console: string;
  /** bytes from the PC to the board: to the REPL while the console is on USB, else to `on("data")` */
  send(text: string): void;
  /** bytes from the board to the PC (console output while the console is on USB, and `write`) */
  onData(fn: (text: string) => void): void;
  /** everything the board sent so far */
  readonly out: string;
}

/**
 * A Puck.js's Bluetooth (nRF52 boards): the central at the other end of its Nordic UART (the board's link device),
 * coming and going, and what the firmware asked of the radio's security.
 */
export interface GunBle {
  /** a central is connected (one is from boot: the bridge may be there before the gun starts) */
  readonly connected: boolean;
  /** a central connects (another one goes first): Espruino gives it the console unless the firmware forced it away */
  connect(addr?: string): void;
  /** the central goes */
  disconnect(): void;
  /** each NRF.setSecurity the firmware made, its options as given */
  readonly security: unknown[];
}

/** An MPU-6050's low-pass filters, 3 dB bandwidth in Hz, as its registers set them (the part's own tables). */
export interface GunImuFilters {
  accel: number;
  gyro: number;
}

/** The board's WiFi as the firmware left it. */
export interface GunWifi {
  connects: { ssid: string; password: string }[];
  /** the radio's power save (radio.ts), null on a board without WiFi */
  readonly powersave: string | null;
  /** the soft access point is up (firmware/espruino/chips/wifi.mjs AP_AT_BOOT: an ESP8266's SDK keeps it on) */
  readonly ap: boolean;
}

/** What every runtime is started with. */
export interface GunOptions {
  /** board profile name or object (hardware/boards/<name>.json) */
  board: string | BoardProfile;
  /** the bundle to run; default firmware/dist/<board>/gun.js */
  bundlePath?: string;
  /** or the code itself */
  code?: string;
  /** Storage `gun.json`: an object, raw text, or null for none */
  config?: object | string | null;
  imu?: ImuModelOptions;
  /** WiFi connects that fail before one succeeds */
  wifiFailures?: number;
  /** battery voltage */
  battery?: number;
  /** this chip's ADC reference, mV: an ESP32's spreads 1000-1200 around the typical 1100 the firmware assumes */
  adcVref?: number;
  /** WiFi signal the board reads, dBm (default -58) */
  rssi?: number;
  /** each console line of the gun */
  onConsole?: (line: string) => void;
  /**
   * the trigger is down as the board starts (on the real interpreter at each start, a reset() too, until a test lets
   * go with `button.release()`): what the firmware reads at boot. (A Puck.js
   * powered up with its button down runs no saved code at all, Espruino's own targets/nrf5x/main.c; the models run
   * the firmware and its own check, what a restart by load() with the button down does.)
   */
  held?: boolean;
}

export interface Gun {
  readonly runtime: GunRuntime;
  board: BoardProfile;
  /** what the IMU model reads: change `imu.motion` to move the gun */
  imu: ImuInputs;
  /** the motion is sampled this many ms ahead of now (a move planned to start sooner starts late) */
  readonly leadMs: number;
  /**
   * gun ms now (getTime() × 1000 since the firmware started, as a call from outside its timers reads it: a timer the
   * laptop ran late reads its own, earlier time)
   */
  now(): number;
  button: { press(): void; release(): void; isDown(): boolean };
  led: LedEvent[];
  tones: ToneEvent[];
  /** calls `fn` with each tone change as the gun plays it (the people at the table hear it); returns the unsubscribe */
  onTone(fn: (e: ToneEvent) => void): () => void;
  /** the same for the LED's colour (its player sees it) */
  onLed(fn: (e: LedEvent) => void): () => void;
  /** pins two things drive at once, as the board found them (a serial port's default TX on the buzzer's pin) */
  pinClash: string[];
  /**
   * the MPU-6050's filters as the firmware last wrote its configuration (0x19-0x1d), read the way the part that
   * answered (`imu.whoAmI`) reads its registers; undefined until then, and on other IMUs
   */
  readonly imuFilters: GunImuFilters | undefined;
  /** current LED colour, buzzer frequency */
  ledNow(): number;
  toneNow(): number;
  /** the console's lines, wherever the console is */
  console: string[];
  /** exceptions the firmware let escape (Espruino prints them and carries on) */
  errors: unknown[];
  wifi: GunWifi;
  usb: VirtualUsbSerial;
  /** a Puck.js's Bluetooth; undefined on a board without it */
  ble?: GunBle;
  /** the battery's volts from now on (a discharge); a real gun's reboot goes back to `battery` */
  setBattery(volts: number): void;
  /** drop every open socket without a goodbye (a WiFi loss) */
  dropNetwork(): void;
  /**
   * The TCP port of the board's telnet console (a board's is 23: Espruino's ESP32 and ESP8266 builds open it at every
   * boot until the firmware turns it off), on 127.0.0.1; undefined on a board without WiFi.
   */
  telnetPort(): Promise<number | undefined>;
  stop(): void;
}
