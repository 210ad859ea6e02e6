// A gun on a USB cable: its lines (hardware/SERIAL.md) are checked and published on the broker
// as that gun, so pairing, rights and presence work exactly as for a WiFi gun. Cues and commands for it come back
// down the cable. An unplugged gun's will is published, and the port is reopened until the gun is back.
// A gun not yet paired logs in with the secret its hello says (a pairing request); a paired one says no key, only a
// nonce: the bridge gets a login of its own for it and the answer to the nonce from the hub (`credentials`), proves
// the link with `auth`, and logs in as the gun with that token.
import { type GunId, type InfoMsg, isName } from "@cng/protocol";
import { SerialPort, type SerialPortMock } from "serialport";
import { type Logger, OncePerKey } from "../log.js";
import { HubLink } from "./hub-link.js";
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

/** a real serial port, opened by the bridge */
const realPort = (path: string, baudRate: number): Port => new SerialPort({ path, baudRate, autoOpen: false });

export function startSerialGunBridge(o: SerialGunBridgeOptions): SerialGunBridge {
  if (!isName(o.table)) throw new Error(`table name ${o.table} is not a-z 0-9 _ -`);
  const b = new Bridge(o);
  b.openPort();
  return b;
}

/** The cable side: the port opened and reopened, its lines read, the gun's hello proven, silence noticed. */
class Bridge implements SerialGunBridge {
  private readonly log: Logger;
  private readonly path: string;
  private readonly baud: number;
  private readonly idleMs: number;
  private readonly retryMs: number;
  private readonly badLines: OncePerKey;
  private readonly retry: PortRetry;
  private readonly link: HubLink;
  private readonly splitter: LineSplitter;
  private closed = false;
  private open: Port | null = null;
  private hello: Hello | null = null;
  private idle: NodeJS.Timeout | null = null;
  private lastWho = 0;

  constructor(private readonly o: SerialGunBridgeOptions) {
    this.log = o.log;
    this.path = o.path;
    this.baud = o.baudRate ?? SERIAL_GUN_BAUD;
    this.idleMs = o.idleMs ?? 30_000;
    this.retryMs = o.retryMs ?? 5000;
    this.badLines = new OncePerKey(o.log, 10_000);
    this.retry = new PortRetry(this.retryMs, o.log, () => this.openPort());
    this.link = new HubLink({
      mqttUrl: o.mqttUrl,
      table: o.table,
      retryMs: this.retryMs,
      path: o.path,
      log: o.log,
      badLines: this.badLines,
      toGun: (leaf, json) => this.toGun(leaf, json),
      closed: () => this.closed,
    });
    this.splitter = new LineSplitter(
      (line) => this.onLine(line),
      () =>
        this.badLines.warn(
          "overflow",
          { port: this.path },
          `serial gun on ${this.path}: a line longer than ${MAX_LINE} bytes, dropped`,
        ),
    );
  }

  get gun(): string | null {
    return this.hello?.id ?? null;
  }

  get online(): boolean {
    return this.link.online;
  }

  get port(): Port | null {
    return this.open;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.retry.stop();
    if (this.idle) clearTimeout(this.idle);
    const p = this.open;
    this.open = null;
    await this.link.leave(this.hello?.id, "the hub is stopping");
    if (p?.isOpen) await new Promise<void>((r) => p.close(() => r()));
  }

  openPort(): void {
    if (this.closed) return;
    let p: Port;
    try {
      p = (this.o.openPort ?? realPort)(this.path, this.baud);
    } catch (e) {
      this.failed(explain(this.path, e as Error));
      return;
    }
    this.open = p;
    p.setEncoding("utf8");
    p.on("data", (chunk: string) => this.splitter.push(chunk));
    p.on("error", (e: Error) => this.lost(p, explain(this.path, e)));
    p.on("close", (e: { disconnected?: boolean } | null) =>
      this.lost(p, e?.disconnected ? "unplugged" : "port closed"),
    );
    p.open((e) => {
      if (e) {
        this.lost(p, explain(this.path, e));
        return;
      }
      if (this.retry.ok()) this.log.info({ port: this.path }, `serial gun port ${this.path} is back`);
      this.log.info({ port: this.path, baud: this.baud }, `listening for a gun on ${this.path} at ${this.baud} baud`);
      this.lastWho = 0;
      this.askWho();
    });
  }

