// A gun on a USB cable: its lines (hardware/SERIAL.md) are checked and published on the broker
// as that gun, so pairing, rights and presence work exactly as for a WiFi gun. Cues and commands for it come back
// down the cable. An unplugged gun's will is published, and the port is reopened until the gun is back.
// A gun not yet paired logs in with the secret its hello says (a pairing request); a paired one says no key, only a
// nonce: the bridge gets a login of its own for it and the answer to the nonce from the hub (`credentials`), proves
// the link with `auth`, and logs in as the gun with that token.
import {
  decodeCommand,
  decodeCue,
  encWill,
  type GunId,
  type GunOutLeaf,
  gunTopic,
  type InfoMsg,
  isName,
} from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { SerialPort, type SerialPortMock } from "serialport";
import { connectMqtt } from "../bus/connect.js";
import { type Logger, OncePerKey } from "../log.js";
import { type Hello, LineSplitter, lineForGun, MAX_LINE, parseGunLine, SERIAL_GUN_BAUD } from "./lines.js";
import { PortRetry } from "./retry.js";

type Port = SerialPort | SerialPortMock;

export interface SerialGunBridgeOptions {
  /** serial device of the gun, e.g. /dev/ttyUSB0 (CP2102/CH340 boards), /dev/ttyACM0, COM4 */
  path: string;
  /** the broker, e.g. the hub's own mqtt://127.0.0.1:1883 */
  mqttUrl: string;
  /** table name: topics are cng/v1/<table>/gun/<id>/... */
  table: string;
  log: Logger;
  baudRate?: number;
  /** makes the port (tests: serialport's SerialPortMock on MockBinding); default a real SerialPort */
  openPort?: (path: string, baudRate: number) => Port;
  /** no line for this long = the gun hangs: its will goes out, ms (default 30000) */
  idleMs?: number;
  /** reopen the port / reconnect to the broker this often after a failure, ms; 0 = never (default 5000) */
  retryMs?: number;
  /**
   * For a paired gun (its hello says a nonce, no key): the bridge's own login and the answer to the nonce, from the
   * hub (its store in-process: bridgeCredentials; elsewhere the `gun.bridge` op); null when the hub holds no key for
   * it. Without it, a paired gun is not bridged.
   */
  credentials?: BridgeCredentials;
}

/** A bridge's login for a paired gun, and the answer that proves its link (`m`, for the `auth` line). */
export interface BridgeLogin {
  token: string;
  m: string;
}
export type BridgeCredentials = (gun: GunId, n: string) => Promise<BridgeLogin | null> | BridgeLogin | null;

export interface SerialGunBridge {
  /** the gun's id once it said hello */
  readonly gun: string | null;
  /** true while the gun is on the broker */
  readonly online: boolean;
  /** the open port, for diagnostics and tests */
  readonly port: Port | null;
  close(): Promise<void>;
}

const QOS: { [leaf in GunOutLeaf]: 0 | 1 } = { aim: 0, sync: 0, trig: 1, info: 1, err: 1, will: 1, otas: 1, imu: 1 };

/** Adds what to do to a serial error people commonly hit. */
function explain(path: string, e: Error): string {
  const m = e.message;
  if (/permission denied|EACCES/i.test(m)) {
    return `${m}: add yourself to the dialout group (sudo usermod -aG dialout $USER), then log out and back in`;
  }
  if (/no such file|ENOENT|cannot open/i.test(m)) {
    return `${m}: is the gun plugged in? List ports with \`ls /dev/ttyUSB* /dev/ttyACM*\``;
  }
  if (/busy|EBUSY|lock/i.test(m)) return `${m}: another program (a serial monitor, cng flash) has ${path} open`;
  return m;
}

