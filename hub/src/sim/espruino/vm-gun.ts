// A virtual Espruino board running a firmware bundle in a Node `vm` context: Espruino-shaped globals,
// a register-level IMU, a button, recorded LED and buzzer output, and a real TCP network.
// Fast and deterministic (manual clock), but more lenient than Espruino: the real interpreter (real-gun.ts) is the
// proof that a bundle runs on a board; this one is for the many quick behaviour tests and the simulator's default.
// Each part of the board is a file of its own (vm-*.ts); here they are put together as the firmware's globals.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Socket } from "node:net";
import vm from "node:vm";
import { crc32 } from "node:zlib";
import { serialClashes } from "../../../../firmware/espruino/chips/pins.mjs";
import { adcCount, type Chip, loadChip, partPins } from "../../boards/chips.js";
import { type BoardProfile, bundlePathFor, loadBoard } from "../../boards/profile.js";
import type { Clock } from "../../table/clock.js";
import { type ClockMode, VirtualClock } from "./clock.js";
import type { Gun, GunOptions } from "./gun.js";
import { ImuInputs } from "./imu.js";
import { PUCK_PINS, type VmPuck, vmPuck } from "./puck.js";
import { type VmBle, vmBle } from "./vm-ble.js";
import { espruinoContext, pinName, pins } from "./vm-context.js";
import { type VmDgram, vmDgram } from "./vm-dgram.js";
import { type VmImu, vmImu } from "./vm-imu.js";
import { type VmNet, vmNet } from "./vm-net.js";
import { type VmOutputs, vmOutputs } from "./vm-outputs.js";
import { type VmSerial, vmSerial } from "./vm-serial.js";
import { type VmStorage, vmStorage } from "./vm-storage.js";
import { type VmTelnet, vmTelnet } from "./vm-telnet.js";
import { type VmTrigger, vmTrigger } from "./vm-trigger.js";
import { type VmWifi, vmWifi } from "./vm-wifi.js";

export interface VirtualGunOptions extends GunOptions {
  /** "real" (default), "manual" (time moves only with advance()), or a clock shared with the hub and the bots */
  clock?: Exclude<ClockMode, "shared"> | Clock;
}

export interface VirtualGun extends Gun {
  readonly runtime: "vm";
  clock: VirtualClock;
  advance(ms: number): Promise<void>;
  storage: Map<string, string>;
  /** sockets opened by the firmware */
  sockets: Socket[];
  rebooted: number;
}

export function createVirtualGun(o: VirtualGunOptions): VirtualGun {
  const b = vmBoard(o);
  const { clock, outputs, serial, net, state } = b;
  if (o.held) b.trigger.button.press();
  runFirmware(b, o.code ?? readFileSync(o.bundlePath ?? bundlePathFor(b.board.name), "utf8"));
  // the interpreter idles after the boot code: the telnet console opens then, if the firmware left it on
  b.telnet?.booted();
  return {
    runtime: "vm",
    leadMs: 0,
    board: b.board,
    clock,
    imu: b.inputs,
    now: () => Math.floor(clock.wallNow()),
    advance: (ms: number) => clock.advance(ms),
    button: b.trigger.button,
    led: outputs.led,
    tones: outputs.tones,
    onTone: outputs.onTone,
    onLed: outputs.onLed,
    pinClash: b.pinClash,
    get imuFilters() {
      return b.imu.filters;
    },
    ledNow: outputs.ledNow,
    toneNow: outputs.toneNow,
    console: serial.lines,
    errors: b.errors,
    storage: b.flash.files,
    wifi: b.radio.wifi,
    usb: serial.usb,
    sockets: net.sockets,
    get rebooted() {
      return state.rebooted;
    },
    dropNetwork() {
      for (const s of net.sockets) s.destroy();
    },
    setBattery(v: number) {
      state.batteryV = v;
    },
    telnetPort: async () => (b.telnet ? b.telnet.port : undefined),
    ...(b.ble ? { ble: b.ble } : {}),
    stop() {
      clock.stop();
      b.telnet?.close();
      for (const s of net.sockets) s.destroy();
      b.udp.closeAll();
    },
  };
}

