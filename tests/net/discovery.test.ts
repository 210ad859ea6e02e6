// Finding the hub on the local network (hub/src/net/discovery.ts): the query and reply texts, which address the hub
// names (the interface the query came in on), its own table only, garbage and floods, the settings, and the
// start-up lines that name the LAN addresses.
import { createHash, createHmac } from "node:crypto";
import { createSocket, type Socket } from "node:dgram";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, readEnv, resolveConfig } from "../../hub/src/config.js";
import { silentLogger } from "../../hub/src/log.js";
import {
  answerDiscovery,
  brokerAddressOf,
  type DiscoveryResponder,
  formatQuery,
  formatReply,
  hostFor,
  parseQuery,
  parseReply,
  startDiscovery,
} from "../../hub/src/net/discovery.js";
import { type LanAddress, lanUrls, localAddressFor } from "../../hub/src/net/lan.js";
import { lanLines } from "../../hub/src/net/lines.js";
import { broadcastSource } from "../fakes/broadcast.js";
import { sleep, testHub, waitFor } from "../fakes/hub.js";

const LAN: LanAddress[] = [
  { iface: "wlan0", address: "10.42.0.1", netmask: "255.255.255.0" },
  { iface: "eth0", address: "192.168.1.20", netmask: "255.255.0.0" },
];
/** the address a broadcast sent here comes back from (its LAN interface), if it comes back */
const lan = (await broadcastSource()) ?? undefined;

interface Asker {
  replies: { text: string; from: string }[];
  /** sends a datagram to the responder's port at `to` (default loopback) */
  ask: (t: string | Buffer, to?: string) => void;
  close: () => void;
}

/** A gun's side of it: a UDP socket that asks on `port` and collects the replies. */
async function gunSide(port: number): Promise<Asker> {
  const s: Socket = createSocket("udp4");
  const replies: { text: string; from: string }[] = [];
  s.on("message", (m, r) => replies.push({ text: m.toString("latin1"), from: r.address }));
  s.on("error", () => {});
  await new Promise<void>((r) => s.bind(0, "0.0.0.0", () => r()));
  s.setBroadcast(true);
  const a = {
    replies,
    ask: (t: string | Buffer, to = "127.0.0.1") =>
      s.send(typeof t === "string" ? Buffer.from(t, "latin1") : t, port, to),
    close: () => s.close(),
  };
  open.push(a);
  return a;
}

