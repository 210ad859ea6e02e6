// `cng flash`: put a gun's firmware bundle (Storage `.bootcde`) and its config (`gun.json`) on an
// Espruino board over serial through EspruinoTools (the `espruino` npm package), then read both
// back to verify.
//
// EspruinoTools runs as a library in a child Node process (./driver.ts says why and how), offline:
// it gets a local board file (hardware/boards/espruino/<chip>.json) instead of downloading one,
// does not minify (the build already did), and may not fetch anything from the web.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type GunConfig, gunConfigProblem, gunConfigText, OTA_FILES } from "@cng/protocol";
import { SerialPort } from "serialport";
import { type BoardProfile, boardsDir, bundlePathFor, loadBoard } from "../boards/profile.js";
import { DRIVER_SOURCE } from "./driver.js";

export class FlashError extends Error {
  constructor(
    readonly code: "no-answer" | "board-error" | "verify" | "port" | "config" | "offline",
    message: string,
  ) {
    super(message);
    this.name = "FlashError";
  }
}

/** What goes into Storage `gun.json` (see firmware/README.md): shared/protocol/src/gun-config.ts, which the
 * dashboard's browser flasher uses too. */
export type { GunConfig };

export interface FlashPlan {
  board: BoardProfile;
  bundlePath: string;
  bundle: string;
  configText: string;
  /** the local Espruino board file EspruinoTools gets (hardware/boards/espruino/<chip>.json) */
  boardJson: string;
}

export interface FlashProgress {
  /** send: bytes of console code sent (both files, as EspruinoTools' Storage.write lines) */
  step: "hello" | "send" | "verify" | "done";
  done: number;
  total: number;
}

/** What `cng flash` says for each of the shared config checks (shared/protocol/src/gun-config.ts). */
const CONFIG_MESSAGES: Record<string, string> = {
  id: "--id must be 1-32 of a-z 0-9 _ - (starting with a letter or digit)",
  secret: "a secret is required",
  link: "--link must be wifi or serial",
  hub: "--hub is required (or --link serial for a gun on a USB cable)",
  "hub-port": "--hub-port must be 1-65535",
  table: "--table must be a-z 0-9 _ -",
  hz: "--hz must be 1-50",
  wifi: "--wifi needs an SSID",
  mount: "--mount is the chip axis along the barrel then the chip axis up, e.g. +x+z, +x-z (upside down), +x+y",
  bat: "--bat is the battery reading's calibration, 0.8-1.25 (Setup says it), or none: no divider fitted",
};

export function checkConfig(c: GunConfig): void {
  const p = gunConfigProblem(c);
  if (p) throw new FlashError("config", CONFIG_MESSAGES[p] ?? p);
}

export function planFlash(boardName: string, config: GunConfig, bundlePath?: string): FlashPlan {
  checkConfig(config);
  const board = loadBoard(boardName);
  const why = gunConfigProblem(config, board);
  // a Puck.js has no USB socket: it is flashed over Bluetooth (hardware/PUCK.md), never by this command
  if (why === "no-usb") {
    throw new FlashError("config", `the ${board.name} has no USB: flash it over Bluetooth (hardware/PUCK.md)`);
  }
  if (why === "no-serial-link") {
    throw new FlashError("config", `--link serial: the ${board.name} firmware has no serial link (WiFi only)`);
  }
  if (why === "no-mount") {
    throw new FlashError(
      "config",
      `--mount: the ${board.name} firmware cannot turn its IMU (left out for room): mount the chip x along the barrel, z up`,
    );
  }
  if (why === "no-bat") {
    throw new FlashError("config", `--bat: the ${board.name} has no battery divider (its profile measures no LiPo)`);
  }
  const path = bundlePath ?? bundlePathFor(board.name);
  let bundle: string;
  try {
    bundle = readFileSync(path, "latin1");
  } catch {
    throw new FlashError("config", `no bundle at ${path}: run \`npm run build\` first`);
  }
  const configText = gunConfigText(config);
  return { board, bundlePath: path, bundle, configText, boardJson: espruinoBoardFile(board) };
}

/** The local Espruino board file for a profile's chip. */
export function espruinoBoardFile(board: BoardProfile): string {
  return join(boardsDir, "espruino", `${board.chip}.json`);
}

