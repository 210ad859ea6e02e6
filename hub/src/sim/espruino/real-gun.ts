// A gun whose firmware bundle runs on the real Espruino interpreter (its Linux build), in a process of its own.
// The bundle is stored as it is flashed — Storage `.bootcde` and `gun.json` — with the board around it
// (firmware/espruino/board.js) as `.boot0`, and the interpreter boots from that flash as a board does. `net` is
// the interpreter's own TCP: the gun talks to the real hub. Each gun has its own folder (its flash image).
//
// The harness talks to the board over the interpreter's stdin/stdout (its USB device): reports come back as
// "\x01<kind><json>\n" frames mixed into what the board writes to USB, commands go in as "\x10<js>\n" lines.

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { MOUNT_DEFAULT, mountAxes } from "@cng/protocol";
import { type BoardProfile, bundlePathFor, consoleDevice, loadBoard } from "./board.js";
import { loadChip, partPins } from "./chip.js";
import type { Gun, GunOptions, LedEvent, ToneEvent, VirtualUsbSerial } from "./gun.js";
import { ImuInputs } from "./imu.js";
import { boardBoot, findInterpreter } from "./interpreter.js";
import type { Pose } from "./motion.js";
import { powersaveAtBoot } from "./radio.js";

export interface RealGunOptions extends GunOptions {
  /** the interpreter binary (default: the built one, see findInterpreter) */
  bin?: string;
  /** time the firmware's own work per IMU sample (for `cng bench firmware`) */
  profile?: boolean;
}

/** Memory as the interpreter counts it, in JsVars. */
export interface GunMemory {
  /** in use now, after a garbage collection (the board's own share included) */
  usage: number;
  /** the board's own share (`.boot0`), measured before the firmware started */
  board: number;
  /** the firmware's share: usage − board */
  firmware: number;
  /** the highest usage seen at a hardware call (I2C, socket, LED, buzzer) since peak tracking started; 0 if off */
  peak: number;
  free: number;
  total: number;
}

export interface RealGun extends Gun {
  readonly runtime: "espruino";
  /** the interpreter process now (a reboot starts another) */
  readonly pid: number | undefined;
  /** reboots so far (E.reboot, or reboot()) */
  readonly reboots: number;
  /** `host:port` of each TCP connection the firmware opened */
  readonly connects: string[];
  /** a Storage file as the board has it now, or undefined */
  readFile(name: string): Promise<string | undefined>;
  /** writes a Storage file as the firmware would (a state to start a test from: an update stopped half-way) */
  writeFile(name: string, text: string): Promise<void>;
  memory(): Promise<GunMemory>;
  /**
   * Runs a plain timer on the board for gun ms `gunMs` and resolves with the gun ms it ran at: the reference for a
   * timed cue (both wait on the same busy interpreter), so a test measures the clock, not the machine's load.
   */
  timerAt(gunMs: number): Promise<number>;
  /** peak tracking on (resets the peak) or off */
  trackPeak(on: boolean): Promise<void>;
  /** µs of interpreter time per IMU sample since the last call, without the board model's own time (profile) */
  imuCost(): Promise<{ samples: number; us: number }>;
  /** resolves once every command sent before it has run on the board */
  settle(): Promise<void>;
  /** power cycle: the interpreter stops and boots again from its flash */
  reboot(): Promise<void>;
  /** the folder holding the flash image */
  readonly dir: string;
  /** when the gun stops: resolves after the process is gone and its folder removed */
  stopped(): Promise<void>;
}

/** the motion is sent this far ahead, so stdin's latency (the interpreter polls it every ≤ 50 ms) never shows */
const LEAD_MS = 80;
/** keyframes per second */
const FEED_MS = 20;
/** an unchanged pose is sent again this often (it is also the board's keepalive) */
const KEEP_MS = 400;

let setpriv: boolean | undefined;
/** Kill the interpreter with its parent (a crashed test run must not leave guns behind). */
function withParentDeath(bin: string): [string, string[]] {
  setpriv ??= spawnSync("setpriv", ["--help"], { stdio: "ignore" }).status === 0;
  return setpriv ? ["setpriv", ["--pdeathsig", "KILL", "--", bin]] : [bin, []];
}

