// A board for flashing tests: the real Espruino interpreter (its Linux build) with nothing flashed on it but the
// board around it (firmware/espruino/board.js as `.boot0`: the ESP pins and objects, the IMU, WiFi, LEDs — the
// hardware, which no flash touches), and its console — the interpreter's stdin/stdout, the board's USB serial — open
// to the test as a byte stream. What the board around it reports ("\x01<kind><json>\n" frames) is taken out of
// that stream: a flasher sees only the console, as on a board.
//
// The same board shim real-gun.ts boots guns with, set up the same way (its `__c` settings), with the watchdog
// long: nothing feeds it keepalives here; and process.env.MODULES says the chip's built-in modules, as the chip does.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadBoard } from "../../hub/src/boards/profile.js";
import { espruinoBoardFile } from "../../hub/src/flash/flash.js";
import { boardBoot, findInterpreter } from "../../hub/src/sim/espruino/interpreter.js";
import { boardSettings } from "../../hub/src/sim/espruino/real-gun.js";

export interface TestBoard {
  /** bytes to the board's USB serial (latin1) */
  write(bytes: string): void;
  /** what the board's console sends back (latin1), frames taken out */
  onConsole(cb: (bytes: string) => void): void;
  /** the console's text so far */
  readonly out: string;
  /** the board's reports so far: [kind, value]: W WiFi connect [ssid, pass], N TCP connect [host, port], B booted… */
  readonly reports: [string, unknown][];
  /** Storage's file names, asked through the board around the interpreter (after a boot) */
  list(): Promise<string[]>;
  /** a Storage file, byte for byte (latin1), or undefined */
  readFile(name: string): Promise<string | undefined>;
  /** resolves when a report of `kind` matching `match` arrives (or is already there) */
  report(kind: string, match?: (v: any) => boolean, ms?: number): Promise<any>;
  /** the interpreter stopped (a second Ctrl-C on an empty line, Ctrl-D, or the end) */
  readonly exited: boolean;
  stop(): Promise<void>;
}

export interface TestBoardOptions {
  /** the board profile the hardware around the interpreter is (default esp32-mpu6050) */
  board?: string;
  /** files already in Storage besides `.boot0` (a gun flashed before, updates over the air) */
  files?: Record<string, string>;
}

const SETUP = `var fs=require("fs"),s=require("Storage");
fs.readdirSync(".").forEach(function(f){if(f.indexOf("storage-")===0)s.write(f.slice(8).replace(/%2F/g,"/"),fs.readFileSync(f));});
print("cng-ready "+s.list().join(","));
quit();`;

/** `__c` of firmware/espruino/board.js for a profile, the gun held still. */
function boardSettingsOf(name: string): object {
  // no harness keepalives here: the interpreter stops when its stdin closes
  return { ...boardSettings(loadBoard(name), {}, { yaw: 0, pitch: 0, roll: 0 }), wd: 3600 };
}