const open: { close: () => unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function responder(
  table = "t1",
  broker = { host: "0.0.0.0", port: 1883 },
  extra = {},
): Promise<DiscoveryResponder> {
  const d = await startDiscovery({ port: 0, table, broker: () => broker, log: silentLogger(), ...extra });
  open.push(d);
  return d;
}

describe("the texts", () => {
  it("a query names the table (and the gun, for the log); a reply names table, host and port", () => {
    expect(formatQuery("main", "g1")).toBe("CNG1? main g1");
    expect(parseQuery(Buffer.from("CNG1? main g1"))).toEqual({ table: "main", gun: "g1" });
    expect(parseQuery(Buffer.from("CNG1? main"))).toEqual({ table: "main", gun: undefined });
    expect(formatReply("main", "10.42.0.1", 1883)).toBe("CNG1! main 10.42.0.1 1883");
    expect(parseReply("CNG1! main 10.42.0.1 1883")).toEqual({ table: "main", host: "10.42.0.1", port: 1883 });
  });

  it("a query may carry its look's nonce; the reply to it then a proof: HMAC keyed by the gun's key hash", () => {
    const nonce = "0123456789abcdef";
    const keyHash = createHash("sha256").update("the-guns-key").digest("hex");
    expect(formatQuery("main", "g1", nonce)).toBe(`CNG1? main g1 ${nonce}`);
    expect(parseQuery(Buffer.from(`CNG1? main g1 ${nonce}`))).toEqual({ table: "main", gun: "g1", nonce });
    expect(parseQuery(Buffer.from("CNG1? main g1 0123"))).toBeNull();
    const proof = createHmac("sha256", keyHash).update(`CNG1! main 10.42.0.1 1883 ${nonce}`).digest("hex");
    expect(formatReply("main", "10.42.0.1", 1883, { keyHash, nonce })).toBe(`CNG1! main 10.42.0.1 1883 ${proof}`);
    expect(parseReply(`CNG1! main 10.42.0.1 1883 ${proof}`)).toEqual({
      table: "main",
      host: "10.42.0.1",
      port: 1883,
      proof,
    });
  });

  it("anything else is not a query", () => {
    for (const bad of [
      "",
      "CNG1?",
      "CNG1? ",
      "CNG1? Main",
      "CNG1? main g1 extra",
      "CNG1?  main",
      "CNG1! main 1.2.3.4 1883",
      "CNG2? main",
      `CNG1? ${"a".repeat(33)}`,
      "CNG1? main\n",
      "CNG1? main g\u00e9",
      "\u0000\u0001\u0002",
    ])
      expect(parseQuery(Buffer.from(bad, "latin1")), JSON.stringify(bad)).toBeNull();
    expect(parseQuery(Buffer.alloc(2000, 0x41))).toBeNull();
    expect(parseReply("CNG1! main 1.2.3.4 70000")).toBeNull();
    expect(parseReply("CNG1! main 1.2.3.4")).toBeNull();
  });
});

describe("which address the hub names", () => {
  it("the interface the query came in on; 127.0.0.1 only over loopback; a gun's own address never", () => {
    expect(localAddressFor("10.42.0.57", LAN)).toBe("10.42.0.1");
    expect(localAddressFor("192.168.7.9", LAN)).toBe("192.168.1.20");
    expect(localAddressFor("127.0.0.1", LAN)).toBe("127.0.0.1");
    // a client on this machine asking from one of its addresses: that address
    expect(localAddressFor("192.168.1.20", LAN)).toBe("192.168.1.20");
    expect(localAddressFor("172.16.0.5", LAN)).toBeNull();
  });

  it("per broker setting: every address, loopback only, or a named host", () => {
    expect(hostFor("0.0.0.0", "10.42.0.57", LAN)).toBe("10.42.0.1");
    // a hub bound to loopback cannot be reached from the network: no answer, except to this machine
    expect(hostFor("127.0.0.1", "10.42.0.57", LAN)).toBeNull();
    expect(hostFor("127.0.0.1", "10.42.0.1", LAN)).toBe("127.0.0.1");
    expect(hostFor("127.0.0.1", "127.0.0.1", LAN)).toBe("127.0.0.1");
    expect(hostFor("broker.local", "10.42.0.57", LAN)).toBe("broker.local");
    expect(hostFor("10.0.0.2", "10.42.0.57", LAN)).toBe("10.0.0.2");
  });

  it("an external broker: its address (one on this machine → this machine's LAN address); none for TLS/WebSocket", () => {
    expect(brokerAddressOf("mqtt://broker.local:1999")).toEqual({ host: "broker.local", port: 1999 });
    expect(brokerAddressOf("mqtt://10.0.0.2")).toEqual({ host: "10.0.0.2", port: 1883 });
    expect(brokerAddressOf("mqtt://127.0.0.1:1884")).toEqual({ host: "0.0.0.0", port: 1884 });
    expect(brokerAddressOf("mqtt://localhost:1884")).toEqual({ host: "0.0.0.0", port: 1884 });
    expect(brokerAddressOf("mqtts://broker.local:8883")).toBeNull();
    expect(brokerAddressOf("ws://broker.local:8080")).toBeNull();
  });
});

describe("the responder", () => {
  it("answers a query for its table with the broker's address, over loopback and by broadcast", async () => {
    const d = await responder("t1", { host: "0.0.0.0", port: 1884 });
    const g = await gunSide(d.port);
    g.ask("CNG1? t1 g1");
    await waitFor(() => g.replies.length === 1);
    expect(g.replies[0]).toEqual({ text: "CNG1! t1 127.0.0.1 1884", from: "127.0.0.1" });
    if (lan) {
      // a broadcast leaves through the LAN interface and comes back from its address: the hub names that address
      g.ask("CNG1? t1 g1", "255.255.255.255");
      await waitFor(() => g.replies.length === 2);
      expect(g.replies[1]!.text).toBe(`CNG1! t1 ${lan} 1884`);
    } else console.warn("SKIPPED: no LAN interface here, so no broadcast check");
    expect(d.stats).toMatchObject({ queries: lan ? 2 : 1, replies: lan ? 2 : 1, garbage: 0 });
  });

  it("proves its reply to a paired gun's query with a nonce; the same reply to another nonce proves nothing", async () => {
    const keyHash = createHash("sha256").update("the-guns-key").digest("hex");
    const d = await responder(
      "t1",
      { host: "0.0.0.0", port: 1884 },
      { keyHash: (g: string) => (g === "g1" ? keyHash : undefined) },
    );
    const g = await gunSide(d.port);
    g.ask("CNG1? t1 g1 00000000000000aa");
    g.ask("CNG1? t1 g1 00000000000000bb");
    // a gun the hub holds no key for, and a query without a nonce (firmware before proofs): the plain reply
    g.ask("CNG1? t1 g2 00000000000000aa");
    g.ask("CNG1? t1 g1");
    await waitFor(() => g.replies.length === 4);
    const proofOf = (n: string) => createHmac("sha256", keyHash).update(`CNG1! t1 127.0.0.1 1884 ${n}`).digest("hex");
    const texts = g.replies.map((r) => r.text).sort();
    expect(texts).toEqual(
      [
        `CNG1! t1 127.0.0.1 1884 ${proofOf("00000000000000aa")}`,
        `CNG1! t1 127.0.0.1 1884 ${proofOf("00000000000000bb")}`,
        "CNG1! t1 127.0.0.1 1884",
        "CNG1! t1 127.0.0.1 1884",
      ].sort(),
    );
    expect(proofOf("00000000000000aa")).not.toBe(proofOf("00000000000000bb"));
    expect(d.stats).toMatchObject({ replies: 4, proven: 2 });
  });

  it("says nothing to another table's query", async () => {
    const d = await responder("t1");
    const g = await gunSide(d.port);
    g.ask("CNG1? t2 g1");
    g.ask("CNG1? t11 g1");
    await sleep(300);
    expect(g.replies).toEqual([]);
    expect(d.stats.otherTable).toBe(2);
    g.ask("CNG1? t1 g1");
    await waitFor(() => g.replies.length === 1);
  });

  it("a hub of an external broker names that broker", async () => {
    const log = silentLogger();
    const d = (await answerDiscovery(0, "t1", brokerAddressOf("mqtt://broker.local:1999"), log))!;
    open.push(d);
    const g = await gunSide(d.port);
    g.ask("CNG1? t1 g1");
    await waitFor(() => g.replies.length === 1);
    expect(g.replies[0]!.text).toBe("CNG1! t1 broker.local 1999");
    // one guns cannot speak (TLS): no responder at all; off: none either
    expect(await answerDiscovery(0, "t1", brokerAddressOf("mqtts://broker.local:8883"), log)).toBeUndefined();
    expect(await answerDiscovery("off", "t1", { host: "0.0.0.0", port: 1 }, log)).toBeUndefined();
  });

  it("survives garbage: random bytes, huge and empty datagrams, near misses; then answers as before", async () => {
    const d = await responder("t1");
    const g = await gunSide(d.port);
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (let i = 0; i < 300; i++) {
      const n = rnd() % 120;
      const b = Buffer.alloc(n);
      for (let j = 0; j < n; j++) b[j] = rnd() & 255;
      // half of them start like a query, and end in a byte no query has
      if (i % 2 && n > 10) {
        Buffer.from("CNG1? t1 ").copy(b);
        b[n - 1] = 0xff;
      }
      g.ask(b);
    }
    g.ask(Buffer.alloc(0));
    g.ask(Buffer.alloc(60_000, 0x43));
    g.ask("CNG1? t1 g1\u0000");
    g.ask("CNG1? t1 g1 \n");
    await quiet(d);
    // the socket's buffer may drop some of a burst; most arrive
    expect(d.stats.received).toBeGreaterThan(100);
    expect(g.replies.map((r) => r.text)).toEqual([]);
    expect(d.stats.replies).toBe(0);
    g.ask("CNG1? t1 g1");
    await waitFor(() => g.replies.length === 1);
    expect(g.replies[0]!.text).toBe("CNG1! t1 127.0.0.1 1883");
  });

  it("under a flood, answers at most a few per second per sender, and still answers the others", async () => {
    const d = await responder("t1", { host: "0.0.0.0", port: 1883 }, { perSource: 5, total: 50 });
    const flood = await gunSide(d.port);
    const t0 = Date.now();
    for (let i = 0; i < 3000; i++) flood.ask("CNG1? t1 g1");
    await waitFor(() => d.stats.received > 0, 5000, "the flood");
    const took = (await quiet(d)) - t0;
    expect(d.stats.received).toBeGreaterThan(200);
    // one sender: five a second, in each one-second window the flood took (one or two; more on a busy machine)
    expect(flood.replies.length).toBeGreaterThanOrEqual(5);
    expect(flood.replies.length).toBeLessThanOrEqual(5 * (Math.ceil(took / 1000) + 1));
    expect(d.stats.limited).toBe(d.stats.queries - flood.replies.length);
    // a gun asking from another address is still answered at once (127.0.0.2 is loopback too)
    const other = createSocket("udp4");
    open.push(other);
    const got: string[] = [];
    other.on("message", (m) => got.push(m.toString()));
    await new Promise<void>((r) => other.bind(0, "127.0.0.2", () => r()));
    other.send("CNG1? t1 g2", d.port, "127.0.0.1");
    await waitFor(() => got.length === 1);
    expect(got[0]).toBe("CNG1! t1 127.0.0.1 1883");
    // and the flooder again after the window
    await sleep(1100);
    const n = flood.replies.length;
    flood.ask("CNG1? t1 g1");
    await waitFor(() => flood.replies.length === n + 1);
  });

  it("two tables' hubs on one machine share the port; each answers its own", async () => {
    const a = await responder("ta", { host: "0.0.0.0", port: 1001 });
    const b = await startDiscovery({
      port: a.port,
      table: "tb",
      broker: () => ({ host: "0.0.0.0", port: 1002 }),
      log: silentLogger(),
    });
    open.push(b);
    const g = await gunSide(a.port);
    // a broadcast reaches every socket on the port (a unicast, only one): loopback's own broadcast where there is no LAN
    const to = lan ? "255.255.255.255" : "127.255.255.255";
    g.ask("CNG1? tb g1", to);
    g.ask("CNG1? ta g1", to);
    await waitFor(() => g.replies.length === 2);
    expect(g.replies.map((r) => r.text.split(" ").slice(1, 2).concat(r.text.split(" ")[3]!)).sort()).toEqual([
      ["ta", "1001"],
      ["tb", "1002"],
    ]);
  });
});

describe("settings and start-up lines", () => {
  it("discovery: a port, 0 = any, off; from the config file, CNG_DISCOVERY or --discovery", () => {
    expect(resolveConfig({}).discovery).toBe(18830);
    expect(resolveConfig({ discovery: "off" }).discovery).toBe("off");
    expect(resolveConfig(readEnv({ CNG_DISCOVERY: "18999" })).discovery).toBe(18999);
    expect(resolveConfig(readEnv({ CNG_DISCOVERY: "off" })).discovery).toBe("off");
    expect(() => resolveConfig({ discovery: "no" as never })).toThrow(ConfigError);
    expect(() => resolveConfig({ discovery: 70000 })).toThrow(ConfigError);
  });

  it("the hub answers on its port and names its LAN addresses for phones and guns", async () => {
    const hub = await testHub({ bind: "0.0.0.0", discovery: 0, table: "disc" });
    open.push({ close: () => hub.stop() });
    expect(hub.ports.discovery).toBeGreaterThan(0);
    const g = await gunSide(hub.ports.discovery!);
    g.ask("CNG1? disc g1");
    await waitFor(() => g.replies.length === 1);
    expect(g.replies[0]!.text).toBe(`CNG1! disc 127.0.0.1 ${hub.ports.mqtt}`);
    const here = lanUrls("0.0.0.0", hub.ports.http, { host: "0.0.0.0", port: hub.ports.mqtt! });
    expect(hub.lan).toEqual(here);
    if (lan) {
      expect(hub.lan.dashboard).toContain(`http://${lan}:${hub.ports.http}/`);
      expect(hub.lan.guns).toContain(`${lan}:${hub.ports.mqtt}`);
    }
    // the dashboard knows them too: a host on 127.0.0.1 gives phones console links on the LAN address
    const facts = await (await fetch(new URL("/api/hub", hub.urls.dashboard))).json();
    expect(facts.lan).toEqual(hub.lan.dashboard);
    const lines = lanLines(hub).join("\n");
    if (lan) {
      expect(lines).toContain(`phones:      http://${lan}:${hub.ports.http}/`);
      expect(lines).toContain(`cng flash --hub ${lan} --hub-port ${hub.ports.mqtt}`);
      expect(lines).not.toMatch(/127\.0\.0\.1/);
    }
    expect(lines).toContain(`UDP ${hub.ports.discovery}`);
  });

  it("a hub with guns answers its own, not a stranger's (a table of the same name elsewhere), except while it listens to pair", async () => {
    const hub = await testHub({ bind: "0.0.0.0", discovery: 0, table: "disc2" });
    open.push({ close: () => hub.stop() });
    const { connect, nextMessage, request } = await import("../fakes/hub.js");
    const { gunTopic } = await import("@cng/protocol");
    const host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    open.push({ close: () => host.end(true) });
    const g = await gunSide(hub.ports.discovery!);
    // no gun yet: anyone is answered (a new table's guns find it)
    g.ask("CNG1? disc2 stranger");
    await waitFor(() => g.replies.length === 1);
    // one paired gun: it is answered, a stranger no more
    const mine = await connect(hub.urls.mqtt, { username: "mine", password: "x", clientId: "mine" });
    const key = nextMessage(mine, gunTopic("disc2", "mine", "cmd"), (m) => m.c === "key");
    await sleep(50);
    expect((await request(host, "disc2", "pair.accept", { gun: "mine" }, hub.pin)).ok).toBe(true);
    await key;
    mine.end(true);
    g.ask("CNG1? disc2 mine");
    await waitFor(() => g.replies.length === 2);
    g.ask("CNG1? disc2 stranger");
    g.ask("CNG1? disc2");
    await sleep(300);
    expect(g.replies.length).toBe(2);
    // the host listens for a pull to pair a new gun: strangers are answered again
    expect((await request(host, "disc2", "pair.listen", { seat: 1 }, hub.pin)).ok).toBe(true);
    g.ask("CNG1? disc2 stranger");
    await waitFor(() => g.replies.length === 3);
  });

  it("lines for a hub on loopback, with no network, or discovery off", () => {
    const base = { ports: { mqtt: 1883, http: 8080, discovery: null }, mode: "embedded" as const };
    const local = lanLines({
      ...base,
      config: { bind: "127.0.0.1" } as never,
      lan: lanUrls("127.0.0.1", 8080, { host: "127.0.0.1", port: 1883 }, LAN),
    });
    expect(local.join("\n")).toMatch(/127\.0\.0\.1 only/);
    expect(local.join("\n")).toMatch(/discovery: +off/);
    const none = lanLines({
      ...base,
      config: { bind: "0.0.0.0" } as never,
      lan: lanUrls("0.0.0.0", 8080, { host: "0.0.0.0", port: 1883 }, []),
    });
    expect(none.join("\n")).toMatch(/hotspot/);
    expect(lanUrls("0.0.0.0", 8080, { host: "0.0.0.0", port: 1883 }, LAN)).toEqual({
      dashboard: ["http://10.42.0.1:8080/", "http://192.168.1.20:8080/"],
      guns: ["10.42.0.1:1883", "192.168.1.20:1883"],
    });
    expect(lanUrls("0.0.0.0", 8080, { host: "broker.local", port: 1999 }, LAN).guns).toEqual(["broker.local:1999"]);
    // a container bridge is no network guns are on
    const docker = { iface: "docker0", address: "172.17.0.1", netmask: "255.255.0.0" };
    expect(lanUrls("0.0.0.0", 8080, { host: "0.0.0.0", port: 1883 }, [docker, ...LAN]).guns).toEqual([
      "10.42.0.1:1883",
      "192.168.1.20:1883",
    ]);
  });
});

/** Waits until nothing more arrives for 200 ms. */
/** Waits until nothing more arrives for 200 ms; resolves with when the last of it had come. */
async function quiet(d: DiscoveryResponder): Promise<number> {
  let n = -1;
  let last = Date.now();
  while (d.stats.received !== n) {
    if (n >= 0) last = Date.now();
    n = d.stats.received;
    await sleep(200);
  }
  return last;
}
