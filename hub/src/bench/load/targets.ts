// What a bench measures against: a broker (embedded aedes or an external mosquitto), either bare with a
// plain mqtt.js client echoing trig → cue and counting aim ("raw", the reference), or with the hub on it
// ("hub"): paired guns, the hub's decode → gun → seat → consumer path, its trigger → ident cue answer.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunTopic, tableRoot } from "@cng/protocol";
import { Aedes } from "aedes";
import { hubUserFor, mosquittoAcl } from "../../broker/mosquitto-acl.js";
import { connectMqtt, type MqttClient } from "../../bus/connect.js";
import { cuePattern } from "../../feedback/cues.js";
import { type Hub, startHub } from "../../hub.js";
import { LoadWorker } from "./driver.js";
import type { GunLogin } from "./protocol.js";
import { sinceEpochUs } from "./protocol.js";
import { Samples } from "./stats.js";

export type BrokerKind = "aedes" | "mosquitto";
export type Mode = "raw" | "hub";

export const TABLE = "bench";
const MOSQUITTO = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"].find((p) => existsSync(p));
const PASSWD = "/usr/bin/mosquitto_passwd";

export function mosquittoAvailable(): boolean {
  return MOSQUITTO !== undefined && existsSync(PASSWD);
}

/** The brokers to measure: both when mosquitto is installed; `CNG_BENCH_BROKERS=aedes` (or `mosquitto`) picks. */
export function benchBrokers(say: (s: string) => void): BrokerKind[] {
  const all: BrokerKind[] = mosquittoAvailable() ? ["aedes", "mosquitto"] : ["aedes"];
  if (all.length === 1) say("mosquitto is not installed: measuring the embedded aedes only");
  const pick = process.env.CNG_BENCH_BROKERS?.split(",");
  return pick ? all.filter((b) => pick.includes(b)) : all;
}

/** Counts aim samples as they reach the consumer and times them from the gun's `t` (µs since epoch). */
export class AimSink {
  count = 0;
  recording = false;
  readonly latencyMs = new Samples(1 << 16);
  constructor(private readonly epochMs: number) {}
  take(tUs: number): void {
    this.count++;
    if (this.recording) this.latencyMs.push((sinceEpochUs(this.epochMs) - tUs) / 1000);
  }
}

export interface Target {
  broker: BrokerKind;
  mode: Mode;
  url: string;
  root: string;
  guns: GunLogin[];
  sink: AimSink;
  /** CPU seconds the external broker process has used so far (null: it runs in this process) */
  brokerCpu(): number | null;
  close(): Promise<void>;
}

export function gunIds(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `g${String(i + 1).padStart(3, "0")}`);
}

