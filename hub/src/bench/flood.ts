// `cng bench flood`: a player on the table's WiFi floods a running hub during a game, one kind of flood after another.
// The hub is a real `cng hub` process on its embedded broker; a simulated table (virtual guns running the firmware in
// the vm, a bot per seat) plays whole games against it from this machine; the host's device, from another address,
// asks the hub something every 250 ms and logs in with its token every second. Per flood: the host's answers (p50,
// p99, max, none lost), its logins, the hub's memory (VmRSS), what the flood sent; at the end, every game played is
// replayed from the hub's log and must give the result the table showed.
import type { ChildProcess } from "node:child_process";
import { connect as tcp } from "node:net";
import { cmdTopic, gunTopic, type OpName } from "@cng/protocol";
import { MqttClient } from "mqtt";
import WebSocket from "ws";
import { rulesEngine } from "../game/engine.js";
import { replay } from "../game/replay.js";
import { CommandClient } from "../sim/commands.js";
import { Fleet } from "../sim/fleet.js";
import { type GameResult, playGame } from "../sim/game.js";
import { dbPath, openDb } from "../store/db.js";
import { GameLog } from "../store/game-log.js";
import { FLOODS, type FloodKind } from "./flood-kinds.js";
import { connectPacket, tcpConnect } from "./guess/raw-connect.js";
import type { Bench } from "./index.js";
import { type Spread, spread } from "./load/stats.js";
import { CLI, Leftovers, rssKb, sleep } from "./venue-tables.js";

export interface FloodRow {
  flood: FloodKind;
  seconds: number;
  /** what the flood sent: connects, packets, requests… (its own unit, in `what`) */
  sent: number;
  what: string;
  /** the host's requests: answered, and how fast (ms) */
  host: Spread;
  hostLost: number;
  /** the host's logins with its device's token (ms to CONNACK), and refused ones */
  login: Spread;
  loginRefused: number;
  rssMaxMb: number;
  rssEndMb: number;
}

interface HubChild {
  proc: ChildProcess;
  data: string;
  pin: string;
  mqtt: number;
  http: number;
}

async function startHub(left: Leftovers): Promise<HubChild> {
  const data = `${left.root}/hub`;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CNG_")));
  const proc = left.spawn(
    process.execPath,
    [
      CLI,
      "hub",
      ...["--data", data, "--mqtt-port", "0", "--http-port", "0", "--bind", "127.0.0.1", "--discovery", "off"],
      ...["--log-level", "error", "--no-pretty", "--timing", "fast"],
    ],
    { env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  proc.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  proc.stderr?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  const end = Date.now() + 60_000;
  for (;;) {
    const mqtt = /MQTT:\s+\S+ \(port (\d+)\)/.exec(out);
    const http = /dashboard:\s+http:\/\/[^:]+:(\d+)\//.exec(out);
    const pin = /host PIN:\s+(\S+)/.exec(out);
    if (mqtt && http && pin) return { proc, data, pin: pin[1]!, mqtt: Number(mqtt[1]), http: Number(http[1]) };
    if (proc.exitCode !== null) throw new Error(`bench flood: the hub stopped at start:\n${out}`);
    if (Date.now() > end) throw new Error(`bench flood: the hub did not start within 60 s:\n${out}`);
    await sleep(50);
  }
}

/** An MQTT client from `from` (another device to the hub); rejects when refused. */
function clientFrom(port: number, from: string, o: { clientId: string; username?: string; password?: string }) {
  const c = new MqttClient(() => tcp({ host: "127.0.0.1", port, localAddress: from }), {
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 3000,
    keepalive: 30,
    ...o,
  });
  return new Promise<MqttClient>((resolve, reject) => {
    c.once("connect", () => resolve(c));
    c.once("error", (e) => {
      c.end(true);
      reject(e);
    });
    c.once("close", () => reject(new Error("closed")));
  });
}

/** The host's device at 127.0.0.200: a request every 250 ms, answered or lost (5 s). */
class HostProbe {
  times: number[] = [];
  lost = 0;
  logins: number[] = [];
  loginRefused = 0;
  private stopped = false;
  private n = 0;
  private constructor(
    private readonly c: MqttClient,
    private readonly table: string,
    private readonly port: number,
    private readonly token: string,
  ) {}

  static async start(port: number, table: string, token: string): Promise<HostProbe> {
    const c = await clientFrom(port, "127.0.0.200", {
      clientId: "bench-host-device",
      username: "host",
      password: token,
    });
    await c.subscribeAsync(cmdTopic(table, "bench-host-device", "res"), { qos: 1 });
    const p = new HostProbe(c, table, port, token);
    void p.loop();
    void p.loginLoop();
    return p;
  }

  reset(): void {
    this.times = [];
    this.lost = 0;
    this.logins = [];
    this.loginRefused = 0;
  }

  private ask(op: OpName): Promise<number | null> {
    const id = `h${++this.n}`;
    const t0 = performance.now();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.c.off("message", on);
        resolve(null);
      }, 5000);
      const on = (_t: string, p: Buffer) => {
        if (!p.includes(`"${id}"`)) return;
        clearTimeout(timer);
        this.c.off("message", on);
        resolve(performance.now() - t0);
      };
      this.c.on("message", on);
      this.c.publish(cmdTopic(this.table, "bench-host-device", "req"), JSON.stringify({ v: 1, id, op }), { qos: 1 });
    });
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const ms = await this.ask("game.state");
      if (ms === null) this.lost++;
      else this.times.push(ms);
      await sleep(250);
    }
  }

  private async loginLoop(): Promise<void> {
    for (let i = 0; !this.stopped; i++) {
      const t0 = performance.now();
      const rc = await tcpConnect(this.port, {
        clientId: `bench-login-${i}`,
        username: "host",
        password: this.token,
        from: "127.0.0.201",
      });
      if (rc === 0) this.logins.push(performance.now() - t0);
      else this.loginRefused++;
      await sleep(1000);
    }
  }

  stop(): void {
    this.stopped = true;
    this.c.end(true);
  }
}

