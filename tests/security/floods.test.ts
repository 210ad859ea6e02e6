// Attack: a player on the table's WiFi floods the hub to stop the game. Each flood is cut off where it enters: a packet
// larger than a request is refused from its header, over WebSocket as over TCP (a packet never finished held 100 MB
// per viewer); a keepalive is required (a silent session is dropped); one address holds at most so many connections
// and one client so many subscriptions; one address sends so many requests (the client is closed), and a flood of
// heavy reads is answered from a cache, behind the host's own lane. The host's device token gets in, and its requests
// are answered, all the while.
import { connect as tcp } from "node:net";
import { cmdTopic, type GameSetup, gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  CLIENT_PACKET_BYTES,
  CONNECTIONS_PER_SOURCE,
  REQUEST_BUDGET,
  SUBSCRIPTIONS_PER_CLIENT,
} from "../../hub/src/broker/limits.js";
import { closed, connect, granted, request, sleep, testHub, waitFor } from "../fakes/hub.js";
import { clientFrom, connectPacket, tcpConnect } from "../fakes/raw-mqtt.js";

const SETUP: GameSetup = { edition: "classic", players: ["Ann", "Bob", "Cid", "Dee"], seed: 7 };

/** A PUBLISH fixed header announcing `len` bytes to come. */
function publishHeader(len: number): Buffer {
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

/** Resolves with `p`, or fails saying what it waited for after `ms`. */
async function within(p: Promise<void>, ms: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, rej) => {
    timer = setTimeout(() => rej(new Error(`timed out (${ms} ms) waiting for ${what}`)), ms);
  });
  try {
    await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe("floods from the table's WiFi", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  let token: string;
  const open: MqttClient[] = [];
  beforeAll(async () => {
    hub = await testHub();
    const host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    token = ((await request(host, hub.table, "devices.enrol", { name: "the host's laptop" }, hub.pin)).r as any).token;
    expect((await request(host, hub.table, "game.new", SETUP, hub.pin)).ok).toBe(true);
    host.end(true);
  });
  afterAll(async () => {
    for (const c of open) c.end(true);
    await hub.stop();
  });

  it("a packet never finished is cut at a request's size, over WebSocket as over TCP", async () => {
    // over WebSocket: the packet spread over many small messages, each within ws's own limit
    const ws = new WebSocket(hub.urls.ws!, ["mqtt"], { localAddress: "127.0.0.71" });
    await new Promise<void>((res, rej) => {
      ws.once("open", () => res());
      ws.once("error", rej);
    });
    const shut = new Promise<void>((res) => ws.once("close", () => res()));
    ws.send(connectPacket({ clientId: "wsflood1" }));
    await new Promise<void>((res) => ws.once("message", () => res()));
    ws.send(publishHeader(100 * 1024 * 1024));
    let sent = 0;
    const chunk = Buffer.alloc(8 * 1024, 0x41);
    while (ws.readyState === WebSocket.OPEN && sent < 4 * 1024 * 1024) {
      ws.send(chunk);
      sent += chunk.length;
      await sleep(1);
    }
    await within(shut, 5000, "the hub to cut the WebSocket packet");
    expect(sent).toBeLessThan(1024 * 1024);

    // over TCP: the same, before the packet is finished
    const s = tcp({ host: "127.0.0.1", port: hub.ports.mqtt!, localAddress: "127.0.0.72" });
    await new Promise<void>((res) => s.once("connect", () => res()));
    const tcpShut = new Promise<void>((res) => s.once("close", () => res()));
    s.on("error", () => {});
    s.write(connectPacket({ clientId: "tcpflood1" }));
    s.write(publishHeader(CLIENT_PACKET_BYTES + 1));
    await within(tcpShut, 5000, "the hub to cut the TCP packet");
  });

  it("a keepalive of 0 (a session that may stay silent for ever) is refused", async () => {
    expect(await tcpConnect(hub.ports.mqtt!, { clientId: "ka0", keepalive: 0, from: "127.0.0.73" })).not.toBe(0);
    expect(await tcpConnect(hub.ports.mqtt!, { clientId: "ka1", keepalive: 3600, from: "127.0.0.73" })).not.toBe(0);
    expect(await tcpConnect(hub.ports.mqtt!, { clientId: "ka2", keepalive: 60, from: "127.0.0.73" })).toBe(0);
  });

  it("one address holds a bounded number of connections; another still gets in", async () => {
    const sockets = await Promise.all(
      Array.from({ length: CONNECTIONS_PER_SOURCE + 8 }, () => {
        const s = tcp({ host: "127.0.0.1", port: hub.ports.mqtt!, localAddress: "127.0.0.74" });
        s.on("error", () => {});
        return new Promise<{ s: typeof s; closed: boolean }>((res) => {
          const r = { s, closed: false };
          s.once("close", () => {
            r.closed = true;
          });
          s.once("connect", () => res(r));
        });
      }),
    );
    await sleep(300);
    expect(sockets.filter((r) => !r.closed).length).toBe(CONNECTIONS_PER_SOURCE);
    expect(await tcpConnect(hub.ports.mqtt!, { clientId: "neighbour", from: "127.0.0.75" })).toBe(0);
    for (const r of sockets) r.s.destroy();
    await sleep(200);
    expect(await tcpConnect(hub.ports.mqtt!, { clientId: "again", from: "127.0.0.74" })).toBe(0);
  });

  it("one client holds a bounded number of subscriptions", async () => {
    const c = await clientFrom("127.0.0.76", hub.ports.mqtt!, { clientId: "subflood" });
    open.push(c);
    const got: number[] = [];
    for (let i = 0; i < SUBSCRIPTIONS_PER_CLIENT + 5; i++)
      got.push(await granted(c, gunTopic(hub.table, `g${i}`, "status")));
    expect(got.slice(0, SUBSCRIPTIONS_PER_CLIENT).every((q) => q !== 128)).toBe(true);
    expect(got.slice(SUBSCRIPTIONS_PER_CLIENT)).toEqual([128, 128, 128, 128, 128]);
    // one given back makes room again
    await c.unsubscribeAsync(gunTopic(hub.table, "g0", "status"));
    expect(await granted(c, gunTopic(hub.table, "gx", "status"))).not.toBe(128);
  });

  it("a flood of heavy requests: the flooders are closed, the host's requests answered all along", async () => {
    let flooding = true;
    let sentByFlood = 0;
    let closedFlooders = 0;
    const flooder = async (addr: string) => {
      while (flooding) {
        let c: MqttClient;
        try {
          c = await clientFrom(addr, hub.ports.mqtt!, { clientId: `flood${addr.replaceAll(".", "")}` });
        } catch {
          await sleep(50);
          continue;
        }
        const gone = closed(c, 60_000).then(() => {
          closedFlooders++;
        });
        const topic = cmdTopic(hub.table, c.options.clientId!, "req");
        for (let i = 0; flooding && c.connected; i++) {
          const req = JSON.stringify({ v: 1, id: `f${i}`, op: "game.history", a: { game: 1 } });
          c.publish(topic, req, { qos: 0 }, () => {});
          sentByFlood++;
          if (i % 20 === 0) await sleep(0);
        }
        c.end(true);
        await gone.catch(() => {});
      }
    };
    const floods = ["127.0.0.81", "127.0.0.82", "127.0.0.83"].map(flooder);
    const host = await clientFrom("127.0.0.84", hub.ports.mqtt!, { username: "host", password: token });
    open.push(host);
    const took: number[] = [];
    try {
      await sleep(300);
      for (let i = 0; i < 20; i++) {
        const t0 = Date.now();
        const r = await request(host, hub.table, "game.state", undefined, token, 5000);
        expect(r.ok).toBe(true);
        took.push(Date.now() - t0);
        // the host's token logs in at once too
        expect(await tcpConnect(hub.ports.mqtt!, { clientId: `h${i}`, username: "host", password: token })).toBe(0);
      }
    } finally {
      flooding = false;
      await Promise.all(floods);
    }
    console.log(
      `request flood: ${sentByFlood} requests from 3 addresses, flooders closed ${closedFlooders} times; ` +
        `host requests: max ${Math.max(...took)} ms, median ${took.sort((a, b) => a - b)[10]} ms`,
    );
    expect(closedFlooders).toBeGreaterThan(0);
    // each address got at most its budget's worth through before being closed
    expect(sentByFlood).toBeGreaterThan(3 * REQUEST_BUDGET.burst);
    // a viewer keeping to a person's pace is never held back
    const viewer = await clientFrom("127.0.0.85", hub.ports.mqtt!, { clientId: "calmviewer" });
    open.push(viewer);
    for (let i = 0; i < 10; i++) {
      expect((await request(viewer, hub.table, "game.history", { game: 1 })).ok).toBe(true);
    }
    await waitFor(() => viewer.connected, 1000, "the calm viewer to stay");
  }, 120_000);
});
