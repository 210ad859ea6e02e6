// A virtual Espruino board running a firmware bundle in a Node `vm` context: Espruino-shaped globals,
// a register-level IMU, a button, recorded LED and buzzer output, and a real TCP network.
// Fast and deterministic (manual clock), but more lenient than Espruino: the real interpreter (real-gun.ts) is the
// proof that a bundle runs on a board; this one is for the many quick behaviour tests and the simulator's default.

import { readFileSync } from "node:fs";
import { type Socket, connect as tcpConnect } from "node:net";
import vm from "node:vm";
import { crc32 } from "node:zlib";
import { Bno085Rvc, RVC_MS } from "../../../../firmware/espruino/chips/bno085-rvc.mjs";
import { Mpu6050, type Sense } from "../../../../firmware/espruino/chips/mpu6050.mjs";
import { Outputs, serialClashes } from "../../../../firmware/espruino/chips/pins.mjs";
import { wifiModule } from "../../../../firmware/espruino/chips/wifi.mjs";
import type { Clock } from "../../table/clock.js";
import { bundlePathFor, consoleDevice, loadBoard, projectRoot } from "./board.js";
import { adcCount, loadChip, partPins } from "./chip.js";
import { type ClockMode, VirtualClock } from "./clock.js";
import type { Gun, GunOptions, LedEvent, ToneEvent, VirtualUsbSerial } from "./gun.js";
import { ImuInputs } from "./imu.js";
import { bodyGravity, bodyRate } from "./motion.js";
import { PUCK_PINS, vmPuck } from "./puck.js";
import { vmDgram } from "./vm-dgram.js";

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

/** Built-ins of these names are what Espruino's objects are in V8 (firmware/espruino/api.mjs probes the same). */
const TARGET_EXPR: Record<string, string> = {
  "Uint8Array.prototype": "Object.getPrototypeOf(Uint8Array.prototype)",
};
let lacking: string | undefined;
/** `delete …` of every built-in method the real interpreter lacks (firmware/build/espruino-lacks.json). */
function lackingBuiltins(): string {
  if (lacking === undefined) {
    const file = JSON.parse(readFileSync(`${projectRoot}firmware/build/espruino-lacks.json`, "utf8")) as {
      targets: Record<string, { lacks: string[] }>;
    };
    lacking = Object.entries(file.targets)
      .flatMap(([t, { lacks }]) => lacks.map((m) => `delete ${TARGET_EXPR[t] ?? t}[${JSON.stringify(m)}];`))
      .join("");
  }
  return lacking;
}