/** A PUBLISH header announcing `len` bytes, never sent. */
function hugeHeader(len: number): Buffer {
  const out = [0x30];
  let l = len;
  do {
    let d = l & 127;
    l >>= 7;
    if (l) d |= 128;
    out.push(d);
  } while (l);
  return Buffer.from(out);
}

/** A flood's run: the hub it floods, the table, and whether it still goes on. */
interface FloodRun {
  hub: HubChild;
  table: string;
  going(): boolean;
  /** `n` workers side by side */
  workers(n: number, fn: (i: number) => Promise<void>): Promise<unknown>;
}

type Sent = { sent: number; what: string };

/** Each flood: what it sends, as fast as the hub takes it, until the run ends. */
const FLOOD: { readonly [K in FloodKind]: (r: FloodRun) => Promise<Sent> } = {
  none: async ({ going }) => {
    while (going()) await sleep(100);
    return { sent: 0, what: "-" };
  },
  ids: async ({ hub, table, going, workers }) => {
    let sent = 0;
    // the hub's old fixed id and each gun's, from 8 devices, as fast as they connect
    await workers(8, async (w) => {
      for (let i = 0; going(); i++) {
        const clientId = i % 2 ? `${table}-sim${i % 6}` : `cng-hub-${table}`;
        await tcpConnect(hub.mqtt, { clientId, from: `127.0.3.${w + 1}` }, "127.0.0.1", 3000);
        sent++;
      }
    });
    return { sent, what: "connects" };
  },
  "ws-partial": async ({ hub, going, workers }) => {
    let sent = 0;
    // 40 WebSockets from 8 devices, each a packet announced at 100 MB and never finished
    await workers(40, async (w) => {
      while (going()) {
        const ws = new WebSocket(`ws://127.0.0.1:${hub.http}/mqtt`, ["mqtt"], {
          localAddress: `127.0.4.${(w % 8) + 1}`,
        });
        ws.on("error", () => {});
        await new Promise<void>((r) => {
          ws.once("open", () => r());
          ws.once("close", () => r());
        });
        if (ws.readyState === WebSocket.OPEN) {
          ws.send(connectPacket({ clientId: `wsp${w}` }));
          ws.send(hugeHeader(100 * 1024 * 1024));
          const chunk = Buffer.alloc(4096, 0x41);
          while (going() && ws.readyState === WebSocket.OPEN) {
            ws.send(chunk);
            sent += chunk.length;
            await sleep(5);
          }
        }
        ws.terminate();
      }
    });
    return { sent: Math.round(sent / 1024), what: "KiB" };
  },
  connections: async ({ hub, going, workers }) => {
    let sent = 0;
    // sockets held open from 4 devices, as many as they get
    const held: ReturnType<typeof tcp>[] = [];
    await workers(4, async (w) => {
      while (going()) {
        const s = tcp({ host: "127.0.0.1", port: hub.mqtt, localAddress: `127.0.5.${w + 1}` });
        s.on("error", () => {});
        held.push(s);
        sent++;
        await sleep(2);
      }
    });
    for (const s of held) s.destroy();
    return { sent, what: "sockets" };
  },
  subscriptions: async ({ hub, table, going, workers }) => {
    let sent = 0;
    await workers(4, async (w) => {
      while (going()) {
        const c = await clientFrom(hub.mqtt, `127.0.6.${w + 1}`, { clientId: `subf${w}` }).catch(() => null);
        if (!c) continue;
        for (let i = 0; going() && c.connected; i++) {
          await c.subscribeAsync(gunTopic(table, `x${w}x${i}`, "status")).catch(() => {});
          sent++;
        }
        c.end(true);
      }
    });
    return { sent, what: "subscribes" };
  },
  requests: async ({ hub, table, going, workers }) => {
    let sent = 0;
    // game.history as fast as 4 devices can send it; a device closed comes back at once
    await workers(4, async (w) => {
      while (going()) {
        const clientId = `reqf${w}`;
        const c = await clientFrom(hub.mqtt, `127.0.7.${w + 1}`, { clientId }).catch(() => null);
        if (!c) {
          await sleep(20);
          continue;
        }
        const topic = cmdTopic(table, clientId, "req");
        for (let i = 0; going() && c.connected; i++) {
          c.publish(topic, JSON.stringify({ v: 1, id: `f${i}`, op: "game.history", a: { game: 1 } }), () => {});
          sent++;
          if (i % 20 === 0) await sleep(0);
        }
        c.end(true);
      }
    });
    return { sent, what: "requests" };
  },
  pin: async ({ hub, going, workers }) => {
    let sent = 0;
    await workers(16, async (w) => {
      for (let i = w; going(); i += 16) {
        const from = `127.0.${8 + Math.floor((i % 300) / 250)}.${1 + ((i % 300) % 250)}`;
        await tcpConnect(
          hub.mqtt,
          { clientId: `pin${i}`, username: "host", password: "000000", from },
          "127.0.0.1",
          3000,
        );
        sent++;
      }
    });
    return { sent, what: "guesses" };
  },
  pairing: async ({ hub, going, workers }) => {
    let sent = 0;
    // made-up guns asking to be paired, from 50 devices, each id held as long as the hub lets it
    await workers(50, async (w) => {
      for (let i = 0; going(); i++) {
        const id = `fake${w}x${i}`;
        const c = await clientFrom(hub.mqtt, `127.0.10.${w + 1}`, {
          clientId: id,
          username: id,
          password: "x",
        }).catch(() => null);
        sent++;
        if (c) {
          while (going() && c.connected) await sleep(100);
          c.end(true);
        } else await sleep(100);
      }
    });
    return { sent, what: "asks" };
  },
  voice: async ({ hub, going, workers }) => {
    let sent = 0;
    // new phrases, 32 in flight
    await workers(32, async (w) => {
      for (let i = 0; going(); i++) {
        const n = 5000 * (1 + ((w * 997 + i * 31) % 40));
        await fetch(`http://127.0.0.1:${hub.http}/api/voice/en/split.${n}.0`).catch(() => null);
        sent++;
      }
    });
    return { sent, what: "renders" };
  },
};

