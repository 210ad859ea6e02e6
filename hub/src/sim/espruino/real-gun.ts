// A gun whose firmware bundle runs on the real Espruino interpreter (its Linux build), in a process of its own.
// The bundle is stored as it is flashed — Storage `.bootcde` and `gun.json` — with the board around it
// (firmware/espruino/board.js) as `.boot0`, and the interpreter boots from that flash as a board does. `net` is
// the interpreter's own TCP: the gun talks to the real hub. Each gun has its own folder (its flash image).
//
// The harness talks to the board over the interpreter's stdin/stdout (its USB device): reports come back as
// "\x01<kind><json>\n" frames mixed into what the board writes to USB (real-link.ts), and what they tell
// of the gun is kept (real-reports.ts); commands go in as "\x10<js>\n" lines. The board's settings are
// real-settings.ts, its flash image real-flash.ts, the process real-process.ts, the motion real-feed.ts.

import type { ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { loadChip } from "../../boards/chips.js";
import { type BoardProfile, bundlePathFor, loadBoard } from "../../boards/profile.js";
import type { Gun, GunBle, GunOptions } from "./gun.js";
import { ImuInputs } from "./imu.js";
import { findInterpreter } from "./interpreter.js";
import { LEAD_MS, MotionFeed } from "./real-feed.js";
import { flashImage } from "./real-flash.js";
import { BoardLink } from "./real-link.js";
import { spawnInterpreter } from "./real-process.js";
import { ReportedGun } from "./real-reports.js";
import { bootFile } from "./real-settings.js";
import { freePort } from "./vm-telnet.js";

export { type BoardSettings, boardSettings } from "./real-settings.js";

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

export async function startRealGun(o: RealGunOptions): Promise<RealGun> {
  const bin = o.bin ?? (await findInterpreter()).path;
  if (!bin) throw new Error((await findInterpreter()).why);
  const board = typeof o.board === "string" ? loadBoard(o.board) : o.board;
  const code = o.code ?? readFileSync(o.bundlePath ?? bundlePathFor(board.name), "latin1");
  const imu = new ImuInputs(o.imu);
  const dir = await flashImage(bin, board.name, { code, boot0: bootFile(board, o, imu.pose(0)), config: o.config });
  // a chip whose Espruino opens a telnet console at every boot: the interpreter does too, on a port of this gun's own
  const telnet = loadChip(board.chip).telnet ? await freePort() : undefined;
  const gun = new RealGunImpl(bin, board, dir, imu, o, telnet);
  try {
    await gun.boot();
  } catch (e) {
    gun.stop();
    throw e;
  }
  return gun;
}

class RealGunImpl extends ReportedGun implements RealGun {
  readonly runtime = "espruino";
  readonly leadMs = LEAD_MS;
  reboots = 0;
  private proc: ChildProcess | undefined;
  /** epoch ms of gun ms 0 */
  private t0 = 0;
  private boardVars = 0;
  private down = false;
  private central = true;
  private readonly link: BoardLink;
  private readonly feed: MotionFeed;
  private acks = 0;
  private timers = 0;
  private stopping = false;
  private readonly gone: Promise<void>;
  private markGone!: () => void;

  constructor(
    private readonly bin: string,
    readonly board: BoardProfile,
    readonly dir: string,
    readonly imu: ImuInputs,
    private readonly o: RealGunOptions,
    private readonly telnet: number | undefined,
  ) {
    super(board, o.onConsole, (text) => this.write(text));
    this.down = !!o.held;
    this.link = new BoardLink(this);
    this.feed = new MotionFeed(
      imu,
      () => this.now(),
      (cmds) => this.write(cmds.map((c) => `\x10${c}\n`).join("")),
    );
    this.gone = new Promise((r) => {
      this.markGone = r;
    });
  }

  async telnetPort(): Promise<number | undefined> {
    return this.telnet;
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  now(): number {
    return Date.now() - this.t0;
  }

  /** a Puck.js's Bluetooth: the central on its Nordic UART (the interpreter's stdin/stdout) comes and goes */
  get ble(): GunBle | undefined {
    if (this.board.chip !== "NRF52") return undefined;
    const self = this;
    return {
      get connected() {
        return self.central;
      },
      connect: (addr = "c0:ff:ee:00:00:02 public") => {
        this.central = true;
        this.cmd(`__b.bc(${JSON.stringify(addr)})`);
      },
      disconnect: () => {
        this.central = false;
        this.cmd("__b.bd()");
      },
      security: this.security,
    };
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
    const p = spawnInterpreter(this.bin, this.dir, this.telnet);
    this.proc = p;
    this.usb.console = this.usb.device;
    this.central = true;
    p.stdout!.on("data", (d: Buffer) => this.link.parse(d.toString("latin1")));
    p.on("exit", (code, signal) => this.exited(p, signal ?? `exit ${code}`));
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`the board did not boot in 10 s:\n${this.usb.out.slice(-400)}`)),
        10_000,
      );
      this.link.wait("B").then((b) => {
        clearTimeout(t);
        this.t0 = b.t0;
        this.boardVars = b.u;
        this.feed.start();
        resolve();
      });
    });
  }

  /** The interpreter `p` stopped: a reboot boots it again, anything else unasked is an error. */
  private exited(p: ChildProcess, how: string): void {
    if (this.proc !== p) return;
    this.proc = undefined;
    this.feed.stop();
    if (this.stopping) return;
    if (this.rebooting) {
      this.rebooting = false;
      this.reboots++;
      this.boot().catch((e) => this.errors.push(e));
      return;
    }
    this.errors.push(new Error(`the interpreter stopped (${how})`));
  }

  private write(s: string): void {
    const p = this.proc;
    if (p?.stdin?.writable) p.stdin.write(s, "latin1");
  }

  /** One command for the board (runs in the REPL, or in the board's own reader when the console is away). */
  private cmd(js: string): void {
    this.write(`\x10${js}\n`);
  }

  dropNetwork(): void {
    this.cmd("__b.d()");
  }

  setBattery(volts: number): void {
    this.cmd(`__b.bv(${Number(volts)})`);
  }

  async settle(): Promise<void> {
    const n = ++this.acks;
    const got = this.link.wait("A", (v) => v === n);
    this.cmd(`__b.k(${n})`);
    await got;
  }

  async writeFile(name: string, text: string): Promise<void> {
    this.cmd(`require("Storage").write(${JSON.stringify(name)},${JSON.stringify(text)})`);
    await this.settle();
  }

  async readFile(name: string): Promise<string | undefined> {
    const got = this.link.wait("F", (v) => v[0] === name);
    this.cmd(`__b.f(${JSON.stringify(name)})`);
    const [, text] = await got;
    return text ?? undefined;
  }

  timerAt(gunMs: number): Promise<number> {
    const n = ++this.timers;
    const got = this.link.wait("Z", (v) => v[0] === n);
    this.cmd(`__b.z(${n},${gunMs})`);
    return got.then((v) => v[1]);
  }

  async memory(): Promise<GunMemory> {
    const got = this.link.wait("M");
    this.cmd("__b.m()");
    const m = await got;
    return { usage: m.u, board: this.boardVars, firmware: m.u - this.boardVars, peak: m.pk, free: m.f, total: m.t };
  }

  async trackPeak(on: boolean): Promise<void> {
    this.cmd(`__b.pko(${on ? 1 : 0})`);
    await this.settle();
  }

  async imuCost(): Promise<{ samples: number; us: number }> {
    if (!this.o.profile) throw new Error("imuCost needs a gun started with profile: true");
    const got = this.link.wait("P", (v) => typeof v === "object");
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
    await this.link.wait("B");
    await new Promise((r) => setTimeout(r, 0));
  }

  stop(): void {
    if (this.stopping) return;
    this.stopping = true;
    this.feed.stop();
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
