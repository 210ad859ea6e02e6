// Shared test helpers: a hub on free ports in a temp folder, real MQTT clients, requests.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  cmdTopic,
  gunTopic,
  type OpArgs,
  type OpName,
  type OpResponse,
  playerTopic,
  type ResponseMsg,
} from "@cng/protocol";
import type { IClientOptions, MqttClient } from "mqtt";
import { afterAll, beforeAll } from "vitest";
import { topicMatches } from "../../hub/src/bus/bus.js";
import { connectMqtt } from "../../hub/src/bus/connect.js";
import { type Hub, type HubOptions, startHub } from "../../hub/src/hub.js";
import { open as openSealed, viewKey } from "../../hub/src/seal/index.js";

/** The tests' one plain wait: `ms` of real time. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function tempDir(prefix = "cng-hub-"): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function testHub(opts: HubOptions = {}): Promise<Hub & { dataDir: string; stop: () => Promise<void> }> {
  const t = opts.data ? null : tempDir();
  // discovery off unless a test asks: guns elsewhere on this machine must not find a test's hub
  const hub = await startHub({
    mqttPort: 0,
    httpPort: 0,
    bind: "127.0.0.1",
    discovery: "off",
    data: opts.data ?? t!.dir,
    ...opts,
  });
  return Object.assign(hub, {
    dataDir: hub.config.data,
    stop: async () => {
      await hub.close();
      t?.remove();
    },
  });
}

let clientN = 0;
/** A client id that is a valid topic level. */
export function clientId(prefix = "t"): string {
  return `${prefix}${process.pid}x${++clientN}`;
}

export function connect(url: string, opts: IClientOptions = {}): Promise<MqttClient> {
  return connectMqtt(url, { clientId: clientId(), reconnectPeriod: 0, connectTimeout: 3000, ...opts });
}

/** Connects and expects the broker to refuse: resolves with the error. */
export async function connectRefused(url: string, opts: IClientOptions = {}): Promise<Error> {
  try {
    const c = await connect(url, opts);
    c.end(true);
  } catch (e) {
    return e as Error;
  }
  throw new Error("the broker accepted a connection it should have refused");
}

/** Resolves with the next message on `filter` that passes `pick`. */
export function nextMessage(
  client: MqttClient,
  filter: string,
  pick: (payload: any, topic: string) => boolean = () => true,
  timeoutMs = 5000,
): Promise<any> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off("message", on);
      reject(new Error(`no matching message on ${filter} within ${timeoutMs} ms`));
    }, timeoutMs);
    const on = (topic: string, payload: Buffer) => {
      if (!topicMatches(filter, topic) || payload.length === 0) return;
      let v: unknown;
      try {
        v = JSON.parse(payload.toString());
      } catch {
        return;
      }
      if (!pick(v, topic)) return;
      clearTimeout(timer);
      client.off("message", on);
      resolve(v);
    };
    client.on("message", on);
    client.subscribe(filter, { qos: 1 });
  });
}

/**
 * The next private view of `seat` that passes `pick`, as its console reads it: sealed on the wire, opened with the key
 * of the seat's token.
 */
export function nextView(
  client: MqttClient,
  table: string,
  seat: number,
  token: string,
  pick: (m: any) => boolean = () => true,
  timeoutMs = 5000,
): Promise<any> {
  const topic = playerTopic(table, seat, "view");
  const key = viewKey(token, table, seat);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off("message", on);
      reject(new Error(`no matching view of seat ${seat} within ${timeoutMs} ms`));
    }, timeoutMs);
    const on = (t: string, payload: Buffer) => {
      const text = t === topic ? openSealed(key, payload.toString()) : null;
      const m = text === null ? null : JSON.parse(text);
      if (!m || !pick(m)) return;
      clearTimeout(timer);
      client.off("message", on);
      resolve(m);
    };
    client.on("message", on);
    client.subscribe(topic, { qos: 1 });
  });
}

let reqN = 0;
/** Sends a command request and waits for its response. */
export type TestHub = Awaited<ReturnType<typeof testHub>>;

/** A hub and a host client on it, for the tests of one describe block: started before them, stopped after. */
export function hubWithHost(opts: HubOptions = {}): { readonly hub: TestHub; readonly host: MqttClient } {
  let hub: TestHub | undefined;
  let host: MqttClient | undefined;
  beforeAll(async () => {
    hub = await testHub(opts);
    host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
  });
  afterAll(async () => {
    host?.end(true);
    await hub?.stop();
  });
  const started = <T>(x: T | undefined): T => {
    if (x === undefined) throw new Error("the hub is not started yet (use it inside a test)");
    return x;
  };
  return {
    get hub() {
      return started(hub);
    },
    get host() {
      return started(host);
    },
  };
}