/** One flood, running until `until`; resolves with what it sent. */
function flood(kind: FloodKind, hub: HubChild, until: number): Promise<Sent> {
  const going = () => Date.now() < until;
  const workers = (n: number, fn: (i: number) => Promise<void>) =>
    Promise.all(Array.from({ length: n }, (_, i) => fn(i)));
  return FLOOD[kind]({ hub, table: "main", going, workers });
}

function mb(kb: number): number {
  return Math.round(kb / 102.4) / 10;
}

async function measure(kind: FloodKind, hub: HubChild, host: HostProbe, seconds: number): Promise<FloodRow> {
  host.reset();
  let rssMax = rssKb(hub.proc.pid!);
  const watch = setInterval(() => {
    rssMax = Math.max(rssMax, rssKb(hub.proc.pid!));
  }, 200);
  const { sent, what } = await flood(kind, hub, Date.now() + seconds * 1000);
  // the host's last asks land
  await sleep(600);
  clearInterval(watch);
  return {
    flood: kind,
    seconds,
    sent,
    what,
    host: spread(host.times),
    hostLost: host.lost,
    login: spread(host.logins),
    loginRefused: host.loginRefused,
    rssMaxMb: mb(rssMax),
    rssEndMb: mb(rssKb(hub.proc.pid!)),
  };
}