export interface FlashOptions {
  path: string;
  baud?: number;
  /** seconds to wait for the board's first answer (EspruinoTools' minimum is 2) */
  answerSeconds?: number;
  /** give up on the whole upload after this long (default 3 minutes) */
  timeoutMs?: number;
  onProgress?: (p: FlashProgress) => void;
  /** start the new code when done (default true) */
  run?: boolean;
  /** EspruinoTools' own messages on stderr */
  verbose?: boolean;
}

interface DriverMessage {
  hello?: { version: string; board?: string };
  step?: "send" | "verify";
  done?: number | true;
  total?: number;
  error?: FlashError["code"];
  message?: string;
}

const require = createRequire(import.meta.url);

export async function flash(plan: FlashPlan, o: FlashOptions): Promise<{ version: string; bytes: number }> {
  const dir = mkdtempSync(join(tmpdir(), "cng-flash-"));
  try {
    writeFileSync(join(dir, "upload.cjs"), DRIVER_SOURCE);
    writeFileSync(join(dir, "gun.json"), plan.configText, "latin1");
    const job = {
      espruino: require.resolve("espruino"),
      port: o.path,
      baud: o.baud ?? plan.board.baud ?? 115200,
      boardJson: plan.boardJson,
      bundle: plan.bundlePath,
      config: join(dir, "gun.json"),
      run: o.run !== false,
      answerSeconds: o.answerSeconds ?? 2,
      verbose: o.verbose ?? false,
      // what updates over the air left: the bundle flashed now is what runs
      erase: OTA_FILES,
    };
    writeFileSync(join(dir, "job.json"), JSON.stringify(job));
    return await runDriver(dir, plan, o);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runDriver(dir: string, plan: FlashPlan, o: FlashOptions): Promise<{ version: string; bytes: number }> {
  const progress = o.onProgress ?? (() => {});
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(dir, "upload.cjs"), join(dir, "job.json")], {
      stdio: ["ignore", "ignore", o.verbose ? "inherit" : "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    let version: string | undefined;
    let failure: FlashError | undefined;
    let ok = false;
    let buf = "";
    const timer = setTimeout(() => {
      failure = new FlashError(
        "no-answer",
        `the upload did not finish in ${Math.round((o.timeoutMs ?? 180000) / 1000)} s`,
      );
      child.kill();
    }, o.timeoutMs ?? 180000);
    const channel = child.stdio[3] as NodeJS.ReadableStream;
    channel.on("data", (d: Buffer) => {
      buf += d.toString("utf8");
      for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        let m: DriverMessage;
        try {
          m = JSON.parse(line) as DriverMessage;
        } catch {
          continue;
        }
        if (m.error) failure = new FlashError(m.error, m.message ?? m.error);
        else if (m.hello) {
          version = m.hello.version;
          progress({ step: "hello", done: 1, total: 1 });
        } else if (m.step === "send") progress({ step: "send", done: Number(m.done), total: m.total ?? 0 });
        else if (m.step === "verify") progress({ step: "verify", done: 0, total: 1 });
        else if (m.done === true) ok = true;
      }
    });
    child.on("error", (e) => {
      failure ??= new FlashError("port", `cannot run EspruinoTools: ${e.message}`);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (ok && code === 0 && version !== undefined) {
        progress({ step: "verify", done: 1, total: 1 });
        progress({ step: "done", done: 1, total: 1 });
        resolve({ version, bytes: plan.bundle.length });
      } else {
        const tail = stderr.trim().split("\n").slice(-3).join(" / ");
        reject(
          failure ?? new FlashError("board-error", `EspruinoTools stopped (exit ${code})${tail ? `: ${tail}` : ""}`),
        );
      }
    });
    progress({ step: "hello", done: 0, total: 1 });
  });
}

/** Serial ports that may hold a board; a clear error where they cannot be listed (no udev). */
export async function listPorts(): Promise<{ path: string; label: string }[]> {
  try {
    const ports = await SerialPort.list();
    return ports.map((p) => ({ path: p.path, label: [p.manufacturer, p.serialNumber].filter(Boolean).join(" ") }));
  } catch (e) {
    throw new FlashError(
      "port",
      `cannot list serial ports (${e instanceof Error ? e.message : String(e)}); pass --port, e.g. --port /dev/ttyUSB0`,
    );
  }
}
