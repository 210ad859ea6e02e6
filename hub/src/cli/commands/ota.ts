// `cng ota`: update paired guns' firmware over the air, through the running hub (op guns.update), with a line of
// progress per gun. The hub sends; this only asks and watches each gun's retained status.

import { existsSync } from "node:fs";
import { decodeGunStatus, type GunId, gunTopic, isName } from "@cng/protocol";
import Database from "better-sqlite3";
import { type Command, InvalidArgumentError } from "commander";
import { DEFAULTS } from "../../config.js";
import type { OtaProgress } from "../../guns/ota.js";
import { CommandClient, CommandError } from "../../sim/commands.js";
import { dbPath } from "../../store/db.js";

const HELP = `
The hub must be running (cng hub): it sends the firmware it was built with (firmware/dist/<board>/gun.js,
npm run build) to each gun over its own MQTT link, chunk by chunk, vouched for with what only the gun and its hub
hold (an HMAC keyed by the gun's key hash: a gun takes no update from anyone else); the gun checks every chunk
(CRC-32) and the whole bundle (length, SHA-256), then restarts into it. A gun that drops off mid-way goes on where it
stopped when it is back. A new firmware that does not come online to the hub within a minute, twice, is rolled back
by the gun. Never during a game, never below 30% battery. A version older than the gun runs goes only with --force
(the gun checks that too). Boards whose profile has no "ota" (esp8266-mpu6050) are flashed by USB with cng flash:
this says so.

The host PIN: --pin, else CNG_PIN, else read from the hub's data folder (--data, default ./data).

Examples:
  cng ota --all
  cng ota --gun g1 --gun g2
  cng ota --all --board esp32-mpu6050 --force
  cng ota --all --url mqtt://192.168.1.20:1883 --pin 4821`;

interface OtaCliOptions {
  gun: GunId[];
  all?: boolean;
  board?: string;
  force?: boolean;
  url: string;
  table: string;
  pin?: string;
  data: string;
  /** seconds to wait for every update to end */
  timeout: number;
}

function seconds(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("a number of seconds above 0");
  return n;
}

function gunName(v: string, prev: string[] = []): string[] {
  if (!isName(v)) throw new InvalidArgumentError("a gun id is a-z, 0-9, _ and -, up to 32");
  return [...prev, v];
}

/** The host PIN the hub stored in its data folder, read without changing anything. */
export function storedPin(data: string, table: string): string | undefined {
  const path = dbPath(data, table);
  if (!existsSync(path)) return undefined;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], { v: string }>("SELECT v FROM kv WHERE k = 'pin'").get()?.v;
  } catch {
    return undefined;
  } finally {
    db.close();
  }
}

function bar(p: OtaProgress): string {
  const f = p.n ? p.o / p.n : 0;
  const w = 20;
  const full = Math.round(f * w);
  return `[${"#".repeat(full)}${".".repeat(w - full)}] ${String(Math.floor(f * 100)).padStart(3)}%`;
}

/** One line of progress: gun, versions, bar or outcome. */
export function progressLine(gun: GunId, p: OtaProgress): string {
  const head = `${gun.padEnd(12)} ${p.from ?? "?"} → ${p.fw}`;
  switch (p.stage) {
    case "sending":
      return `${head}  ${bar(p)}  ${(p.o / 1024).toFixed(1)}/${(p.n / 1024).toFixed(1)} KB${p.why ? `  (${p.why})` : ""}`;
    case "restarting":
      return `${head}  restarting into ${p.fw}…`;
    case "done":
      return `${head}  done: runs ${p.fw}`;
    case "failed":
      return `${head}  FAILED: ${p.why ?? "unknown"}`;
  }
}

/** The host's client on the running hub's broker, with the PIN given or the one in the hub's data folder. */
async function hostClient(o: OtaCliOptions): Promise<CommandClient> {
  const pin = o.pin ?? process.env.CNG_PIN ?? storedPin(o.data, o.table);
  if (!pin) {
    throw new InvalidArgumentError(
      `no host PIN: give --pin (the hub prints it when it starts) or run where the hub's data folder is (${dbPath(o.data, o.table)} not found)`,
    );
  }
  return CommandClient.connect(o.url, {
    table: o.table,
    clientId: `cng-ota-${process.pid}`,
    username: "host",
    password: pin,
    auth: pin,
    timeoutMs: 10_000,
  }).catch((e: Error) => {
    throw new Error(`cannot reach the hub's broker at ${o.url}: ${e.message} (is cng hub running?)`);
  });
}