export const floodBench: Bench = {
  name: "flood",
  summary: "each kind of flood a player on the WiFi can send, against a running hub during games",
  async run(o) {
    const seconds = o.seconds ?? 10;
    const kinds = (o.lists?.floods as FloodKind[] | undefined) ?? [...FLOODS];
    const say = (s: string) => process.stderr.write(`${s}\n`);
    const left = new Leftovers();
    const bail = () => left.clearNow();
    process.once("exit", bail);
    let fleet: Fleet | undefined;
    try {
      const hub = await startHub(left);
      const url = `mqtt://127.0.0.1:${hub.mqtt}`;
      say(`hub ${url}; pairing and calibrating 6 virtual guns…`);
      fleet = await Fleet.start({ url, table: "main", pin: hub.pin, guns: 6, seed: 7, tempo: 300 / 700 });
      await fleet.calibrate();
      const admin = await CommandClient.connect(url, {
        table: "main",
        clientId: "bench-admin",
        username: "host",
        password: hub.pin,
        auth: hub.pin,
      });
      const { token } = await admin.request("devices.enrol", { name: "bench host" });
      await admin.close();
      const host = await HostProbe.start(hub.mqtt, "main", token);
      // games all along, one after another, until the floods are over
      const results: GameResult[] = [];
      let playing = true;
      let gameError: Error | null = null;
      const games = (async () => {
        for (let seed = 1; playing; seed++) {
          results.push(
            await playGame({ url, table: "main", pin: hub.pin }, fleet!, {
              edition: "classic",
              players: 6,
              seed,
              speed: "fast",
            }),
          );
        }
      })().catch((e: Error) => {
        gameError = e;
      });
      const rows: FloodRow[] = [];
      for (const kind of kinds) {
        say(`flood: ${kind} (${seconds} s)…`);
        rows.push(await measure(kind, hub, host, seconds));
        if (gameError) break;
      }
      playing = false;
      await games;
      host.stop();
      const checked = checkLogs(hub.data, results);
      if (o.json) process.stdout.write(`${JSON.stringify({ rows, games: checked }, null, 2)}\n`);
      else process.stdout.write(`${table(rows, checked, gameError)}\n`);
      if (gameError) throw gameError;
    } finally {
      await fleet?.stop();
      process.off("exit", bail);
      await left.clear();
    }
  },
};

/** Every game played, replayed from the hub's log: the same result as the table showed. */
function checkLogs(data: string, results: GameResult[]): { games: number; same: number; decisions: number } {
  const db = openDb(dbPath(data, "main"), { readonly: true });
  try {
    const log = new GameLog(db);
    let same = 0;
    let decisions = 0;
    for (const r of results) {
      const g = log.game(r.game)!;
      const d = log.decisions(r.game);
      decisions += d.length;
      const rep = replay(rulesEngine, g.setup, d);
      if (rep.ok && JSON.stringify(rulesEngine.output(rep.value.state)) === JSON.stringify(r.result)) same++;
    }
    return { games: results.length, same, decisions };
  } finally {
    db.close();
  }
}

function table(rows: FloodRow[], g: { games: number; same: number; decisions: number }, err: Error | null): string {
  const f = (x: number) => (Number.isNaN(x) ? "-" : x < 10 ? x.toFixed(1) : Math.round(x).toString());
  const out = [
    "flood          sent                host p50/p99/max ms  lost  login max ms  refused  hub RSS max/end MB",
  ];
  for (const r of rows) {
    out.push(
      `${r.flood.padEnd(14)} ${`${r.sent} ${r.what}`.padEnd(19)} ${`${f(r.host.p50)}/${f(r.host.p99)}/${f(r.host.max)}`.padEnd(20)} ${String(r.hostLost).padEnd(5)} ${f(r.login.max).padEnd(13)} ${String(r.loginRefused).padEnd(8)} ${r.rssMaxMb}/${r.rssEndMb}`,
    );
  }
  out.push(
    `games played during the floods: ${g.games}, ${g.decisions} decisions; replayed from the hub's log to the same result: ${g.same}/${g.games}`,
  );
  if (err) out.push(`a game stopped: ${err.message}`);
  out.push(
    "host: its device at 127.0.0.200 asks game.state every 250 ms (lost: no answer in 5 s); login: its token from 127.0.0.201 each second.",
  );
  return out.join("\n");
}