export function startSerialGunBridge(o: SerialGunBridgeOptions): SerialGunBridge {
  const log = o.log;
  const path = o.path;
  const baud = o.baudRate ?? SERIAL_GUN_BAUD;
  const idleMs = o.idleMs ?? 30_000;
  const retryMs = o.retryMs ?? 5000;
  const open = o.openPort ?? ((p: string, b: number) => new SerialPort({ path: p, baudRate: b, autoOpen: false }));
  const badLines = new OncePerKey(log, 10_000);

  let closed = false;
  let port: Port | null = null;
  // (openPort is a function declaration below: called only once the bridge is built)
  const retry = new PortRetry(retryMs, log, () => openPort());
  let hello: Hello | null = null;
  let mqtt: MqttClient | null = null;
  /** the login wanted now: the gun's id and password; `sk` names it (a new token keeps a token session) */
  let want: { id: string; pass: string; sk: string } | null = null;
  /** `sk` of the MQTT session, to see when a hello changes who we are */
  let session = "";
  let connecting = false;
  let idle: NodeJS.Timeout | null = null;
  let lastWho = 0;

  const toGun = (leaf: "who" | "auth" | "link" | "cue" | "cmd", json: string) => {
    if (port?.isOpen) port.write(lineForGun(leaf, json));
  };

  const askWho = () => {
    const t = Date.now();
    if (t - lastWho < 1000) return;
    lastWho = t;
    toGun("who", '{"v":1}');
  };

  /** Leaves the broker; with a reason, the gun is gone and its will goes out first. */
  const leaveBroker = async (why: string | null) => {
    const c = mqtt;
    const gun = hello?.id;
    mqtt = null;
    session = "";
    if (!c || !gun) return;
    if (why !== null && c.connected) {
      log.info({ gun, port: path }, `serial gun ${gun}: ${why}; publishing its will`);
      await c.publishAsync(gunTopic(o.table, gun, "will"), encWill(), { qos: 1 }).catch(() => {});
    }
    await c.endAsync().catch(() => {});
  };

  const joinBroker = async () => {
    const h = want;
    if (!h) return;
    const key = h.sk;
    if (key === session && mqtt) {
      // the same session: a new token only replaces the one its reconnects log in with
      mqtt.options.password = h.pass;
      return;
    }
    if (connecting) return;
    connecting = true;
    try {
      await leaveBroker(null);
      session = key;
      const cue = gunTopic(o.table, h.id, "cue");
      const cmd = gunTopic(o.table, h.id, "cmd");
      const c = await connectMqtt(o.mqttUrl, {
        clientId: h.id,
        username: h.id,
        password: h.pass,
        clean: true,
        keepalive: 15,
        reconnectPeriod: retryMs || 1000,
        will: { topic: gunTopic(o.table, h.id, "will"), payload: Buffer.from(encWill()), qos: 1, retain: false },
      });
      if (closed || session !== key) {
        await c.endAsync().catch(() => {});
        return;
      }
      mqtt = c;
      c.on("message", (topic, payload) => fromHub(h.id, topic === cue ? "cue" : topic === cmd ? "cmd" : null, payload));
      c.on("connect", () => toGun("link", '{"v":1,"on":1}'));
      c.on("offline", () => toGun("link", '{"v":1,"on":0}'));
      c.on("error", (e) =>
        badLines.warn(`mqtt:${e.message}`, { gun: h.id }, `serial gun ${h.id}: broker says ${e.message}`),
      );
      await c.subscribeAsync([cue, cmd], { qos: 1 });
      toGun("link", '{"v":1,"on":1}');
      log.info(
        { gun: h.id, port: path, bridged: h.sk.endsWith(":t") },
        `serial gun ${h.id} on ${path} is on the broker`,
      );
    } catch (e) {
      session = "";
      const m = (e as Error).message;
      log.warn(
        { gun: h.id, port: path },
        `serial gun ${h.id}: the broker at ${o.mqttUrl} refused or did not answer (${m})` +
          (/not authori|bad user|wrong/i.test(m) ? "; its secret is wrong: forget and pair it again" : ""),
      );
      if (retryMs > 0 && !closed) setTimeout(() => want && !mqtt && void joinBroker(), retryMs).unref();
    } finally {
      connecting = false;
    }
    // a new hello or token that came while connecting
    if (!closed && mqtt && want) {
      if (want.sk !== session) void joinBroker();
      else mqtt.options.password = want.pass;
    }
  };

  /** A paired gun's hello: the hub's login for its bridge and the answer to its nonce, then `auth`, then the broker. */
  const prove = async (h: Hello) => {
    if (!o.credentials) {
      badLines.warn("nocreds", { gun: h.id }, `serial gun ${h.id} is paired: this bridge cannot ask the hub to vouch`);
      return;
    }
    let c: BridgeLogin | null;
    try {
      c = await o.credentials(h.id, h.n!);
    } catch (e) {
      badLines.warn("creds", { gun: h.id }, `serial gun ${h.id}: the hub did not vouch (${(e as Error).message})`);
      if (retryMs > 0 && !closed) setTimeout(() => hello === h && void prove(h), retryMs).unref();
      return;
    }
    // a newer hello (another nonce) came meanwhile: that one is proven instead
    if (closed || hello !== h) return;
    if (!c) {
      log.warn(
        { gun: h.id, port: path },
        `serial gun ${h.id} is paired, but not to this hub (forgotten?): it needs a new gun.json (hardware/SERIAL.md)`,
      );
      return;
    }
    toGun("auth", JSON.stringify({ v: 1, m: c.m }));
    want = { id: h.id, pass: c.token, sk: `${h.id}:t` };
    void joinBroker();
  };

  /** A cue or command from the hub: checked, then sent down the cable. */
  const fromHub = (gun: string, leaf: "cue" | "cmd" | null, payload: Buffer) => {
    if (!leaf) return;
    const text = payload.toString("utf8");
    const d = leaf === "cue" ? decodeCue(text) : decodeCommand(text);
    if (!d.ok) {
      badLines.warn(
        `hub:${leaf}:${d.error.code}`,
        { gun },
        `serial gun ${gun}: not sending a bad ${leaf}: ${d.error.message}`,
      );
      return;
    }
    // pairing: the gun stores the key and says hello again, with a nonce; the bridge keeps no key
    toGun(leaf, text);
  };

  const onLine = (line: string) => {
    armIdle();
    const p = parseGunLine(line);
    if (p.kind === "bad") {
      badLines.warn(
        `line:${p.code}`,
        { port: path, line: line.slice(0, 80) },
        `serial gun on ${path}: dropped a line (${p.why})`,
      );
      return;
    }
    if (p.kind === "hello") {
      if (hello && hello.id !== p.hello.id) void leaveBroker(`now says it is ${p.hello.id}`);
      hello = p.hello;
      if (hello.n !== undefined) void prove(hello);
      else {
        want = { id: hello.id, pass: hello.k ?? "", sk: `${hello.id}:k:${hello.k ?? ""}` };
        void joinBroker();
      }
      return;
    }
    if (!hello) {
      badLines.warn(
        "nohello",
        { port: path },
        `serial gun on ${path}: dropped ${p.leaf} before its hello; asking who it is`,
      );
      askWho();
      return;
    }
    if (!mqtt) {
      if (!connecting && want?.id === hello.id) void joinBroker();
      return;
    }
    const retain = p.leaf === "info";
    mqtt.publish(gunTopic(o.table, hello.id, p.leaf), p.payload, { qos: QOS[p.leaf], retain });
    if (p.leaf === "info") log.debug({ gun: hello.id, info: p.msg.msg as InfoMsg }, "serial gun info");
  };

  const splitter = new LineSplitter(onLine, () =>
    badLines.warn("overflow", { port: path }, `serial gun on ${path}: a line longer than ${MAX_LINE} bytes, dropped`),
  );

  function armIdle(): void {
    if (idle) clearTimeout(idle);
    idle = null;
    if (idleMs <= 0 || closed) return;
    idle = setTimeout(() => {
      idle = null;
      if (mqtt && hello) void leaveBroker(`silent for ${Math.round(idleMs / 1000)} s`);
    }, idleMs);
    idle.unref();
  }

  const lost = (p: Port, why: string) => {
    if (port !== p) return;
    port = null;
    splitter.reset();
    if (idle) clearTimeout(idle);
    idle = null;
    const gun = hello?.id;
    void leaveBroker(why);
    hello = null;
    want = null;
    if (!closed) failed(why, gun);
  };

  /** Counts a port failure, says so once, and tries again later. */
  const failed = (why: string, gun?: string) => {
    const who = gun ? `serial gun ${gun} on ${path}` : `serial gun port ${path}`;
    retry.failed({ port: path, gun }, `${who}: ${why}`);
  };

  function openPort(): void {
    if (closed) return;
    let p: Port;
    try {
      p = open(path, baud);
    } catch (e) {
      failed(explain(path, e as Error));
      return;
    }
    port = p;
    p.setEncoding("utf8");
    p.on("data", (chunk: string) => splitter.push(chunk));
    p.on("error", (e: Error) => lost(p, explain(path, e)));
    p.on("close", (e: { disconnected?: boolean } | null) => lost(p, e?.disconnected ? "unplugged" : "port closed"));
    p.open((e) => {
      if (e) {
        lost(p, explain(path, e));
        return;
      }
      if (retry.ok()) log.info({ port: path }, `serial gun port ${path} is back`);
      log.info({ port: path, baud }, `listening for a gun on ${path} at ${baud} baud`);
      lastWho = 0;
      askWho();
    });
  }

  if (!isName(o.table)) throw new Error(`table name ${o.table} is not a-z 0-9 _ -`);
  openPort();

  return {
    get gun() {
      return hello?.id ?? null;
    },
    get online() {
      return mqtt?.connected ?? false;
    },
    get port() {
      return port;
    },
    async close() {
      if (closed) return;
      closed = true;
      retry.stop();
      if (idle) clearTimeout(idle);
      const p = port;
      port = null;
      await leaveBroker("the hub is stopping");
      if (p?.isOpen) await new Promise<void>((r) => p.close(() => r()));
    },
  };
}