/**
 * A chip runs its firmware on a core of its own; here the interpreter shares this machine's with the tests, the hub
 * and whatever else runs: it goes first (a gun's IMU loop needs much of a core in real time), where allowed (root).
 */
function realTimePriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, -10);
  } catch {
    // not allowed: the gun shares the machine evenly
  }
}

const live = new Set<ChildProcess>();
process.once("exit", () => {
  for (const c of live) c.kill("SIGKILL");
});

/** The board for `.boot0`: its settings, then the board code. */
function bootFile(board: BoardProfile, o: RealGunOptions, pose: Pose): string {
  return boardBoot(boardSettings(board, o, pose));
}

/** `__c` of firmware/espruino/board.js: the board's pins, IMU, battery and model settings. */
export function boardSettings(board: BoardProfile, o: Omit<RealGunOptions, "board">, pose: Pose): object {
  const L = board.led;
  const chip = loadChip(board.chip);
  return {
    chip: board.chip,
    trig: board.trig,
    bz: board.bz.pin,
    // a Puck.js measures its own coin cell (E.getBattery): its volts
    bat: board.bat
      ? { pin: board.bat.pin, div: board.bat.div, v: o.battery ?? 3.9, adc: chip.adc, vref: o.adcVref }
      : board.chip === "NRF52"
        ? { v: o.battery ?? 2.75 }
        : undefined,
    led: { kind: L.kind, pin: L.pin, pr: L.pr, pg: L.pg, pb: L.pb, inv: !!L.inv },
    // the chip's mounting in the simulated gun (imu.mount, as its axes): the chips read the motion turned by it
    imu: {
      kind: board.imu.kind,
      addr: board.imu.addr ?? 0x68,
      ser: board.imu.ser,
      axes: mountAxes(o.imu?.mount ?? MOUNT_DEFAULT),
      who: o.imu?.whoAmI ?? 0x68,
    },
    // what the chip's Espruino does with its pins (hardware/chips.json): DAC pins, serial ports' default pins
    cf: { dac: chip.dac?.pins ?? [], ser: chip.serial ?? {} },
    parts: partPins(board),
    pose: [pose.yaw, pose.pitch, pose.roll],
    bias: o.imu?.gyroBias ?? [0, 0, 0],
    gn: o.imu?.gyroNoise ?? 0,
    an: o.imu?.accelNoise ?? 0,
    yn: o.imu?.yawNoise ?? 0,
    wf: o.wifiFailures ?? 0,
    rs: o.rssi ?? -58,
    prof: !!o.profile,
    wd: 5,
  };
}

const SETUP = `var fs=require("fs"),s=require("Storage");
s.write(".boot0",fs.readFileSync("boot0.js"));
s.write(".bootcde",fs.readFileSync("gun.js"));
if(fs.readdirSync(".").indexOf("gun.json")>=0)s.write("gun.json",fs.readFileSync("gun.json"));
print("cng-flashed "+s.list().join(","));
quit();`;

function run(bin: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = spawn(bin, args, { cwd, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    c.stdout.on("data", (d: Buffer) => {
      out += d.toString("latin1");
    });
    const t = setTimeout(() => c.kill("SIGKILL"), 15_000);
    c.on("error", reject);
    c.on("close", () => {
      clearTimeout(t);
      resolve(out);
    });
  });
}

