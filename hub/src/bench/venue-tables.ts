// The pieces of `cng bench venue`: mosquitto with its dynamic-security plugin started from `cng broker init`'s
// config, tables that are each a real `cng hub` child process on it, their load guns paired through the hub (the
// plugin gives each its login), and the /proc figures (CPU, memory). Every child and folder is tracked so that one
// call takes them all away, on success, on failure and on Ctrl-C.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { decodeGunStatus, gunTopic, type HubGunStatusMsg, tableRoot } from "@cng/protocol";
import { admitGun } from "../broker/dynsec-admin.js";
import {
  CONF_FILE,
  DYNSEC_FILE,
  dynsecConfig,
  findPlugin,
  mosquittoConf,
  PLUGIN_FILE,
  pluginCandidates,
} from "../broker/dynsec-init.js";
import { connectMqtt, type MqttClient } from "../bus/connect.js";
import { CommandClient } from "../sim/commands.js";
import { LoadWorker } from "./load/driver.js";
import type { GunLogin } from "./load/protocol.js";
import { freePort } from "./load/targets.js";

/** The `cng` command these hubs run: bin/cng.js (from hub/src/bench and hub/dist/bench alike). */
export const CLI = fileURLToPath(new URL("../../../bin/cng.js", import.meta.url));
export const MOSQUITTO_CANDIDATES = [
  "/usr/sbin/mosquitto",
  "/usr/bin/mosquitto",
  "/usr/local/sbin/mosquitto",
  "/usr/local/bin/mosquitto",
  "/opt/homebrew/sbin/mosquitto",
];
const ADMIN = "cng-admin";
const INFO = JSON.stringify({ v: 1, fw: "bench", b: "sim", i: "sim", up: 1 });
/** USER_HZ: the unit of /proc/<pid>/stat's utime and stime */
const TICKS_PER_SECOND = 100;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ms: number, ok: () => boolean): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** mosquitto and its plugin, or an error that says what is missing and how to get it. */
export function findBroker(o: { mosquitto?: string; plugin?: string } = {}): { mosquitto: string; plugin: string } {
  const install = "Install Debian's mosquitto 2.x, which ships the plugin: apt-get install mosquitto";
  const mosquitto = o.mosquitto ?? MOSQUITTO_CANDIDATES.find((p) => existsSync(p));
  if (!mosquitto || !existsSync(mosquitto))
    throw new Error(
      `cng bench venue needs mosquitto: not found (looked in ${o.mosquitto ?? MOSQUITTO_CANDIDATES.join(", ")}). ${install}`,
    );
  const plugin = o.plugin ?? findPlugin();
  if (!plugin || !existsSync(plugin))
    throw new Error(
      `cng bench venue needs mosquitto's dynamic-security plugin (${PLUGIN_FILE}): not found (looked in ${o.plugin ?? pluginCandidates().join(", ")}). ${install}`,
    );
  return { mosquitto, plugin };
}

/** The last lines a child wrote, for the error when it fails. */
class Tail {
  private lines: string[] = [];
  private partial = "";
  constructor(private readonly keep = 20) {}
  push(chunk: Buffer | string): string[] {
    const parts = (this.partial + chunk.toString()).split("\n");
    this.partial = parts.pop() ?? "";
    this.lines.push(...parts);
    if (this.lines.length > this.keep) this.lines.splice(0, this.lines.length - this.keep);
    return parts;
  }
  toString(): string {
    return [...this.lines, this.partial].filter((l) => l.trim()).join("\n");
  }
}

const exited = (p: ChildProcess) => p.exitCode !== null || p.signalCode !== null;

/** Every child process and folder the bench makes, so nothing outlives it. */
export class Leftovers {
  private readonly procs = new Set<ChildProcess>();
  readonly root: string;
  private done: Promise<void> | null = null;

  constructor() {
    this.root = mkdtempSync(join(tmpdir(), "cng-bench-venue-"));
    chmodSync(this.root, 0o755); // run as root, mosquitto drops to its own user and must reach its folder
  }

