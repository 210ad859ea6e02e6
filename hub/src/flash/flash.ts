// `cng flash`: put a gun's firmware bundle (Storage `.bootcde`) and its config (`gun.json`) on an
// Espruino board over serial, then read both back to verify.
//
// Talks the Espruino console protocol itself over serialport 13 instead of using EspruinoTools:
// EspruinoTools loads its modules into a global, fetches board files from the web unless told
// otherwise, and brings its own serial layer; writing Storage in chunks and reading back is a few
// lines of console protocol, works offline, and runs against serialport's MockBinding in tests.
import { readFileSync } from "node:fs";
import { isName } from "@cng/protocol";
import { SerialPortStream } from "@serialport/stream";
import { SerialPort } from "serialport";
import { type BoardProfile, bundlePathFor, loadBoard } from "../sim/espruino/board.js";
import { EspruinoConsole, FlashError } from "./console.js";

/** What goes into Storage `gun.json` (see firmware/README.md). */
export interface GunConfig {
  id: string;
  secret: string;
  table?: string;
  /** "serial": the gun talks over its USB cable through the hub's bridge (hardware/SERIAL.md) */
  link?: "wifi" | "serial";
  /** the broker; not needed on the serial link */
  hub?: { host: string; port?: number };
  wifi?: { ssid: string; pass: string };
  hz?: number;
  ka?: number;
  click?: boolean;
}

export interface FlashPlan {
  board: BoardProfile;
  bundlePath: string;
  bundle: string;
  configText: string;
  /** lines sent, in order */
  chunks: number;
}

export interface FlashProgress {
  step: "hello" | "bundle" | "config" | "verify" | "done";
  done: number;
  total: number;
}

const CHUNK = 256;

export function checkConfig(c: GunConfig): void {
  const bad = (m: string) => {
    throw new FlashError("config", m);
  };
  if (!isName(c.id)) bad("--id must be 1-32 of a-z 0-9 _ - (starting with a letter or digit)");
  if (!c.secret) bad("a secret is required");
  if (c.link !== undefined && c.link !== "wifi" && c.link !== "serial") bad("--link must be wifi or serial");
  if (c.link !== "serial" && !c.hub?.host) bad("--hub is required (or --link serial for a gun on a USB cable)");
  if (c.hub?.port !== undefined && !(c.hub.port >= 1 && c.hub.port <= 65535)) bad("--hub-port must be 1-65535");
  if (c.table !== undefined && !isName(c.table)) bad("--table must be a-z 0-9 _ -");
  if (c.hz !== undefined && !(c.hz >= 1 && c.hz <= 50)) bad("--hz must be 1-50");
  if (c.wifi && !c.wifi.ssid) bad("--wifi needs an SSID");
}

export function planFlash(boardName: string, config: GunConfig, bundlePath?: string): FlashPlan {
  checkConfig(config);
  const board = loadBoard(boardName);
  if (config.link === "serial" && !(board.links ?? ["wifi"]).includes("serial")) {
    throw new FlashError("config", `--link serial: the ${board.name} firmware has no serial link (WiFi only)`);
  }
  const path = bundlePath ?? bundlePathFor(board.name);
  let bundle: string;
  try {
    bundle = readFileSync(path, "latin1");
  } catch {
    throw new FlashError("config", `no bundle at ${path}: run \`npm run build\` first`);
  }
  const configText = JSON.stringify(config);
  return { board, bundlePath: path, bundle, configText, chunks: Math.ceil(bundle.length / CHUNK) + 1 };
}

/** Storage writes for a file, chunked: the first call gives the total size. */
export function storageWrites(name: string, data: string): string[] {
  const out: string[] = [];
  for (let off = 0; off < data.length || off === 0; off += CHUNK) {
    const part = JSON.stringify(data.slice(off, off + CHUNK));
    out.push(`require("Storage").write(${JSON.stringify(name)},${part},${off},${data.length})`);
    if (data.length === 0) break;
  }
  return out;
}

export interface FlashOptions {
  path: string;
  baud?: number;
  /** for tests: a serialport binding (MockBinding) */
  binding?: ConstructorParameters<typeof SerialPortStream>[0]["binding"];
  timeoutMs?: number;
  onProgress?: (p: FlashProgress) => void;
  /** start the new code when done (default true) */
  run?: boolean;
}

export async function flash(plan: FlashPlan, o: FlashOptions): Promise<{ version: string; bytes: number }> {
  const port = o.binding
    ? new SerialPortStream({ binding: o.binding, path: o.path, baudRate: o.baud ?? 115200, autoOpen: false })
    : new SerialPort({ path: o.path, baudRate: o.baud ?? plan.board.baud ?? 115200, autoOpen: false });
  await new Promise<void>((res, rej) =>
    port.open((e) => (e ? rej(new FlashError("port", `cannot open ${o.path}: ${e.message}`)) : res())),
  );
  const progress = o.onProgress ?? (() => {});
  try {
    const con = new EspruinoConsole(port, o.timeoutMs ?? 3000);
    progress({ step: "hello", done: 0, total: 1 });
    const hello = await con.hello();
    if (typeof hello?.version !== "string") throw new FlashError("no-answer", "the board did not say its version");
    const writes = storageWrites(".bootcde", plan.bundle);
    for (let i = 0; i < writes.length; i++) {
      // Storage.write answers true; anything else means the flash is full or failed
      const ok = await con.call<boolean>("var ok=" + writes[i], "ok");
      if (ok !== true) throw new FlashError("board-error", "Storage.write failed");
      progress({ step: "bundle", done: i + 1, total: writes.length });
    }
    await con.call(`require("Storage").write("gun.json",${JSON.stringify(plan.configText)})`);
    progress({ step: "config", done: 1, total: 1 });
    const back = await con.call<string>("0", 'require("Storage").read(".bootcde")');
    const cfg = await con.call<string>("0", 'require("Storage").read("gun.json")');
    if (back !== plan.bundle) throw new FlashError("verify", ".bootcde read back differs from the bundle");
    if (cfg !== plan.configText) throw new FlashError("verify", "gun.json read back differs from the config");
    progress({ step: "verify", done: 1, total: 1 });
    if (o.run !== false) await con.restart();
    progress({ step: "done", done: 1, total: 1 });
    return { version: hello.version, bytes: plan.bundle.length };
  } finally {
    await new Promise<void>((r) => port.close(() => r()));
  }
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