/** The board's parts, each on the board's clock. */
interface VmBoard {
  board: BoardProfile;
  chip: Chip;
  clock: VirtualClock;
  inputs: ImuInputs;
  imu: VmImu;
  serial: VmSerial;
  outputs: VmOutputs;
  trigger: VmTrigger;
  net: VmNet;
  radio: VmWifi;
  flash: VmStorage;
  udp: VmDgram;
  /** Espruino's telnet console (ESP32, ESP8266: vm-telnet.ts) */
  telnet: VmTelnet | undefined;
  /** a Puck.js's Bluetooth: its centrals, NRF (vm-ble.ts) */
  ble: VmBle | undefined;
  puck: VmPuck | undefined;
  /** pins two things drive at once, as the board found them */
  pinClash: string[];
  /** exceptions the firmware let escape */
  errors: unknown[];
  /** E.reboot counts here; the battery's volts now and the ADC's reference (mV, GunOptions.adcVref) */
  state: { rebooted: number; batteryV: number; adcVref?: number };
}

function vmBoard(o: VirtualGunOptions): VmBoard {
  const board = typeof o.board === "string" ? loadBoard(o.board) : o.board;
  const clock = new VirtualClock(o.clock ?? "real");
  const guard = (fn: () => void) => {
    try {
      fn();
    } catch (e) {
      clock.onError(e);
    }
  };
  const chip = loadChip(board.chip);
  const inputs = new ImuInputs(o.imu);
  const imu = vmImu(board.imu, inputs, clock);
  /** pins a board part drives or reads, from the profile: what a serial port's default pin would take over */
  const parts = partPins(board);
  const pinClash: string[] = [];
  const serial = vmSerial(board, {
    onConsole: o.onConsole,
    guard,
    setup: (name, opts, receive) => {
      // a pin left out is the chip's default for that port (ESP32 Serial2: TX on D4), driven from now on
      pinClash.push(...serialClashes(name, opts, chip.serial ?? {}, parts));
      imu.serialSetup(name, receive);
    },
  });
  const errors: unknown[] = [];
  clock.onError = (e) => {
    errors.push(e);
    serial.log(`Uncaught ${e instanceof Error ? e.message : String(e)}`);
  };
  const state = { rebooted: 0, batteryV: o.battery ?? (board.chip === "NRF52" ? 2.75 : 3.9), adcVref: o.adcVref };
  return {
    board,
    chip,
    clock,
    inputs,
    imu,
    serial,
    outputs: vmOutputs(board, chip.dac?.pins ?? [], () => clock.now(), serial.log),
    trigger: vmTrigger(board.trig, clock),
    net: vmNet(guard),
    radio: vmWifi(board, clock, o.wifiFailures, o.rssi ?? -58),
    flash: vmStorage(board, o.config),
    // UDP (finding the hub, firmware/src/find.ts): Node's, shaped as Espruino's
    udp: vmDgram(guard),
    telnet: undefined,
    ble: undefined,
    // a Puck.js: its own IMU through the Puck object, its LEDs and button by name, its coin cell
    puck: board.chip === "NRF52" ? vmPuck(inputs, imu.sense, clock, () => state.batteryV) : undefined,
    pinClash,
    errors,
    state,
  };
}

/** Espruino's `require("crypto").SHA256`: the bytes of a string (one byte a character), a 32-byte ArrayBuffer. */
function sha256(m: unknown): ArrayBuffer {
  const d = createHash("sha256")
    .update(Buffer.from(String(m), "latin1"))
    .digest();
  return d.buffer.slice(d.byteOffset, d.byteOffset + d.length);
}