  spawn(cmd: string, args: string[], opts: Parameters<typeof spawn>[2]): ChildProcess {
    const p = spawn(cmd, args, opts);
    this.procs.add(p);
    p.once("exit", () => this.procs.delete(p));
    return p;
  }

  /** SIGTERM, then SIGKILL after `ms`; resolves once it is gone. */
  async stop(p: ChildProcess, ms = 3000): Promise<void> {
    if (exited(p)) return;
    const gone = new Promise<void>((r) => p.once("exit", () => r()));
    p.kill("SIGTERM");
    if (await Promise.race([gone.then(() => true), sleep(ms).then(() => false)])) return;
    p.kill("SIGKILL");
    await gone;
  }

  /** Stops every child still running (hubs before the broker) and removes the folder; once. */
  clear(brokerLast?: ChildProcess): Promise<void> {
    this.done ??= (async () => {
      await Promise.all([...this.procs].filter((p) => p !== brokerLast).map((p) => this.stop(p)));
      if (brokerLast) await this.stop(brokerLast);
      rmSync(this.root, { recursive: true, force: true });
    })();
    return this.done;
  }

  /** On the way out of the process (no time to wait): kill what is left, remove the folder. */
  clearNow(): void {
    for (const p of this.procs) if (!exited(p)) p.kill("SIGKILL");
    rmSync(this.root, { recursive: true, force: true });
  }
}

export interface Broker {
  url: string;
  proc: ChildProcess;
  pid: number;
  admin: { username: string; password: string };
  /** CPU seconds mosquitto has used so far (utime + stime) */
  cpu(): number;
}