export async function startBoard(o: TestBoardOptions = {}): Promise<TestBoard> {
  const bin = (await findInterpreter()).path;
  if (!bin) throw new Error((await findInterpreter()).why);
  const dir = mkdtempSync(join(tmpdir(), "cng-board-"));
  const profile = loadBoard(o.board ?? "esp32-mpu6050");
  // the built-in modules its chip reports in process.env.MODULES (Wifi, neopixel…: the board around the interpreter
  // gives them), as Espruino's board file for the chip lists them: EspruinoTools asks for them when it uploads
  const modules = (
    JSON.parse(readFileSync(espruinoBoardFile(profile), "utf8")) as { info: { builtin_modules: string[] } }
  ).info.builtin_modules;
  const env = `var __e=process.env;__e.MODULES=${JSON.stringify(modules.join(","))};process.env=__e;\n`;
  const files: Record<string, string> = {
    ".boot0": boardBoot(boardSettingsOf(profile.name), env),
    ...o.files,
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, `storage-${name}`), text, "latin1");
  writeFileSync(join(dir, "setup.js"), SETUP);
  const ready = await new Promise<string>((resolve, reject) => {
    const c = spawn(bin, ["setup.js"], { cwd: dir, stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    c.stdout.on("data", (d: Buffer) => {
      out += d.toString("latin1");
    });
    c.on("error", reject);
    c.on("close", () => resolve(out));
  });
  if (!/cng-ready .*\.boot0/.test(ready))
    throw new Error(`could not set up the board's Storage:\n${ready.slice(-400)}`);
  rmSync(join(dir, "setup.js"));
  for (const name of Object.keys(files)) rmSync(join(dir, `storage-${name}`));

  const p: ChildProcess = spawn(bin, [], { cwd: dir, stdio: ["pipe", "pipe", "ignore"] });
  p.stdin!.on("error", () => {});
  let out = "";
  let exited = false;
  const listeners: ((s: string) => void)[] = [];
  const reports: [string, unknown][] = [];
  let waiters: { kind: string; match: (v: any) => boolean; resolve: (v: any) => void }[] = [];
  let inFrame = false;
  let frame = "";
  const onReport = (f: string) => {
    let v: unknown;
    try {
      v = f.length > 1 ? JSON.parse(f.slice(1)) : undefined;
    } catch {
      return;
    }
    reports.push([f[0]!, v]);
    const ws = waiters;
    waiters = [];
    for (const w of ws) (w.kind === f[0] && w.match(v) ? w.resolve : () => waiters.push(w))(v);
  };
  p.stdout!.on("data", (d: Buffer) => {
    const s = d.toString("latin1");
    let text = "";
    for (let i = 0; i < s.length; ) {
      if (inFrame) {
        const j = s.indexOf("\n", i);
        if (j < 0) {
          frame += s.slice(i);
          break;
        }
        frame += s.slice(i, j);
        inFrame = false;
        onReport(frame);
        frame = "";
        i = j + 1;
      } else {
        const j = s.indexOf("\x01", i);
        text += j < 0 ? s.slice(i) : s.slice(i, j);
        if (j < 0) break;
        inFrame = true;
        i = j + 1;
      }
    }
    if (text) {
      out += text;
      for (const l of listeners) l(text);
    }
  });
  const gone = new Promise<void>((r) =>
    p.on("exit", () => {
      exited = true;
      r();
    }),
  );
  const write = (bytes: string) => {
    if (p.stdin?.writable) p.stdin.write(bytes, "latin1");
  };
  const report = (kind: string, match: (v: any) => boolean = () => true, ms = 10_000) => {
    const had = reports.find(([k, v]) => k === kind && match(v));
    if (had) return Promise.resolve(had[1]);
    return new Promise<any>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`the board sent no ${kind} report in ${ms} ms`)), ms);
      waiters.push({
        kind,
        match,
        resolve: (v) => {
          clearTimeout(t);
          resolve(v);
        },
      });
    });
  };
  let asked = 0;
  // commands to the board around the interpreter: run by the REPL while the console is on USB, by the board itself
  // once the firmware moved the console away (firmware/espruino/board.js)
  const ask = async (js: string, kind: string): Promise<any> => {
    const n = ++asked;
    const got = report(kind, (v) => Array.isArray(v) && v[0] === n);
    write(`\x10${js.replace("$N", String(n))}\n`);
    return ((await got) as [number, unknown])[1];
  };
  return {
    write,
    onConsole: (cb) => listeners.push(cb),
    get out() {
      return out;
    },
    reports,
    get exited() {
      return exited;
    },
    report,
    list: () => ask('__b.rep("S",[$N,require("Storage").list().sort()])', "S") as Promise<string[]>,
    readFile: async (name) =>
      ((await ask(`__b.rep("S",[$N,require("Storage").read(${JSON.stringify(name)})])`, "S")) as string | null) ??
      undefined,
    async stop() {
      if (!exited) p.kill("SIGKILL");
      await gone;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