/** Runs the firmware bundle `code` on the board, in a context of its own. */
function runFirmware(b: VmBoard, code: string): void {
  const run = (js: string): unknown => vm.runInContext(js, ctx);
  if (b.chip.telnet) b.telnet = vmTelnet(run, b.serial);
  if (b.puck)
    b.ble = vmBle(b.serial, run, (fn) => {
      try {
        fn();
      } catch (e) {
        b.clock.onError(e);
      }
    });
  const ctx: vm.Context = espruinoContext(boardGlobals(b, code.length, run));
  try {
    vm.runInContext(code, ctx, { filename: `${b.board.name}/gun.js` });
  } catch (e) {
    b.clock.onError(e);
  }
}

/**
 * The firmware's globals: the board's parts under Espruino's names; `codeLength` is the bundle's (the memory it takes),
 * `run` runs code in the firmware's global scope.
 */
function boardGlobals(b: VmBoard, codeLength: number, run: (js: string) => unknown): Record<string, unknown> {
  const { board, chip, clock, serial, outputs, trigger, puck, state } = b;
  const modules: Record<string, unknown> = {
    net: b.net.module,
    Wifi: b.radio.module,
    Storage: b.flash.module,
    neopixel: outputs.neopixel,
    dgram: b.udp.module,
    ...(b.telnet ? { TelnetServer: b.telnet.module } : {}),
    // Espruino's ESP32 and Puck.js builds have SHA-256 (boards/ESP32.py, PUCKJS.py: CRYPTO, SHA256), the ESP8266's
    // SHA-1 only
    ...(board.chip === "ESP32" || board.chip === "NRF52" ? { crypto: { SHA256: sha256 } } : {}),
  };
  const P = pins();
  const puckPins = puck ? Object.fromEntries(Object.entries(PUCK_PINS).map(([k, g]) => [k, P[`D${g}`]])) : {};
  return {
    ...P,
    ...serial.devices,
    ...(puck ? { Puck: puck.Puck, ...puckPins } : {}),
    ...(b.ble ? { NRF: b.ble.NRF } : {}),
    I2C1: b.imu.I2C1,
    getTime: () => clock.now() / 1000,
    // Espruino also takes code as a string, run in the global scope (firmware/src/ota.ts does)
    setTimeout: (fn: (() => void) | string, ms: number) =>
      clock.set(typeof fn === "string" ? () => run(fn) : fn, ms, false),
    setInterval: (fn: () => void, ms: number) => clock.set(fn, ms, true),
    clearTimeout: (id: unknown) => clock.clear(id),
    clearInterval: (id: unknown) => clock.clear(id),
    setWatch: trigger.setWatch,
    clearWatch: trigger.clearWatch,
    pinMode() {},
    digitalRead: trigger.digitalRead,
    digitalWrite: outputs.digitalWrite,
    analogWrite: outputs.analogWrite,
    // the battery pin through the divider and the chip's ADC (an ESP32's: uncalibrated, this chip's Vref)
    analogRead: (p: unknown) =>
      board.bat && chip.adc && pinName(p) === board.bat.pin
        ? adcCount(chip.adc, state.batteryV / board.bat.div, state.adcVref) / chip.adc.counts
        : Math.random() * 0.01,
    E: {
      CRC32: (d: string) => crc32(Buffer.from(String(d), "latin1")) >>> 0,
      toString: (a: ArrayBuffer) => Buffer.from(a).toString("latin1"),
      // counted, not a restart: updates over the air run to their restart here, and end to end on the interpreter
      reboot: () => {
        state.rebooted++;
      },
      getTemperature: () => 30,
      ...(puck ? { getBattery: puck.getBattery } : {}),
    },
    process: {
      memory: () => {
        const total = board.budget.jsvars;
        const used = Math.ceil(codeLength / 12) + 200;
        return { free: total - used, usage: used, total };
      },
      env: { VERSION: "2v25", BOARD: board.chip },
    },
    console: { log: (...a: unknown[]) => serial.log(a.map(String).join(" ")) },
    print: (...a: unknown[]) => serial.log(a.map(String).join(" ")),
    require(name: string) {
      if (!(name in modules)) throw new Error(`Module ${name} not found`);
      return modules[name];
    },
  };
}