  private toGun(leaf: "who" | "auth" | "link" | "cue" | "cmd", json: string): void {
    if (this.open?.isOpen) this.open.write(lineForGun(leaf, json));
  }

  private askWho(): void {
    const t = Date.now();
    if (t - this.lastWho < 1000) return;
    this.lastWho = t;
    this.toGun("who", '{"v":1}');
  }

  private onLine(line: string): void {
    this.armIdle();
    const p = parseGunLine(line);
    if (p.kind === "bad") {
      this.badLines.warn(
        `line:${p.code}`,
        { port: this.path, line: line.slice(0, 80) },
        `serial gun on ${this.path}: dropped a line (${p.why})`,
      );
      return;
    }
    if (p.kind === "hello") {
      if (this.hello && this.hello.id !== p.hello.id)
        void this.link.leave(this.hello.id, `now says it is ${p.hello.id}`);
      const h = p.hello;
      this.hello = h;
      if (h.n !== undefined) void this.prove(h);
      else this.link.want({ id: h.id, pass: h.k ?? "", sk: `${h.id}:k:${h.k ?? ""}` });
      return;
    }
    if (!this.hello) {
      this.badLines.warn(
        "nohello",
        { port: this.path },
        `serial gun on ${this.path}: dropped ${p.leaf} before its hello; asking who it is`,
      );
      this.askWho();
      return;
    }
    if (!this.link.up) {
      this.link.rejoin(this.hello.id);
      return;
    }
    this.link.publish(this.hello.id, p.leaf, p.payload);
    if (p.leaf === "info") this.log.debug({ gun: this.hello.id, info: p.msg.msg as InfoMsg }, "serial gun info");
  }

  /** A paired gun's hello: the hub's login for its bridge and the answer to its nonce, then `auth`, then the broker. */
  private async prove(h: Hello): Promise<void> {
    const o = this.o;
    if (!o.credentials) {
      this.badLines.warn(
        "nocreds",
        { gun: h.id },
        `serial gun ${h.id} is paired: this bridge cannot ask the hub to vouch`,
      );
      return;
    }
    let c: BridgeLogin | null;
    try {
      c = await o.credentials(h.id, h.n!);
    } catch (e) {
      this.badLines.warn("creds", { gun: h.id }, `serial gun ${h.id}: the hub did not vouch (${(e as Error).message})`);
      if (this.retryMs > 0 && !this.closed)
        setTimeout(() => this.hello === h && void this.prove(h), this.retryMs).unref();
      return;
    }
    // a newer hello (another nonce) came meanwhile: that one is proven instead
    if (this.closed || this.hello !== h) return;
    if (!c) {
      this.log.warn(
        { gun: h.id, port: this.path },
        `serial gun ${h.id} is paired, but not to this hub (forgotten?): it needs a new gun.json (hardware/SERIAL.md)`,
      );
      return;
    }
    this.toGun("auth", JSON.stringify({ v: 1, m: c.m }));
    this.link.want({ id: h.id, pass: c.token, sk: `${h.id}:t` });
  }

  private armIdle(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (this.idleMs <= 0 || this.closed) return;
    this.idle = setTimeout(() => {
      this.idle = null;
      if (this.link.up && this.hello)
        void this.link.leave(this.hello.id, `silent for ${Math.round(this.idleMs / 1000)} s`);
    }, this.idleMs);
    this.idle.unref();
  }

  private lost(p: Port, why: string): void {
    if (this.open !== p) return;
    this.open = null;
    this.splitter.reset();
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const gun = this.hello?.id;
    void this.link.leave(gun, why);
    this.hello = null;
    this.link.want(null);
    if (!this.closed) this.failed(why, gun);
  }

  /** Counts a port failure, says so once, and tries again later. */
  private failed(why: string, gun?: string): void {
    const who = gun ? `serial gun ${gun} on ${this.path}` : `serial gun port ${this.path}`;
    this.retry.failed({ port: this.path, gun }, `${who}: ${why}`);
  }
}
