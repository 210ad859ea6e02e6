// @real-time: guns in the vm against a broker, on the network's real timers
// The firmware's own MQTT client (inside the bundle) against aedes: QoS 1 retransmit when a PUBACK
// is lost, reconnect after the broker restarts (backing off, never more than 8 s between tries), the last will when
// the socket drops, and its greeting (info) only once it listens.
import { createServer, type Server, connect as tcp } from "node:net";
import { gunTopic } from "@cng/protocol";
import { afterEach, expect, it } from "vitest";
import { createVirtualGun, type VirtualGun } from "../../hub/src/sim/espruino/index.js";
import { hubClient, startBroker, type TestBroker } from "../fakes/broker.js";
import { sleep, waitFor } from "../fakes/hub.js";

const BOARD = "esp32-mpu6050";
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup() {
  const broker = await startBroker();
  const hub = await hubClient(broker.port);
  cleanup.push(
    () => broker.close(),
    () => hub.close(),
  );
  return { broker, hub };
}

function gun(broker: TestBroker, port = broker.port, id = "g1"): VirtualGun {
  broker.creds.set(id, "x");
  const g = createVirtualGun({
    board: BOARD,
    config: { id, secret: "x", table: "t1", hub: { host: "127.0.0.1", port } },
  });
  cleanup.push(() => g.stop());
  return g;
}

/** Split a byte stream into MQTT packets (header byte, whole packet). */
function packets(onPacket: (p: Buffer) => boolean): (b: Buffer) => Buffer {
  let buf = Buffer.alloc(0);
  return (b: Buffer) => {
    buf = Buffer.concat([buf, b]);
    const out: Buffer[] = [];
    for (;;) {
      let len = 0;
      let mul = 1;
      let i = 1;
      let c: number;
      do {
        if (i >= buf.length) return Buffer.concat(out);
        c = buf[i++];
        len += (c & 127) * mul;
        mul *= 128;
      } while (c & 128);
      if (buf.length < i + len) return Buffer.concat(out);
      const p = buf.subarray(0, i + len);
      buf = buf.subarray(i + len);
      if (onPacket(p)) out.push(p);
    }
  };
}

