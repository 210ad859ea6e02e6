// Attack: a twin of a gun waiting to be paired. A second connection with the same gun id (any password, another
// client id) subscribed to that gun's `cmd` and took the key at pair.accept, unseen. Now one device waits per gun id:
// a twin is refused and the host is told; the key reaches the device the host accepted; after pairing only the key
// logs in.
import { gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, connectRefused, nextMessage, request, sleep, testHub } from "../fakes/hub.js";

describe("a twin of a gun waiting to be paired", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  const open: MqttClient[] = [];
  beforeAll(async () => {
    hub = await testHub();
  });
  afterAll(async () => {
    for (const c of open) c.end(true);
    await hub.stop();
  });

  it("is refused, the host is told, and only the real gun gets the key", async () => {
    const info = JSON.stringify({ v: 1, fw: "0.1.0", b: "esp32-mpu6050", i: "mpu6050", up: 1 });
    const real = await connect(hub.urls.mqtt, { username: "tg1", password: "factory", clientId: `${hub.table}-tg1` });
    open.push(real);
    const keys: string[] = [];
    real.on("message", (t, p) => t.endsWith("/cmd") && keys.push(p.toString()));
    await real.subscribeAsync(gunTopic(hub.table, "tg1", "cmd"), { qos: 1 });
    await real.publishAsync(gunTopic(hub.table, "tg1", "info"), info, { qos: 1, retain: true });
    const host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    open.push(host);
    await nextMessage(host, gunTopic(hub.table, "tg1", "status"), (m) => m.paired === false && m.on);

    // the twin: same gun id, another client id, any password
    const warned = nextMessage(host, gunTopic(hub.table, "tg1", "status"), (m) =>
      m.warn?.some((w: string) => /another device/.test(w)),
    );
    const e = await connectRefused(hub.urls.mqtt, { username: "tg1", password: "whatever", clientId: "twin-1" });
    expect(e.message).toMatch(/Not authorized/i);
    const st = await warned;
    expect(st).toMatchObject({ paired: false, on: true });

    // the host's list still shows one gun, and the key goes to the real one alone
    const list = (await request(host, hub.table, "guns.list", undefined, hub.pin)).r as { guns: { id: string }[] };
    expect(list.guns.filter((g) => g.id === "tg1").length).toBe(1);
    expect(await request(host, hub.table, "pair.accept", { gun: "tg1", seat: 2 }, hub.pin)).toMatchObject({ ok: true });
    await sleep(200);
    expect(keys.length).toBe(1);
    const key = JSON.parse(keys[0]!).k as string;
    expect(key.length).toBeGreaterThanOrEqual(16);
    real.end(true);

    // after pairing only the key logs in, whatever the client id
    for (const password of ["factory", "whatever", ""]) {
      await connectRefused(hub.urls.mqtt, { username: "tg1", password, clientId: `${hub.table}-tg1` });
    }
    const back = await connect(hub.urls.mqtt, { username: "tg1", password: key, clientId: `${hub.table}-tg1` });
    open.push(back);
    expect(back.connected).toBe(true);
  });

  it("the same device coming back (its own client id) takes its place, it is not a twin", async () => {
    const id = { username: "tg2", password: "factory", clientId: `${hub.table}-tg2` };
    const first = await connect(hub.urls.mqtt, id);
    open.push(first);
    const closed = new Promise<void>((r) => first.once("close", () => r()));
    const again = await connect(hub.urls.mqtt, id);
    open.push(again);
    await closed;
    expect(again.connected).toBe(true);
  });
});