/** mosquitto from `cng broker init`'s config on a free port of 127.0.0.1, in `<root>/broker`. */
export async function startBroker(
  left: Leftovers,
  bin: { mosquitto: string; plugin: string },
  say: (s: string) => void,
): Promise<Broker> {
  const port = await freePort();
  const dir = join(left.root, "broker");
  const password = writeBrokerFiles(dir, port, bin.plugin);
  const proc = left.spawn(bin.mosquitto, ["-c", join(dir, CONF_FILE)], { stdio: ["ignore", "ignore", "pipe"] });
  const tail = new Tail();
  proc.stderr?.on("data", (c) => tail.push(c));
  const url = `mqtt://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (exited(proc)) throw new Error(`mosquitto stopped at start (exit ${proc.exitCode}): ${tail}`);
    try {
      (await connectMqtt(url, { reconnectPeriod: 0, connectTimeout: 1000 })).end(true);
      break;
    } catch (e) {
      if (i > 50) throw new Error(`mosquitto does not answer on ${url}: ${(e as Error).message} ${tail}`);
      await sleep(100);
    }
  }
  say(`mosquitto pid ${proc.pid} on ${url} (dynamic security, ${bin.plugin}), files in ${left.root}`);
  return {
    url,
    proc,
    pid: proc.pid!,
    admin: { username: ADMIN, password },
    cpu: () => cpuSeconds(proc.pid!),
  };
}

/**
 * What `cng broker init --dir DIR --port PORT --bind 127.0.0.1` writes (the same functions), plus no persistence,
 * Nagle off and errors only on stderr; run as root, DIR goes to the mosquitto user (the plugin rewrites its file).
 * Returns the admin's password.
 */
function writeBrokerFiles(dir: string, port: number, plugin: string): string {
  mkdirSync(dir, { mode: 0o700 });
  const password = randomBytes(18).toString("base64url");
  const o = { dir, plugin, port, bind: "127.0.0.1", admin: ADMIN, password, tables: [] };
  const extra = "# cng bench venue\npersistence false\nset_tcp_nodelay true\nlog_dest stderr\nlog_type error\n";
  writeFileSync(join(dir, CONF_FILE), `${mosquittoConf(o)}${extra}`, { mode: 0o644 });
  writeFileSync(join(dir, DYNSEC_FILE), `${JSON.stringify(dynsecConfig(o), null, 2)}\n`, { mode: 0o600 });
  if (process.getuid?.() === 0) {
    try {
      const id = (flag: string) =>
        Number(execFileSync("id", [flag, "mosquitto"], { stdio: ["ignore", "pipe", "ignore"] }));
      const [uid, gid] = [id("-u"), id("-g")];
      for (const p of [dir, join(dir, CONF_FILE), join(dir, DYNSEC_FILE)]) chownSync(p, uid, gid);
    } catch {
      // no mosquitto user: mosquitto then stays root
    }
  }
  return password;
}

/** utime + stime of a process, seconds; NaN when it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // fields 14 and 15 of stat, counted from the state (field 3) after the command's closing parenthesis
    return (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** Resident memory of a process, kB (VmRSS); NaN when it is gone. */
export function rssKb(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export interface TableRun {
  name: string;
  proc: ChildProcess;
  pid: number;
  httpPort: number;
  pin: string;
  guns: GunLogin[];
  load: LoadWorker;
  tail: Tail;
}

/** Starts `cng hub … --dynsec --table NAME` in `<root>/NAME` and resolves with its web port and PIN. */
async function startHubProcess(
  left: Leftovers,
  broker: Broker,
  name: string,
): Promise<{ proc: ChildProcess; httpPort: number; pin: string; tail: Tail }> {
  const data = join(left.root, name);
  mkdirSync(data, { mode: 0o700 });
  // a clean environment: no CNG_* setting of the caller's, and no cng.config.json (the hub runs in its folder)
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CNG_")));
  env.CNG_BROKER_PASSWORD = broker.admin.password;
  const args = [
    CLI,
    "hub",
    ...["--broker", broker.url, "--broker-user", broker.admin.username, "--dynsec", "--table", name],
    ...["--data", data, "--http-port", "0", "--bind", "127.0.0.1", "--discovery", "off", "--voice", "off"],
    ...["--log-level", "warn", "--no-pretty"],
  ];
  const proc = left.spawn(process.execPath, args, { cwd: data, env, stdio: ["ignore", "pipe", "pipe"] });
  const tail = new Tail();
  let httpPort = 0;
  let pin = "";
  proc.stdout?.on("data", (c: Buffer) => {
    for (const line of tail.push(c)) {
      const d = /dashboard:\s+http:\/\/[^:]+:(\d+)\//.exec(line);
      if (d) httpPort = Number(d[1]);
      const p = /host PIN:\s+(\S+)/.exec(line);
      if (p) pin = p[1]!;
    }
  });
  proc.stderr?.on("data", (c: Buffer) => tail.push(c));
  const end = Date.now() + 60_000;
  while (!httpPort || !pin) {
    if (exited(proc)) throw new Error(`the hub of table ${name} stopped at start (exit ${proc.exitCode}):\n${tail}`);
    if (Date.now() > end) throw new Error(`the hub of table ${name} did not start within 60 s:\n${tail}`);
    await sleep(50);
  }
  return { proc, httpPort, pin, tail };
}

/**
 * Pairs `n` guns with a table's hub as a host does on a dynamic-security broker: each is let in with a secret, asks,
 * is accepted at a seat, takes its key, drops (its will says so) and comes back with the key; then it leaves cleanly
 * (no will), so the hub keeps it online for the load worker that takes its place with the same login.
 */
async function pairGuns(broker: Broker, table: string, pin: string, n: number): Promise<GunLogin[]> {
  const ids = Array.from({ length: n }, (_, i) => `${table}-g${i + 1}`);
  const secrets = ids.map(() => randomBytes(12).toString("base64url"));
  const login = { url: broker.url, ...broker.admin, table };
  await admitGun(
    login,
    ids.map((gun, i) => ({ gun, secret: secrets[i]! })),
  );
  const host = await CommandClient.connect(broker.url, {
    table,
    clientId: `bench-host-${table}`,
    ...broker.admin,
    auth: pin,
    timeoutMs: 20_000,
  });
  const status = new Map<string, HubGunStatusMsg>();
  await host.subscribeDecoded(gunTopic(table, "+", "status"), decodeGunStatus, (s, topic) => {
    status.set(topic.split("/")[4]!, s);
  });
  const open: MqttClient[] = [];
  try {
    return await Promise.all(
      ids.map(async (id, seat) => {
        const will = { topic: gunTopic(table, id, "will"), payload: Buffer.from('{"v":1,"on":0}'), qos: 1 as const };
        const first = await connectMqtt(broker.url, {
          clientId: id,
          username: id,
          password: secrets[seat],
          reconnectPeriod: 0,
          will: { ...will, retain: false },
        });
        open.push(first);
        let key: string | null = null;
        first.on("message", (_t, p) => {
          try {
            const m = JSON.parse(p.toString()) as { c?: string; k?: unknown };
            if (m.c !== "key" || typeof m.k !== "string") return;
            key = m.k;
            (first.stream as Socket).destroy(); // as the firmware: drop at once, back with the key
          } catch {}
        });
        await first.subscribeAsync(gunTopic(table, id, "cmd"), { qos: 1 });
        await first.publishAsync(gunTopic(table, id, "info"), INFO, { qos: 1 });
        const s = () => status.get(id);
        await until(`${id} to ask ${table} for pairing`, 20_000, () => s()?.paired === false && s()?.on === true);
        await host.request("pair.accept", { gun: id, seat });
        await until(`${id}'s key`, 10_000, () => key !== null);
        first.end(true);
        // its will has reached the hub (then the broker takes the key as its password)
        await until(`${table} to see ${id} leave`, 10_000, () => s()?.paired === true && s()?.on === false);
        let again: MqttClient | undefined;
        for (let i = 0; !again; i++) {
          await sleep(200);
          again = await connectMqtt(broker.url, {
            clientId: id,
            username: id,
            password: key!,
            reconnectPeriod: 0,
            connectTimeout: 3000,
          }).catch((e: Error) => {
            if (i > 50) throw new Error(`${id} cannot log in with its key: ${e.message}`);
            return undefined;
          });
        }
        open.push(again);
        await again.publishAsync(gunTopic(table, id, "info"), INFO, { qos: 1 });
        await until(`${id} back on ${table} with its key`, 10_000, () => s()?.paired === true && s()?.on === true);
        await again.endAsync();
        return { id, username: id, password: key! };
      }),
    );
  } finally {
    for (const c of open) c.end(true);
    await host.close();
  }
}