/** Espruino's writeJSON / E.toJS notation for plain data: identifier keys unquoted. */
function toJs(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(toJs).join(",")}]`;
  if (v && typeof v === "object") {
    const keys = Object.entries(v).filter(([, x]) => x !== undefined);
    return `{${keys.map(([k, x]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}:${toJs(x)}`).join(",")}}`;
  }
  return JSON.stringify(v) ?? "undefined";
}

class Pin {
  constructor(readonly name: string) {}
  toString(): string {
    return this.name;
  }
}

/** Pin globals the profiles use: D0–D48, A0. */
function pins(): Record<string, Pin> {
  const p: Record<string, Pin> = { A0: new Pin("A0") };
  for (let i = 0; i <= 48; i++) p[`D${i}`] = new Pin(`D${i}`);
  return p;
}

class Emitter {
  private readonly h = new Map<string, ((...a: unknown[]) => void)[]>();
  on(ev: string, fn: (...a: unknown[]) => void): void {
    this.h.set(ev, [...(this.h.get(ev) ?? []), fn]);
  }
  emit(ev: string, ...a: unknown[]): void {
    for (const fn of this.h.get(ev) ?? []) fn(...a);
  }
}

export function createVirtualGun(o: VirtualGunOptions): VirtualGun {
  const board = typeof o.board === "string" ? loadBoard(o.board) : o.board;
  const code = o.code ?? readFileSync(o.bundlePath ?? bundlePathFor(board.name), "utf8");
  const clock = new VirtualClock(o.clock ?? "real");
  const P = pins();
  const pin = (x: unknown) => String(x);
  const errors: unknown[] = [];
  const lines: string[] = [];
  // the USB serial port: Espruino's console until the firmware moves it (LoopbackA.setConsole)
  // Serial1 on the ESP chips, USB on boards that have it, Bluetooth on a Puck.js (its console, the Nordic UART)
  const usbDevice = consoleDevice(board);
  let consoleOn = usbDevice;
  let usbOut = "";
  const usbListeners: ((text: string) => void)[] = [];
  const toPc = (d: string) => {
    usbOut += d;
    for (const fn of usbListeners) fn(d);
  };
  const log = (s: string) => {
    lines.push(s);
    o.onConsole?.(s);
    if (consoleOn === usbDevice) toPc(`${s}\r\n`);
  };
  clock.onError = (e) => {
    errors.push(e);
    log(`Uncaught ${e instanceof Error ? e.message : String(e)}`);
  };
  const inputs = new ImuInputs(o.imu);
  const seconds = () => clock.now() / 1000;
  // what the chips sense: the motion's gravity and body rates now, along the gun's axes
  const sense: Sense = () => {
    const t = seconds();
    return [bodyGravity(inputs.pose(t)), bodyRate(inputs.motion, t)];
  };
  const mpu = new Mpu6050(
    board.imu.kind === "mpu6050" ? (board.imu.addr ?? 0x68) : undefined,
    inputs.whoAmI,
    inputs.axes,
    inputs,
    sense,
  );

  // outputs
  const levels = new Map<string, number>();
  const led: LedEvent[] = [];
  const tones: ToneEvent[] = [];
  let ledC = 0;
  let toneF = 0;
  const L = board.led;
  const chip = loadChip(board.chip);
  const outputs = new Outputs(
    { ...L, bz: board.bz.pin, dac: (chip.dac?.pins ?? []).map((g) => `D${g}`) },
    (c) => {
      led.push({ t: clock.now(), c });
      ledC = c;
    },
    (f) => {
      tones.push({ t: clock.now(), f });
      toneF = f;
    },
    log,
  );
  /** pins a board part drives or reads, from the profile: what a serial port's default pin would take over */
  const parts = partPins(board);
  const pinClash: string[] = [];

  // trigger button
  const trig = board.trig;
  levels.set(trig.pin, trig.pressed ? 0 : 1);
  const watches: { fn: (e: unknown) => void; pin: string; debounce: number; id: number }[] = [];
  let lastEdge = 0;
  let pending = 0;
  const setLevel = (p: string, v: number) => {
    if (levels.get(p) === v) return;
    levels.set(p, v);
    for (const w of watches) {
      if (w.pin !== p) continue;
      const edge = seconds();
      clock.clear(pending);
      // Espruino's debounce: report once the level has held for `debounce` ms
      pending = clock.set(
        () => {
          if (levels.get(p) !== v) return;
          const e = { state: v === 1, time: edge, lastTime: lastEdge };
          lastEdge = edge;
          w.fn(e);
        },
        w.debounce,
        false,
      );
    }
  };

  // network
  const sockets: Socket[] = [];
  const net = {
    connect(opts: { host: string; port: number }, cb: () => void) {
      const em = new Emitter();
      const s = tcpConnect({ host: opts.host, port: opts.port });
      sockets.push(s);
      s.setNoDelay(true);
      const guard = (fn: () => void) => () => {
        try {
          fn();
        } catch (e) {
          clock.onError(e);
        }
      };
      s.on("connect", guard(cb));
      s.on("data", (b: Buffer) => guard(() => em.emit("data", b.toString("latin1")))());
      s.on("error", (e) => guard(() => em.emit("error", e.message))());
      s.on("close", () => guard(() => em.emit("close"))());
      return {
        on: (ev: string, fn: (...a: unknown[]) => void) => em.on(ev, fn),
        write: (d: string) => {
          if (!s.destroyed) s.write(Buffer.from(String(d), "latin1"));
        },
        end: () => {
          s.end();
          s.destroySoon();
        },
      };
    },
  };
  let powersave: string | null = null;
  const wifi = {
    connects: [] as { ssid: string; password: string }[],
    get powersave() {
      return powersave;
    },
  };
  const Wifi = wifiModule(board.chip, {
    fails: o.wifiFailures,
    rssi: o.rssi ?? -58,
    later: (fn, ms) => clock.set(fn, ms, false),
    joined: (ssid, password) => wifi.connects.push({ ssid, password: password as string }),
    mode: (m) => {
      powersave = m;
    },
  });
  const storage = new Map<string, string>();
  if (o.config !== null && o.config !== undefined) {
    storage.set("gun.json", typeof o.config === "string" ? o.config : JSON.stringify(o.config));
  }
  const Storage = {
    read: (n: string) => storage.get(n),
    readJSON(n: string, noExceptions: boolean) {
      const s = storage.get(n);
      if (s === undefined) return undefined;
      try {
        return JSON.parse(s);
      } catch (e) {
        if (noExceptions) return undefined;
        throw e;
      }
    },
    // with an offset, into a file made by a first write that gave its size (unwritten bytes read 0xFF, as erased flash)
    write: (n: string, d: string, offset?: number, size?: number) => {
      const data = String(d);
      if (offset === undefined) storage.set(n, data);
      else {
        const cur = size !== undefined ? "\xff".repeat(size) : storage.get(n);
        if (cur === undefined || offset + data.length > cur.length) throw new Error(`Storage: ${n} is not that large`);
        storage.set(n, cur.slice(0, offset) + data + cur.slice(offset + data.length));
      }
      return true;
    },
    getStats: () => {
      let used = 0;
      for (const v of storage.values()) used += v.length + 32;
      const total = board.storage ?? 262144;
      return { totalBytes: total, freeBytes: Math.max(0, total - used), trashBytes: 0, fileBytes: used };
    },
    // as Espruino does: JS notation, keys unquoted where they can be ({id:"g1"}), not JSON
    writeJSON: (n: string, d: unknown) => {
      storage.set(n, toJs(d));
      return true;
    },
    erase: (n: string) => storage.delete(n),
    list: () => [...storage.keys()],
  };
  const neopixel = { write: (p: unknown, d: number[]) => outputs.neopixel(pin(p), d) };
  // UDP (finding the hub, firmware/src/find.ts): Node's, shaped as Espruino's
  const udp = vmDgram((fn) => {
    try {
      fn();
    } catch (e) {
      clock.onError(e);
    }
  });
  const modules: Record<string, unknown> = { net, Wifi, Storage, neopixel, dgram: udp.module };

  // serial devices: the USB console port, the serial line of a BNO085 in UART-RVC mode, the loopback
  interface EspSerial {
    setup(baud?: number, opts?: { rx?: unknown; tx?: unknown }): void;
    on(ev: string, fn: (d: string) => void): void;
    write(d: unknown): void;
    setConsole(force?: boolean): void;
  }
  const serials: Record<string, EspSerial> = {};
  const usbEvents = new Emitter();
  let rvc: number | undefined;
  for (const name of ["Serial1", "Serial2", "USB", "Bluetooth", "LoopbackA", "LoopbackB"]) {
    if ((name === "USB" || name === "Bluetooth") && usbDevice !== name) continue;
    const em = name === usbDevice ? usbEvents : new Emitter();
    serials[name] = {
      setup: (_baud, opts) => {
        // a pin left out is the chip's default for that port (ESP32 Serial2: TX on D4), driven from now on
        pinClash.push(...serialClashes(name, opts, chip.serial ?? {}, parts));
        if (board.imu.kind !== "bno085" || board.imu.ser !== name || rvc) return;
        const bno = new Bno085Rvc(inputs.axes, inputs);
        rvc = clock.set(
          () => {
            const p = inputs.pose(seconds());
            for (const f of bno.pieces(p.yaw, p.pitch, p.roll)) em.emit("data", f);
          },
          RVC_MS,
          true,
        );
      },
      on: (ev, fn) => em.on(ev, fn as (...a: unknown[]) => void),
      write(d: unknown) {
        if (name === usbDevice) toPc(String(d));
      },
      setConsole() {
        consoleOn = name;
      },
    };
  }
  const usb: VirtualUsbSerial = {
    device: usbDevice,
    get console() {
      return consoleOn;
    },
    send(text: string) {
      if (consoleOn === usbDevice) {
        // the REPL echoes what it gets; what it makes of it does not matter here
        toPc(text.replace(/\r?\n/g, "\r\n"));
        return;
      }
      try {
        usbEvents.emit("data", text);
      } catch (e) {
        clock.onError(e);
      }
    },
    onData(fn) {
      usbListeners.push(fn);
    },
    get out() {
      return usbOut;
    },
  };

  const state = { rebooted: 0 };
  let batteryV = o.battery ?? (board.chip === "NRF52" ? 2.75 : 3.9);
  // a Puck.js: its own IMU through the Puck object, its LEDs and button by name, its coin cell
  const puck = board.chip === "NRF52" ? vmPuck(inputs, sense, clock, () => batteryV) : undefined;
  const puckPins = Object.fromEntries(Object.entries(PUCK_PINS).map(([k, g]) => [k, P[`D${g}`]]));
  const sandbox: Record<string, unknown> = {
    ...P,
    ...serials,
    ...(puck ? { Puck: puck.Puck, ...puckPins } : {}),
    I2C1: {
      setup() {},
      writeTo: (addr: number, data: number | number[]) => mpu.writeTo(addr, data),
      readFrom: (addr: number, n: number) => mpu.readFrom(addr, n),
    },
    getTime: seconds,
    // Espruino also takes code as a string, run in the global scope (firmware/src/ota.ts does)
    setTimeout: (fn: (() => void) | string, ms: number) =>
      clock.set(typeof fn === "string" ? () => vm.runInContext(fn, ctx) : fn, ms, false),
    setInterval: (fn: () => void, ms: number) => clock.set(fn, ms, true),
    clearTimeout: (id: unknown) => clock.clear(id),
    clearInterval: (id: unknown) => clock.clear(id),
    setWatch(fn: (e: unknown) => void, p: unknown, opts: { debounce?: number }) {
      const id = watches.length + 1;
      watches.push({ fn, pin: pin(p), debounce: opts?.debounce ?? 0, id });
      return id;
    },
    clearWatch() {},
    pinMode() {},
    digitalRead: (p: unknown) => levels.get(pin(p)) ?? 0,
    digitalWrite: (p: unknown, v: number | boolean) => outputs.write(pin(p), v ? 1 : 0),
    analogWrite: (p: unknown, v: number, opts?: { freq?: number; soft?: boolean }) => outputs.analog(pin(p), v, opts),
    // the battery pin through the divider and the chip's ADC (an ESP32's: uncalibrated, this chip's Vref)
    analogRead: (p: unknown) =>
      board.bat && chip.adc && pin(p) === board.bat.pin
        ? adcCount(chip.adc, batteryV / board.bat.div, o.adcVref) / chip.adc.counts
        : Math.random() * 0.01,
    E: {
      CRC32: (d: string) => crc32(Buffer.from(String(d), "latin1")) >>> 0,
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
        const used = Math.ceil(code.length / 12) + 200;
        return { free: total - used, usage: used, total };
      },
      env: { VERSION: "2v25", BOARD: board.chip },
    },
    console: { log: (...a: unknown[]) => log(a.map(String).join(" ")) },
    print: (...a: unknown[]) => log(a.map(String).join(" ")),
    require(name: string) {
      if (!(name in modules)) throw new Error(`Module ${name} not found`);
      return modules[name];
    },
  };
  const ctx = vm.createContext(sandbox);
  vm.runInContext("var global = globalThis;", ctx);
  // what Espruino lacks is gone here too, so code leaning on it fails in tests as on the board
  vm.runInContext(
    "delete globalThis.Map; delete globalThis.Set; delete globalThis.WeakMap; delete globalThis.WeakSet;" +
      "delete globalThis.Symbol; delete globalThis.Proxy; delete globalThis.Reflect;" +
      lackingBuiltins(),
    ctx,
  );
  try {
    vm.runInContext(code, ctx, { filename: `${board.name}/gun.js` });
  } catch (e) {
    clock.onError(e);
  }

  return {
    runtime: "vm",
    leadMs: 0,
    board,
    clock,
    imu: inputs,
    now: () => Math.floor(clock.now()),
    advance: (ms: number) => clock.advance(ms),
    button: {
      press: () => setLevel(trig.pin, trig.pressed ? 1 : 0),
      release: () => setLevel(trig.pin, trig.pressed ? 0 : 1),
      isDown: () => levels.get(trig.pin) === (trig.pressed ? 1 : 0),
    },
    led,
    tones,
    pinClash,
    ledNow: () => ledC,
    toneNow: () => toneF,
    console: lines,
    errors,
    storage,
    wifi,
    usb,
    sockets,
    get rebooted() {
      return state.rebooted;
    },
    dropNetwork() {
      for (const s of sockets) s.destroy();
    },
    setBattery(v: number) {
      batteryV = v;
    },
    stop() {
      clock.stop();
      for (const s of sockets) s.destroy();
      udp.closeAll();
    },
  };
}