/** A TCP port free on loopback now (for a broker the bench starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** The bare broker with the hub's options and none of its hooks. */
async function rawAedes(): Promise<{ url: string; close: () => Promise<void> }> {
  const aedes = await Aedes.createBroker({ concurrency: 10_000, drainTimeout: 10_000, queueLimit: 100 });
  const server: Server = createServer((socket: Socket) => {
    socket.setNoDelay(true);
    socket.on("error", () => {});
    aedes.handle(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `mqtt://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const c of Object.values((aedes as unknown as { clients: Record<string, { close(): void }> }).clients))
          c.close();
      });
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
    },
  };
}

interface Mosquitto {
  url: string;
  cpu(): number;
  close(): Promise<void>;
}

/** Debian's mosquitto on a free port, Nagle off; with `users`, a password file and `cng acl`'s ACL. */
async function mosquitto(users: { name: string; password: string }[] | null): Promise<Mosquitto> {
  const dir = mkdtempSync(join(tmpdir(), "cng-bench-mosq-"));
  chmodSync(dir, 0o755); // run as root, mosquitto drops to its own user
  const port = await freePort();
  const conf = [`listener ${port} 127.0.0.1`, "allow_anonymous true", "set_tcp_nodelay true", "persistence false"];
  conf.push("log_dest stderr", "log_type error");
  if (users) {
    const passwd = join(dir, "passwd");
    writeFileSync(passwd, users.map((u) => `${u.name}:${u.password}\n`).join(""));
    execFileSync(PASSWD, ["-U", passwd]);
    chmodSync(passwd, 0o644);
    writeFileSync(join(dir, "acl"), mosquittoAcl({ table: TABLE, hubUser: hubUserFor(TABLE) }));
    conf.push(`password_file ${passwd}`, `acl_file ${join(dir, "acl")}`);
  }
  writeFileSync(join(dir, "mosquitto.conf"), `${conf.join("\n")}\n`);
  const proc: ChildProcess = spawn(MOSQUITTO!, ["-c", join(dir, "mosquitto.conf")], { stdio: "ignore" });
  const orphan = () => proc.kill("SIGTERM"); // never leave a broker behind, even on a crash or Ctrl-C
  process.once("exit", orphan);
  const url = `mqtt://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      (await connectMqtt(url, { reconnectPeriod: 0, connectTimeout: 1000 })).end(true);
      break;
    } catch (e) {
      if (i > 50) throw e;
      await sleep(100);
    }
  }
  const tick = 100; // USER_HZ
  return {
    url,
    cpu() {
      try {
        const f = readFileSync(`/proc/${proc.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        return (Number(f[11]) + Number(f[12])) / tick;
      } catch {
        return Number.NaN;
      }
    },
    async close() {
      process.off("exit", orphan);
      const gone = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGTERM");
      await Promise.race([gone, sleep(2000)]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The reference: a plain mqtt.js client answering each trig with a cue and counting aim samples. */
async function echoClient(url: string, sink: AimSink): Promise<MqttClient> {
  const root = tableRoot(TABLE);
  const client = await connectMqtt(url, { clientId: "bench-echo", reconnectPeriod: 0 });
  let n = 0;
  const ident = cuePattern("ident", 0xff0000);
  client.on("message", (topic, payload) => {
    if (topic.endsWith("/aim")) sink.take((JSON.parse(payload.toString()) as { t: number }).t);
    else if (topic.endsWith("/trig")) {
      JSON.parse(payload.toString());
      client.publish(`${topic.slice(0, -4)}cue`, JSON.stringify({ v: 1, n: ++n, c: "ident", ...ident }), { qos: 1 });
    }
  });
  await client.subscribeAsync(`${root}/gun/+/aim`, { qos: 0 });
  await client.subscribeAsync(`${root}/gun/+/trig`, { qos: 1 });
  return client;
}

/** Pairs the guns with the hub the way a host does (a pairing request, accepted, the key sent when embedded). */
async function pairGuns(hub: Hub, url: string, ids: string[], mosquittoPassword?: string): Promise<GunLogin[]> {
  const logins: GunLogin[] = [];
  const batch = 16; // MAX_PENDING pairing requests at once
  for (let i = 0; i < ids.length; i += batch) {
    await Promise.all(
      ids.slice(i, i + batch).map(async (id, k) => {
        const seatIndex = i + k;
        const password = mosquittoPassword ?? "unpaired";
        const c = await connectMqtt(url, { clientId: id, username: id, password, reconnectPeriod: 0 });
        try {
          const key = new Promise<string>((resolve) =>
            c.on("message", (_t, p) => {
              const m = JSON.parse(p.toString()) as { c: string; k?: string };
              if (m.c === "key" && m.k) resolve(m.k);
            }),
          );
          await c.subscribeAsync(gunTopic(TABLE, id, "cmd"), { qos: 1 });
          // External broker: the hub learns of a gun from its info.
          if (mosquittoPassword !== undefined)
            await c.publishAsync(gunTopic(TABLE, id, "info"), '{"v":1,"fw":"bench","b":"sim","i":"sim","up":1}', {
              qos: 1,
            });
          await waitFor(`pairing request from ${id}`, () => hub.guns.registry.get(id)?.on === true);
          const r = await hub.guns.pair(id, seatIndex < 16 ? seatIndex : null);
          if (!r.ok) throw new Error(`pairing ${id}: ${r.error.message}`);
          // (an external broker keeps the flashed password: the hub sends no key there)
          logins.push({ id, username: id, password: mosquittoPassword ?? (await key) });
        } finally {
          c.end(true);
        }
      }),
    );
  }
  // Let the pending connections' disconnects settle before the guns come back with their keys
  // (embedded broker; an external one tells the hub of no disconnect without a will).
  if (hub.mode === "embedded")
    await waitFor("pairing connections to close", () => ids.every((id) => hub.guns.registry.get(id)?.on === false));
  return logins;
}

export async function openTarget(broker: BrokerKind, mode: Mode, nGuns: number, epochMs: number): Promise<Target> {
  const sink = new AimSink(epochMs);
  const ids = gunIds(nGuns);
  const root = tableRoot(TABLE);
  const closers: (() => Promise<void> | void)[] = [];
  const close = async () => {
    for (const c of closers.reverse()) await c();
  };
  try {
    if (mode === "raw") {
      const b = broker === "aedes" ? await rawAedes() : await mosquitto(null);
      closers.push(() => b.close());
      const echo = await echoClient(b.url, sink);
      closers.push(() => void echo.end(true));
      return {
        broker,
        mode,
        url: b.url,
        root,
        guns: ids.map((id) => ({ id, username: id })),
        sink,
        brokerCpu: () => ("cpu" in b ? (b as Mosquitto).cpu() : null),
        close,
      };
    }
    const dataDir = mkdtempSync(join(tmpdir(), "cng-bench-hub-"));
    closers.push(() => rmSync(dataDir, { recursive: true, force: true }));
    let mosq: Mosquitto | null = null;
    const gunPassword = "bench-gun";
    if (broker === "mosquitto") {
      const users = [
        { name: hubUserFor(TABLE), password: "bench-hub" },
        ...ids.map((name) => ({ name, password: gunPassword })),
      ];
      mosq = await mosquitto(users);
      closers.push(() => mosq!.close());
    }
    const hub = await startHub({
      table: TABLE,
      mqttPort: 0,
      httpPort: 0,
      bind: "127.0.0.1",
      data: dataDir,
      ...(mosq ? { broker: mosq.url, brokerUser: hubUserFor(TABLE), brokerPassword: "bench-hub" } : {}),
    });
    closers.push(() => hub.close());
    hub.streams.aimConsumer = (_gun, _seat, msg) => sink.take(msg.t);
    const guns = await pairGuns(hub, hub.urls.mqtt, ids, mosq ? gunPassword : undefined);
    return { broker, mode, url: hub.urls.mqtt, root, guns, sink, brokerCpu: () => mosq?.cpu() ?? null, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Opens a target and a load worker on it (its guns, one clock), runs `fn`, and closes both whatever happens. */
export async function withLoad<T>(
  broker: BrokerKind,
  mode: Mode,
  nGuns: number,
  probes: boolean,
  fn: (target: Target, load: LoadWorker) => Promise<T>,
): Promise<T> {
  const epochMs = performance.timeOrigin + performance.now();
  const target = await openTarget(broker, mode, nGuns, epochMs);
  try {
    const load = await LoadWorker.start({ url: target.url, root: target.root, guns: target.guns, epochMs, probes });
    try {
      return await fn(target, load);
    } finally {
      await load.close();
    }
  } finally {
    await target.close();
  }
}
