// A real aedes broker on a free port, and a hub-side mqtt.js client that records what guns publish.
import { createServer, type Server, type Socket } from "node:net";
import { gunTopic } from "@cng/protocol";
import { Aedes } from "aedes";
import mqtt, { type MqttClient } from "mqtt";
import { GunClock } from "../../hub/src/aim/index.js";

export interface TestBroker {
  aedes: Aedes;
  port: number;
  server: Server;
  /** username → password accepted */
  creds: Map<string, string>;
  close(): Promise<void>;
}

/** `anyone`: every username and password is let in (`creds` unused). */
export async function startBroker(port = 0, creds = new Map<string, string>(), anyone = false): Promise<TestBroker> {
  const aedes = await Aedes.createBroker();
  aedes.authenticate = (client, user, pass, done) => {
    if (!user || anyone || client.id.startsWith("hub")) return done(null, true);
    const ok = creds.get(user) === pass?.toString();
    done(ok ? null : Object.assign(new Error("bad credentials"), { returnCode: 4 }), ok);
  };
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    s.setNoDelay(true);
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    aedes.handle(s);
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  const addr = server.address();
  return {
    aedes,
    port: typeof addr === "object" && addr ? addr.port : 0,
    server,
    creds,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      await new Promise<void>((r) => aedes.close(() => r()));
    },
  };
}

export interface Received {
  topic: string;
  text: string;
  msg: any;
  retain: boolean;
  at: number;
}

/** A hub-side client subscribed to everything under cng/. */
export async function hubClient(port: number): Promise<{ c: MqttClient; got: Received[]; close(): Promise<void> }> {
  const got: Received[] = [];
  const c = mqtt.connect({ host: "127.0.0.1", port, clientId: `hub-${Math.random().toString(16).slice(2)}` });
  c.on("connect", () => (c.stream as Socket).setNoDelay?.(true));
  c.on("message", (topic, payload, packet) => {
    const text = payload.toString("latin1");
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      msg = undefined;
    }
    got.push({ topic, text, msg, retain: packet.retain, at: Date.now() });
  });
  await c.subscribeAsync("cng/#", { qos: 1 });
  return { c, got, close: () => c.endAsync(true) };
}

/**
 * The hub's part of the clock sync, as hub/src/guns/streams.ts does it: each gun's offset is the fastest of its
 * samples (aim and probes, `GunClock`), and every probe is answered with a `time` carrying it.
 */
export function answerSyncs(c: MqttClient, table: string, now: () => number = Date.now): void {
  const clocks = new Map<string, GunClock>();
  const clock = (id: string) => {
    const k = clocks.get(id) ?? new GunClock();
    clocks.set(id, k);
    return k;
  };
  let n = 1e6;
  c.on("message", (topic, payload) => {
    const m = /gun\/([\w-]+)\/(sync|aim)$/.exec(topic);
    if (!m || !topic.startsWith(`cng/v1/${table}/`)) return;
    const t = JSON.parse(payload.toString()).t as number;
    const h = Math.floor(now());
    const k = clock(m[1]!);
    k.observe(t, h);
    if (m[2] === "sync")
      void c.publishAsync(
        gunTopic(table, m[1]!, "cmd"),
        JSON.stringify({ v: 1, n: ++n, c: "time", g: t, h, o: k.offset }),
        { qos: 1 },
      );
  });
}