export async function runOta(o: OtaCliOptions, out: (line: string) => void = console.log): Promise<number> {
  if (!o.all && o.gun.length === 0) throw new InvalidArgumentError("name the guns: --gun ID (repeatable) or --all");
  if (o.all && o.gun.length) throw new InvalidArgumentError("--all or --gun, not both");
  const client = await hostClient(o);
  try {
    const shown = new Map<string, string>();
    const last = new Map<string, OtaProgress>();
    /** guns seen under way since the request: a retained "done" from an earlier update does not count */
    const seen = new Set<string>();
    let asked = false;
    let started: { gun: GunId }[] = [];
    let onChange = () => {};
    await client.subscribeDecoded(gunTopic(o.table, "+", "status"), decodeGunStatus, (status, topic) => {
      const gun = topic.split("/").at(-2)!;
      const p = status.ota;
      if (!p) return;
      last.set(gun, p);
      if (asked && (p.stage === "sending" || p.stage === "restarting")) seen.add(gun);
      // a line when the stage changes or the bar moves by a tenth
      const key = p.stage === "sending" ? `s${Math.floor((p.o / Math.max(1, p.n)) * 10)}${p.why ?? ""}` : p.stage;
      if (started.some((s) => s.gun === gun) && shown.get(gun) !== key) {
        shown.set(gun, key);
        out(progressLine(gun, p));
      }
      onChange();
    });
    const since = Date.now();
    asked = true;
    const r = await client.request("guns.update", {
      guns: o.all ? "all" : o.gun,
      ...(o.board ? { board: o.board } : {}),
      ...(o.force ? { force: true } : {}),
    });
    started = r.started;
    for (const x of r.refused) out(`${x.gun.padEnd(12)} not updated: ${x.why}`);
    if (started.length === 0) return r.refused.length ? 1 : 0;
    out(`updating ${started.length} gun${started.length > 1 ? "s" : ""} to ${r.started[0].fw}…`);
    const finished = () =>
      started.every((s) => {
        const p = last.get(s.gun);
        return seen.has(s.gun) && (p?.stage === "done" || p?.stage === "failed");
      });
    const inTime = await new Promise<boolean>((resolve) => {
      const t = setTimeout(() => resolve(false), o.timeout * 1000);
      onChange = () => {
        if (finished()) {
          clearTimeout(t);
          resolve(true);
        }
      };
      onChange();
    });
    if (!inTime) {
      const open = started.filter((s) => !["done", "failed"].includes(last.get(s.gun)?.stage ?? "")).map((s) => s.gun);
      out(`gave up waiting after ${o.timeout} s for ${open.join(", ")} (is the hub still running? see the dashboard)`);
      return 1;
    }
    const failed = started.filter((s) => last.get(s.gun)?.stage === "failed");
    const secs = ((Date.now() - since) / 1000).toFixed(1);
    out(
      `${started.length - failed.length} of ${started.length} updated in ${secs} s${failed.length ? `; failed: ${failed.map((f) => f.gun).join(", ")}` : ""}`,
    );
    return failed.length || r.refused.length ? 1 : 0;
  } catch (e) {
    if (e instanceof CommandError) throw new Error(`the hub refused: ${e.message}`);
    throw e;
  } finally {
    await client.close();
  }
}

export function registerOta(program: Command): void {
  program
    .command("ota")
    .description("update paired guns' firmware over the air, through the running hub")
    .option("-g, --gun <id>", "a gun to update (repeatable)", gunName, [])
    .option("-a, --all", "every paired gun")
    .option("-b, --board <name>", "only guns of this board profile")
    .option("-f, --force", "also guns that already run this version, or a newer one (they go back)")
    .option("--url <url>", "the hub's broker", `mqtt://127.0.0.1:${DEFAULTS.mqttPort}`)
    .option("-t, --table <name>", "table name", DEFAULTS.table)
    .option("--pin <pin>", "host PIN (default: CNG_PIN, or the hub's data folder)")
    .option("-d, --data <dir>", "the hub's data folder, for its PIN", DEFAULTS.data)
    .option("--timeout <s>", "seconds to wait for every gun's update to end", seconds, 600)
    .addHelpText("after", HELP)
    .action(async (opts: OtaCliOptions) => {
      try {
        process.exitCode = await runOta(opts);
      } catch (e) {
        console.error(`cng ota: ${(e as Error).message}`);
        process.exitCode = 2;
      }
    });
}