/** Console text → lines, without the REPL's prompt and line-clearing escapes. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, "g");
function cleanLine(s: string): string {
  return s.replace(ANSI, "").replace(/\r/g, "").replace(/^>+/, "").trimEnd();
}

export async function startRealGun(o: RealGunOptions): Promise<RealGun> {
  const bin = o.bin ?? (await findInterpreter()).path;
  if (!bin) throw new Error((await findInterpreter()).why);
  const board = typeof o.board === "string" ? loadBoard(o.board) : o.board;
  const code = o.code ?? readFileSync(o.bundlePath ?? bundlePathFor(board.name), "latin1");
  const imu = new ImuInputs(o.imu);
  const dir = mkdtempSync(join(tmpdir(), `cng-gun-${board.name}-`));
  writeFileSync(join(dir, "gun.js"), code, "latin1");
  writeFileSync(join(dir, "boot0.js"), bootFile(board, o, imu.pose(0)));
  if (o.config !== null && o.config !== undefined) {
    writeFileSync(join(dir, "gun.json"), typeof o.config === "string" ? o.config : JSON.stringify(o.config));
  }
  writeFileSync(join(dir, "setup.js"), SETUP);
  const flashed = await run(bin, ["setup.js"], dir);
  if (!/cng-flashed .*\.bootcde/.test(flashed)) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not write the flash image with ${bin}:\n${flashed.slice(-500)}`);
  }
  const gun = new RealGunImpl(bin, board, dir, imu, o);
  try {
    await gun.boot();
  } catch (e) {
    gun.stop();
    throw e;
  }
  return gun;
}

interface Waiter {
  kind: string;
  match: (v: any) => boolean;
  resolve: (v: any) => void;
}

class RealGunImpl implements RealGun {
  readonly runtime = "espruino";
  readonly leadMs = LEAD_MS;
  readonly led: LedEvent[] = [];
  readonly tones: ToneEvent[] = [];
  readonly pinClash: string[] = [];
  readonly console: string[] = [];
  readonly errors: unknown[] = [];
  readonly wifi: { connects: { ssid: string; password: string }[]; powersave: string | null };
  readonly usb: VirtualUsbSerial;
  /** host:port of each TCP connect the firmware made */
  readonly connects: string[] = [];
  reboots = 0;
  private proc: ChildProcess | undefined;
  /** epoch ms of gun ms 0 */
  private t0 = 0;
  private boardVars = 0;
  private ledC = 0;
  private toneF = 0;
  private down = false;
  private consoleOn: string;
  private readonly device: string;
  private usbOut = "";
  private readonly usbListeners: ((t: string) => void)[] = [];
  /** stdout parse state */
  private inFrame = false;
  private frame = "";
  private line = "";
  private waiters: Waiter[] = [];
  private feed: NodeJS.Timeout | undefined;
  private last: { t: number; key: string; sent: boolean } | undefined;
  private lastSent = 0;
  private imuKey = "";
  private acks = 0;
  private timers = 0;
  private stopping = false;
  private rebooting = false;
  private readonly gone: Promise<void>;
  private markGone!: () => void;

  constructor(
    private readonly bin: string,
    readonly board: BoardProfile,
    readonly dir: string,
    readonly imu: ImuInputs,
    private readonly o: RealGunOptions,
  ) {
    this.device = consoleDevice(board);
    this.consoleOn = this.device;
    this.wifi = { connects: [], powersave: powersaveAtBoot(board) };
    this.gone = new Promise((r) => {
      this.markGone = r;
    });
    const self = this;
    this.usb = {
      device: this.device,
      get console() {
        return self.consoleOn;
      },
      send: (text: string) => this.write(text),
      onData: (fn) => {
        this.usbListeners.push(fn);
      },
      get out() {
        return self.usbOut;
      },
    };
    this.imuKey = this.imuSettings();
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  now(): number {
    return Date.now() - this.t0;
  }

  ledNow(): number {
    return this.ledC;
  }
  toneNow(): number {
    return this.toneF;
  }

  get button() {
    return {
      press: () => {
        this.down = true;
        this.cmd("__b.t(1)");
      },
      release: () => {
        this.down = false;
        this.cmd("__b.t(0)");
      },
      isDown: () => this.down,
    };
  }

  /** Starts the interpreter on the flash image; resolves when the board has booted (before the firmware runs). */
  boot(): Promise<void> {
    const [cmd, args] = withParentDeath(this.bin);
    const p = spawn(cmd, args, { cwd: this.dir, stdio: ["pipe", "pipe", "pipe"] });
    this.proc = p;
    live.add(p);
    realTimePriority(p.pid);
    this.consoleOn = this.device;
    p.stdout!.on("data", (d: Buffer) => this.parse(d.toString("latin1")));
    p.stderr!.resume();
    p.stdin!.on("error", () => {});
    p.on("exit", (code, signal) => {
      live.delete(p);
      if (this.proc !== p) return;
      this.proc = undefined;
      this.stopFeed();
      if (this.stopping) return;
      if (this.rebooting) {
        this.rebooting = false;
        this.reboots++;
        this.boot().catch((e) => this.errors.push(e));
        return;
      }
      this.errors.push(new Error(`the interpreter stopped (${signal ?? `exit ${code}`})`));
    });
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`the board did not boot in 10 s:\n${this.usbOut.slice(-400)}`)),
        10_000,
      );
      this.wait("B", () => true).then((b: { t0: number; u: number }) => {
        clearTimeout(t);
        this.t0 = b.t0;
        this.boardVars = b.u;
        this.startFeed();
        resolve();
      });
    });
  }

  private write(s: string): void {
    const p = this.proc;
    if (p?.stdin?.writable) p.stdin.write(s, "latin1");
  }

  /** One command for the board (runs in the REPL, or in the board's own reader when the console is away). */
  private cmd(js: string): void {
    this.write(`\x10${js}\n`);
  }

  private wait(kind: string, match: (v: any) => boolean): Promise<any> {
    return new Promise((resolve) => this.waiters.push({ kind, match, resolve }));
  }

  private parse(s: string): void {
    let text = "";
    for (let i = 0; i < s.length; ) {
      if (this.inFrame) {
        const j = s.indexOf("\n", i);
        if (j < 0) {
          this.frame += s.slice(i);
          break;
        }
        this.frame += s.slice(i, j);
        this.inFrame = false;
        if (text) {
          this.text(text);
          text = "";
        }
        this.report(this.frame);
        this.frame = "";
        i = j + 1;
      } else {
        const j = s.indexOf("\x01", i);
        text += j < 0 ? s.slice(i) : s.slice(i, j);
        if (j < 0) break;
        this.inFrame = true;
        i = j + 1;
      }
    }
    if (text) this.text(text);
  }

  /** What the board wrote to USB: the console while it is there, and the serial link's lines. */
  private text(t: string): void {
    this.usbOut += t;
    for (const fn of this.usbListeners) fn(t);
    if (this.consoleOn === this.device) this.consoleText(t);
  }

  private consoleText(t: string): void {
    this.line += t;
    const parts = this.line.split("\n");
    this.line = parts.pop()!;
    for (const raw of parts) {
      const l = cleanLine(raw);
      if (!l) continue;
      this.console.push(l);
      this.o.onConsole?.(l);
      if (l.startsWith("Uncaught ")) this.errors.push(l);
    }
  }

  private report(f: string): void {
    const kind = f[0]!;
    let v: any;
    try {
      v = f.length > 1 ? JSON.parse(f.slice(1)) : undefined;
    } catch {
      this.errors.push(new Error(`unreadable report from the board: ${f.slice(0, 80)}`));
      return;
    }
    switch (kind) {
      case "L":
        this.ledC = v[1];
        this.led.push({ t: v[0], c: v[1] });
        break;
      case "T":
        this.toneF = v[1];
        this.tones.push({ t: v[0], f: v[1] });
        break;
      case "W":
        this.wifi.connects.push({ ssid: v[0], password: v[1] });
        break;
      case "P":
        this.wifi.powersave = v;
        break;
      case "N":
        this.connects.push(`${v[0]}:${v[1]}`);
        break;
      case "C":
        this.consoleText(v);
        break;
      case "K":
        this.consoleOn = v === "usb" ? this.device : v;
        break;
      case "R":
        this.rebooting = true;
        break;
      case "E":
        this.errors.push(new Error(`board: ${v}`));
        break;
      case "X":
        this.pinClash.push(v);
        break;
    }
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) {
      if (w.kind === kind && w.match(v)) w.resolve(v);
      else this.waiters.push(w);
    }
  }

  private imuSettings(): string {
    const i = this.imu;
    return `${i.gyroBias.join(",")},${i.gyroNoise},${i.accelNoise}`;
  }

  private keyframe(t: number, p: Pose): string {
    return `__b.p(${Math.round(t)},${p.yaw.toFixed(2)},${p.pitch.toFixed(2)},${p.roll.toFixed(2)})`;
  }

  /** The motion, sampled ahead: a keyframe whenever the pose changes, and every KEEP_MS anyway. */
  private startFeed(): void {
    this.stopFeed();
    this.last = undefined;
    this.feed = setInterval(() => {
      const t = this.now() + LEAD_MS;
      const p = this.imu.pose(t / 1000);
      const key = `${p.yaw.toFixed(2)},${p.pitch.toFixed(2)},${p.roll.toFixed(2)}`;
      const settings = this.imuSettings();
      let out = "";
      if (settings !== this.imuKey) {
        this.imuKey = settings;
        const i = this.imu;
        out += `\x10__b.gs(${i.gyroBias.join(",")},${i.gyroNoise},${i.accelNoise})\n`;
      }
      const prev = this.last;
      if (!prev || key !== prev.key || t - this.lastSent >= KEEP_MS) {
        // a move after a still spell starts from the last still pose, at its time
        if (prev && !prev.sent && key !== prev.key)
          out += `\x10${this.keyframe(prev.t, this.imu.pose(prev.t / 1000))}\n`;
        out += `\x10${this.keyframe(t, p)}\n`;
        this.lastSent = t;
        this.last = { t, key, sent: true };
      } else this.last = { t, key, sent: false };
      if (out) this.write(out);
    }, FEED_MS);
  }

  private stopFeed(): void {
    if (this.feed) clearInterval(this.feed);
    this.feed = undefined;
  }

  dropNetwork(): void {
    this.cmd("__b.d()");
  }

  setBattery(volts: number): void {
    this.cmd(`__b.bv(${Number(volts)})`);
  }

  async settle(): Promise<void> {
    const n = ++this.acks;
    const got = this.wait("A", (v) => v === n);
    this.cmd(`__b.k(${n})`);
    await got;
  }

  async writeFile(name: string, text: string): Promise<void> {
    this.cmd(`require("Storage").write(${JSON.stringify(name)},${JSON.stringify(text)})`);
    await this.settle();
  }

  async readFile(name: string): Promise<string | undefined> {
    const got = this.wait("F", (v) => v[0] === name);
    this.cmd(`__b.f(${JSON.stringify(name)})`);
    const [, text] = (await got) as [string, string | undefined];
    return text ?? undefined;
  }

  timerAt(gunMs: number): Promise<number> {
    const n = ++this.timers;
    const got = this.wait("Z", (v) => v[0] === n);
    this.cmd(`__b.z(${n},${gunMs})`);
    return got.then((v: [number, number]) => v[1]);
  }

  async memory(): Promise<GunMemory> {
    const got = this.wait("M", () => true);
    this.cmd("__b.m()");
    const m = (await got) as { u: number; pk: number; f: number; t: number };
    return {
      usage: m.u,
      board: this.boardVars,
      firmware: m.u - this.boardVars,
      peak: m.pk,
      free: m.f,
      total: m.t,
    };
  }

  async trackPeak(on: boolean): Promise<void> {
    this.cmd(`__b.pko(${on ? 1 : 0})`);
    await this.settle();
  }

  async imuCost(): Promise<{ samples: number; us: number }> {
    if (!this.o.profile) throw new Error("imuCost needs a gun started with profile: true");
    const got = this.wait("P", () => true);
    this.cmd("__b.pr()");
    const p = (await got) as { n: number; us: number };
    return { samples: p.n, us: p.us };
  }

  async reboot(): Promise<void> {
    const p = this.proc;
    if (!p) return this.boot();
    const done = new Promise<void>((r) => p.once("exit", () => r()));
    this.rebooting = true;
    p.kill("SIGKILL");
    await done;
    // the exit handler boots it again; wait for that boot
    await this.wait("B", () => true);
    await new Promise((r) => setTimeout(r, 0));
  }

  stop(): void {
    if (this.stopping) return;
    this.stopping = true;
    this.stopFeed();
    const p = this.proc;
    const cleanup = () => {
      rmSync(this.dir, { recursive: true, force: true });
      this.markGone();
    };
    if (p && p.exitCode === null && p.signalCode === null) {
      p.once("exit", cleanup);
      p.kill("SIGKILL");
    } else cleanup();
  }

  stopped(): Promise<void> {
    return this.gone;
  }
}