/** One request for op `K` with its arguments; resolves with the hub's response, typed by the op. */
export async function request<K extends OpName>(
  client: MqttClient,
  table: string,
  op: K,
  a?: OpArgs<K>,
  auth?: string,
  timeoutMs = 5000,
): Promise<OpResponse<K>> {
  // the hub answers this op's request with this op's response
  return (await requestRaw(client, table, op, a, auth, timeoutMs)) as OpResponse<K>;
}

/** Any request, as a hostile or broken client might send it: an unknown op, arguments of any shape. */
export async function requestRaw(
  client: MqttClient,
  table: string,
  op: string,
  a?: unknown,
  auth?: string,
  timeoutMs = 5000,
): Promise<ResponseMsg> {
  const id = `r${++reqN}`;
  const cid = client.options.clientId!;
  const res = nextMessage(client, cmdTopic(table, cid, "res"), (m) => m.id === id, timeoutMs);
  await sleep(20); // let the subscription land
  const msg: Record<string, unknown> = { v: 1, id, op };
  if (auth !== undefined) msg.auth = auth;
  if (a !== undefined) msg.a = a;
  await client.publishAsync(cmdTopic(table, cid, "req"), JSON.stringify(msg), { qos: 1 });
  return res;
}

/** Resolves once the client's connection is closed by the other side. */
export function closed(client: MqttClient, timeoutMs = 3000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!client.connected) return resolve();
    const t = setTimeout(() => reject(new Error("the connection stayed open")), timeoutMs);
    client.once("close", () => {
      clearTimeout(t);
      resolve();
    });
  });
}

/**
 * The tests' one way to wait for something: until `fn` gives a value (checked every 10 ms; it may be async), or a
 * failure after `timeoutMs` saying what it waited for.
 */
export async function waitFor<T>(
  fn: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 5000,
  what = "the condition",
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out (${timeoutMs} ms) waiting for ${what}`);
    await sleep(10);
  }
}

/** Waits until a broker just started takes connections (about 5 s at most). */
export async function brokerUp(url: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      (await connect(url)).end(true);
      return;
    } catch (e) {
      if (i > 50) throw e;
      await sleep(100);
    }
  }
}

/** The QoS the broker grants a subscription: 0-2, or 128 when refused. */
export async function granted(client: MqttClient, filter: string): Promise<number> {
  try {
    const g = await client.subscribeAsync(filter);
    return g[0]!.qos;
  } catch (e) {
    const codes = (e as { packet?: { granted?: number[] } }).packet?.granted;
    if (codes?.length) return codes[0]!;
    throw e;
  }
}

const CLI = new URL("../../bin/cng.js", import.meta.url).pathname;

/** `cng hub` as a child process (so a test can SIGKILL it), resolved once it prints its MQTT URL and PIN. */
export function spawnHub(
  data: string,
  opts: { pin: string; mqttPort?: number; extra?: string[] },
): Promise<{ child: ChildProcess; mqtt: string }> {
  const args = [CLI, "hub", "--data", data, "--mqtt-port", String(opts.mqttPort ?? 0), "--http-port", "0"];
  const child = spawn(
    process.execPath,
    [...args, "--bind", "127.0.0.1", "--pin", opts.pin, "--no-pretty", ...(opts.extra ?? [])],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr!.on("data", (d) => (err += d));
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /MQTT:\s+(mqtt:\/\/\S+)/.exec(out);
      if (m && /host PIN:\s+(\S+)/.test(out)) resolve({ child, mqtt: m[1]! });
    });
    child.on("exit", (code) => reject(new Error(`hub exited (${code}): ${err}`)));
  });
}

/** Pairs a gun through the real path (it asks, the host accepts, it gets its key) and returns its key. */
export async function pairGun(hub: Hub & { urls: { mqtt: string } }, host: MqttClient, id: string): Promise<string> {
  const g = await connect(hub.urls.mqtt, { username: id, password: "x", clientId: id });
  const k = nextMessage(g, gunTopic(hub.table, id, "cmd"), (m) => m.c === "key");
  await sleep(30);
  const r = await request(host, hub.table, "pair.accept", { gun: id }, hub.pin);
  if (!r.ok) throw new Error(`pair.accept ${id}: ${JSON.stringify(r.e)}`);
  const key = (await k).k as string;
  g.end(true);
  return key;
}