/** One table: its hub process, its guns paired, a load worker connected with their logins. */
export async function startTable(
  left: Leftovers,
  broker: Broker,
  name: string,
  guns: number,
  epochMs: number,
): Promise<TableRun> {
  const hub = await startHubProcess(left, broker, name);
  try {
    const logins = await pairGuns(broker, name, hub.pin, guns);
    const load = await LoadWorker.start({
      url: broker.url,
      root: tableRoot(name),
      guns: logins,
      epochMs,
      probes: true,
    });
    return { name, ...hub, pid: hub.proc.pid!, guns: logins, load };
  } catch (e) {
    const died = exited(hub.proc);
    await left.stop(hub.proc);
    throw new Error(`table ${name}: ${(e as Error).message}${died ? `\n${hub.tail}` : ""}`);
  }
}

/** Stops a table: its load worker, then its hub. */
export async function stopTable(left: Leftovers, t: TableRun): Promise<void> {
  await t.load.close().catch(() => {});
  await left.stop(t.proc);
}

/** Aim samples the hub has taken from its paired guns so far (its /api/hub counters). */
export async function hubAimCount(t: TableRun): Promise<number> {
  if (exited(t.proc)) throw new Error(`the hub of table ${t.name} stopped (exit ${t.proc.exitCode}):\n${t.tail}`);
  const r = await fetch(`http://127.0.0.1:${t.httpPort}/api/hub`, { signal: AbortSignal.timeout(5000) });
  const facts = (await r.json()) as { streams?: { aim?: unknown } | null };
  const n = facts.streams?.aim;
  if (typeof n !== "number") throw new Error(`the hub of table ${t.name} gives no aim counter in /api/hub`);
  return n;
}