it("resends a QoS 1 publish (DUP set) until the PUBACK arrives", async () => {
  const { broker, hub } = await setup();
  const fromGun: Buffer[] = [];
  let dropped = 0;
  // a lossy radio between gun and broker: the first PUBACK never reaches the gun
  const proxy: Server = createServer((g) => {
    g.setNoDelay(true);
    const b = tcp({ host: "127.0.0.1", port: broker.port });
    b.setNoDelay(true);
    const up = packets((p) => {
      fromGun.push(Buffer.from(p));
      return true;
    });
    const down = packets((p) => {
      if (p[0] >> 4 === 4 && dropped === 0) {
        dropped++;
        return false;
      }
      return true;
    });
    g.on("data", (d) => b.write(up(d)));
    b.on("data", (d) => g.write(down(d)));
    g.on("close", () => b.destroy());
    b.on("close", () => g.destroy());
    g.on("error", () => {});
    b.on("error", () => {});
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  cleanup.push(() => new Promise<void>((r) => proxy.close(() => r())));
  const port = (proxy.address() as { port: number }).port;
  const g = gun(broker, port);
  const trigTopic = gunTopic("t1", "g1", "trig");
  // wait until the info (the first QoS 1 publish) went through and its PUBACK was the one dropped
  await waitFor(() => hub.got.some((m) => m.topic.endsWith("/info")), 5000, "info");
  const isInfo = (p: Buffer) => p[0] >> 4 === 3 && p.includes(Buffer.from("/info"));
  await waitFor(() => fromGun.filter(isInfo).length >= 2, 8000, "resent info");
  const infos = fromGun.filter(isInfo);
  expect(infos[0][0] & 8).toBe(0);
  expect(infos[1][0] & 8).toBe(8); // DUP
  expect(infos[1].subarray(1)).toEqual(infos[0].subarray(1)); // same packet id and payload
  // acknowledged now: no third copy
  await sleep(3500);
  expect(fromGun.filter(isInfo).length).toBe(2);
  // triggers still flow on the same session
  g.button.press();
  await waitFor(() => hub.got.some((m) => m.topic === trigTopic), 3000, "trigger");
}, 20000);

it("reconnects after the broker restarts and keeps what was sent while it was away", async () => {
  let broker: TestBroker = await startBroker();
  const port = broker.port;
  const g = gun(broker);
  let hub = await hubClient(port);
  await waitFor(() => hub.got.some((m) => m.topic.endsWith("/info")), 5000, "first info");
  await hub.close();
  await broker.close();
  // a pull while the broker is down is queued (QoS 1), not lost
  g.button.press();
  await sleep(300);
  broker = await startBroker(port, new Map([["g1", "x"]]));
  hub = await hubClient(port);
  cleanup.push(
    () => broker.close(),
    () => hub.close(),
  );
  const trig = await waitFor(() => hub.got.find((m) => m.topic.endsWith("/trig")), 10000, "queued trigger");
  expect(trig.msg).toMatchObject({ n: 1, k: "p" });
  await waitFor(() => hub.got.some((m) => m.topic.endsWith("/aim")), 3000, "aim after reconnect");
  expect(g.errors).toEqual([]);
}, 20000);

it("has its will delivered when the socket drops, then comes back", async () => {
  const { broker, hub } = await setup();
  const g = gun(broker);
  await waitFor(() => hub.got.some((m) => m.topic.endsWith("/info")), 5000, "info");
  const infos = () => hub.got.filter((m) => m.topic.endsWith("/info")).length;
  const before = infos();
  g.dropNetwork();
  const will = await waitFor(() => hub.got.find((m) => m.topic === gunTopic("t1", "g1", "will")), 3000, "will");
  expect(will.msg).toEqual({ v: 1, on: 0 });
  await waitFor(() => infos() > before, 5000, "info after reconnect");
});

it("is refused with wrong credentials and says why on the console", async () => {
  const { broker, hub } = await setup();
  const g = gun(broker);
  broker.creds.set("g1", "wrong");
  await waitFor(() => g.console.find((l) => l.includes("connack")), 3000, "refusal on the console");
  expect(hub.got.filter((m) => m.topic.includes("/gun/g1/"))).toEqual([]);
  expect(g.errors).toEqual([]);
});

it("says info only once the broker took its subscriptions: a command answering that info is not lost", async () => {
  const { broker, hub } = await setup();
  // a busy broker: aedes handles a SUBSCRIBE and the PUBLISH behind it side by side, and this one is slow to
  // take the subscription
  broker.aedes.authorizeSubscribe = (_client, sub, done) => setTimeout(() => done(null, sub), 400);
  gun(broker);
  const infoTopic = gunTopic("t1", "g1", "info");
  const info = await waitFor(() => hub.got.find((m) => m.topic === infoTopic), 5000, "info");
  await hub.c.publishAsync(gunTopic("t1", "g1", "cmd"), JSON.stringify({ v: 1, n: 1, c: "rate", hz: 20 }), { qos: 1 });
  const answer = await waitFor(
    () => hub.got.find((m) => m.topic === infoTopic && m.msg?.hz === 20),
    5000,
    "the info answering the rate",
  );
  expect(answer.at).toBeGreaterThanOrEqual(info.at);
});

it("backs off between tries while the hub is away, but never waits more than 8 s", async () => {
  // nothing listens on the port: every try fails at once; the gun's own clock runs only as the test moves it
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
  const port = (closed.address() as { port: number }).port;
  await new Promise<void>((r) => closed.close(() => r()));
  const g = createVirtualGun({
    board: BOARD,
    config: { id: "g1", secret: "x", table: "t1", hub: { host: "127.0.0.1", port } },
    clock: "manual",
  });
  cleanup.push(() => g.stop());
  const tries: number[] = [];
  for (let t = 0; t < 60_000; t += 100) {
    await g.advance(100);
    // the refusal comes from the real network: let it arrive before the gun's time moves on
    await sleep(2);
    while (tries.length < g.sockets.length) tries.push(t);
  }
  const gaps = tries.slice(1).map((t, i) => t - tries[i]!);
  expect(tries.length, `tries at ${tries.join(", ")} ms`).toBeGreaterThanOrEqual(8);
  expect(gaps[1]!, `tries at ${tries.join(", ")} ms`).toBeGreaterThan(gaps[0]!);
  expect(Math.max(...gaps), `tries at ${tries.join(", ")} ms`).toBeLessThanOrEqual(8100);
  expect(g.errors).toEqual([]);
}, 30_000);
