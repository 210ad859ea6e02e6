import { gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closed, connect, connectRefused, nextMessage, request, sleep, testHub } from "../fakes/hub.js";

type TestHub = Awaited<ReturnType<typeof testHub>>;

describe("gun pairing and presence", () => {
  let hub: TestHub;
  const clients: MqttClient[] = [];
  const track = (c: MqttClient) => {
    clients.push(c);
    return c;
  };

  beforeEach(async () => {
    hub = await testHub();
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.end(true);
    await hub.stop();
  });

  it("a gun accepted before it subscribed to its commands still gets its key: its next info brings it again", async () => {
    const table = hub.table;
    const host = track(await connect(hub.urls.mqtt, { username: "host", password: hub.pin }));
    // the gun is online from its connect; the host accepts at once, before the gun's subscription is in
    const pending = track(await connect(hub.urls.mqtt, { username: "g2", password: "anything", clientId: "g2" }));
    await nextMessage(host, gunTopic(table, "g2", "status"), (m) => m.paired === false && m.on === true);
    expect(await request(host, table, "pair.accept", { gun: "g2", seat: 1 }, hub.pin)).toMatchObject({ ok: true });
    await sleep(100);
    // then it subscribes and says its info, as the firmware does once connected
    const keyMsg = nextMessage(pending, gunTopic(table, "g2", "cmd"), (m) => m.c === "key");
    await pending.subscribeAsync(gunTopic(table, "g2", "cmd"), { qos: 1 });
    await pending.publishAsync(
      gunTopic(table, "g2", "info"),
      JSON.stringify({ v: 1, fw: "0.1.0", b: "esp32", i: "sim", bat: 80, mem: 4000, up: 1 }),
      { qos: 1, retain: true },
    );
    const key = await keyMsg;
    pending.end(true);
    // the key it got is the one that logs in
    const gun = track(await connect(hub.urls.mqtt, { username: "g2", password: key.k, clientId: "g2" }));
    expect(gun.connected).toBe(true);
  });

  it("a gun that hears its commands gets its key once: its info meanwhile (a rate's answer) does not bring it again", async () => {
    const table = hub.table;
    const host = track(await connect(hub.urls.mqtt, { username: "host", password: hub.pin }));
    const pending = track(await connect(hub.urls.mqtt, { username: "g3", password: "anything", clientId: "g3" }));
    const keys: unknown[] = [];
    pending.on("message", (topic, p) => {
      const m = JSON.parse(p.toString()) as { c?: string };
      if (topic === gunTopic(table, "g3", "cmd") && m.c === "key") keys.push(m);
    });
    await pending.subscribeAsync(gunTopic(table, "g3", "cmd"), { qos: 1 });
    const info = JSON.stringify({ v: 1, fw: "0.1.0", b: "esp32", i: "sim", bat: 80, mem: 4000, up: 1 });
    await pending.publishAsync(gunTopic(table, "g3", "info"), info, { qos: 1, retain: true });
    await nextMessage(host, gunTopic(table, "g3", "status"), (m) => m.paired === false && m.on === true);
    expect(await request(host, table, "pair.accept", { gun: "g3", seat: 2 }, hub.pin)).toMatchObject({ ok: true });
    // before it takes the key and logs in again, the gun answers the hub (a rate command) with its info
    await pending.publishAsync(gunTopic(table, "g3", "info"), info, { qos: 1, retain: true });
    await sleep(400);
    expect(keys).toHaveLength(1);
  });

  it("an unknown gun becomes a pairing request; once accepted it gets a key and must use it", async () => {
    const table = hub.table;
    const host = track(await connect(hub.urls.mqtt, { username: "host", password: hub.pin }));
    const pending = track(await connect(hub.urls.mqtt, { username: "g1", password: "anything", clientId: "g1" }));
    const keyMsg = nextMessage(pending, gunTopic(table, "g1", "cmd"), (m) => m.c === "key");

    const req = await nextMessage(host, gunTopic(table, "g1", "status"), (m) => m.paired === false);
    expect(req).toMatchObject({ v: 1, on: true, paired: false, why: "connect" });
    const list = await request(host, table, "guns.list");
    expect(list.ok).toBe(true);
    expect((list.r as any).guns).toEqual([expect.objectContaining({ id: "g1", paired: false, on: true })]);

    const acc = await request(host, table, "pair.accept", { gun: "g1", seat: 2 }, hub.pin);
    expect(acc).toMatchObject({ ok: true, r: { gun: "g1", seat: 2 } });
    const key = await keyMsg;
    expect(key.k).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    pending.end(true);

    // Now paired: the wrong secret is refused, the key works.
    const err = await connectRefused(hub.urls.mqtt, { username: "g1", password: "anything", clientId: "g1" });
    expect(err.message).toMatch(/Bad username or password|Not authorized/i);
    const statusOn = nextMessage(host, gunTopic(table, "g1", "status"), (m) => m.paired === true && m.on === true);
    const gun = track(await connect(hub.urls.mqtt, { username: "g1", password: key.k, clientId: "g1" }));
    expect(await statusOn).toMatchObject({ seat: 2, why: "connect" });

    // Info is shown in the status, with warnings for low battery.
    const withInfo = nextMessage(host, gunTopic(table, "g1", "status"), (m) => m.info !== undefined);
    await gun.publishAsync(
      gunTopic(table, "g1", "info"),
      JSON.stringify({ v: 1, fw: "0.1.0", b: "esp32", i: "sim", bat: 9, mem: 4000, up: 3 }),
      { qos: 1, retain: true },
    );
    const st = await withInfo;
    expect(st.info).toMatchObject({ fw: "0.1.0", bat: 9, mem: 4000 });
    expect(st.warn.join(" ")).toMatch(/low battery: 9%/);

    const off = nextMessage(host, gunTopic(table, "g1", "status"), (m) => m.on === false);
    gun.end();
    expect(await off).toMatchObject({ on: false, why: "disconnect", paired: true });
  });

  it("a gun that goes silent is marked offline by keepalive timeout, without a will", async () => {
    const host = track(await connect(hub.urls.mqtt, { username: "host", password: hub.pin }));
    // Pair g3, then connect it with its key and a 1 s keepalive, and make it go silent.
    const first = track(await connect(hub.urls.mqtt, { username: "g3", password: "x", clientId: "g3" }));
    const k = nextMessage(first, gunTopic(hub.table, "g3", "cmd"), (m) => m.c === "key");
    await request(host, hub.table, "pair.accept", { gun: "g3" }, hub.pin);
    const secretMsg = (await k).k as string;
    first.end(true);
    const silent = track(
      await connect(hub.urls.mqtt, { username: "g3", password: secretMsg, clientId: "g3", keepalive: 1 }),
    );
    // Stop the client's pings by cutting its keepalive manager without closing the socket.
    (silent as any).keepaliveManager?.destroy?.();
    (silent as any).pingTimer?.clear?.();
    const off = await nextMessage(host, gunTopic(hub.table, "g3", "status"), (m) => m.on === false, 6000);
    expect(off.why).toBe("timeout");
  });

  it("a gun speaking an old protocol version is flagged", async () => {
    const host = track(await connect(hub.urls.mqtt, { username: "host", password: hub.pin }));
    const g = track(await connect(hub.urls.mqtt, { username: "old1", password: "x", clientId: "old1" }));
    const st = nextMessage(host, gunTopic(hub.table, "old1", "status"), (m) =>
      (m.warn ?? []).some((w: string) => /protocol version 0/.test(w)),
    );
    await g.publishAsync(gunTopic(hub.table, "old1", "info"), JSON.stringify({ v: 0, fw: "0.0.1" }), { qos: 1 });
    expect((await st).warn.join(" ")).toMatch(/update its firmware/);
  });

  it("pair.reject drops the request and closes the gun; gun.forget removes a paired gun", async () => {
    const host = track(await connect(hub.urls.mqtt, { username: "host", password: hub.pin }));
    const g = track(await connect(hub.urls.mqtt, { username: "r1", password: "x", clientId: "r1" }));
    await sleep(50);
    const gone = closed(g);
    expect(await request(host, hub.table, "pair.reject", { gun: "r1" }, hub.pin)).toMatchObject({ ok: true });
    await gone;
    expect(((await request(host, hub.table, "guns.list")).r as any).guns).toEqual([]);

    const f = track(await connect(hub.urls.mqtt, { username: "f1", password: "x", clientId: "f1" }));
    const k = nextMessage(f, gunTopic(hub.table, "f1", "cmd"), (m) => m.c === "key");
    await request(host, hub.table, "pair.accept", { gun: "f1" }, hub.pin);
    const key = (await k).k;
    f.end(true);
    const paired = track(await connect(hub.urls.mqtt, { username: "f1", password: key, clientId: "f1" }));
    const bye = closed(paired);
    expect(await request(host, hub.table, "gun.forget", { gun: "f1" }, hub.pin)).toMatchObject({ ok: true });
    await bye;
    // Forgotten: its old key is no longer a credential; it may only ask to pair again.
    const again = track(await connect(hub.urls.mqtt, { username: "f1", password: key, clientId: "f1" }));
    const st = await nextMessage(host, gunTopic(hub.table, "f1", "status"), (m) => m.on === true);
    expect(st.paired).toBe(false);
    again.end(true);
  });
});
