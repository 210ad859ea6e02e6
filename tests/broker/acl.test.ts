import { cmdTopic, gunTopic, playerTopic, tableTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closed, connect, connectRefused, granted, pairGun, request, sleep, testHub } from "../fakes/hub.js";

type TestHub = Awaited<ReturnType<typeof testHub>>;

describe("who may do what on the broker", () => {
  let hub: TestHub;
  let host: MqttClient;
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    hub = await testHub();
    host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    keyA = await pairGun(hub, host, "ga");
    keyB = await pairGun(hub, host, "gb");
  });
  afterAll(async () => {
    host.end(true);
    await hub.stop();
  });

  it("a gun publishing as another gun is refused and cut off; nothing reaches the other gun's topic", async () => {
    const watcher = await connect(hub.urls.mqtt);
    const seen: string[] = [];
    watcher.on("message", (t) => seen.push(t));
    await watcher.subscribeAsync(gunTopic(hub.table, "gb", "info"));
    const a = await connect(hub.urls.mqtt, { username: "ga", password: keyA, clientId: "ga" });
    const cut = closed(a);
    a.publish(gunTopic(hub.table, "gb", "info"), JSON.stringify({ v: 1, fw: "x", b: "b", i: "sim", up: 1 }), {
      qos: 1,
    });
    await cut;
    await sleep(100);
    expect(seen).toEqual([]);
    watcher.end(true);
  });

  it("a gun publishing on a table topic is cut off", async () => {
    const b = await connect(hub.urls.mqtt, { username: "gb", password: keyB, clientId: "gb" });
    const cut = closed(b);
    b.publish(tableTopic(hub.table, "state"), '{"v":1}', { qos: 1 });
    await cut;
  });

  it("a gun may not read another gun's commands (where its key would travel)", async () => {
    const a = await connect(hub.urls.mqtt, { username: "ga", password: keyA, clientId: "ga" });
    expect(await granted(a, gunTopic(hub.table, "gb", "cmd"))).toBe(128);
    expect(await granted(a, gunTopic(hub.table, "ga", "cmd"))).toBe(0);
    a.end(true);
  });

  it("a viewer reads public topics but not commands, keys or private views, and cannot publish", async () => {
    const v = await connect(hub.urls.mqtt);
    const ok = await v.subscribeAsync([gunTopic(hub.table, "+", "status"), tableTopic(hub.table, "state")]);
    expect(ok.map((g) => g.qos)).toEqual([0, 0]);
    for (const f of [
      `${hub.topicRoot}/#`,
      gunTopic(hub.table, "+", "cmd"),
      `${hub.topicRoot}/gun/+/#`,
      playerTopic(hub.table, 0, "view"),
      "#",
    ]) {
      expect(await granted(v, f), f).toBe(128);
    }
    const cut = closed(v);
    v.publish(gunTopic(hub.table, "ga", "cue"), '{"v":1,"n":1,"c":"win"}', { qos: 1 });
    await cut;
  });

  it("a viewer's command without the PIN is refused and changes nothing", async () => {
    const v = await connect(hub.urls.mqtt);
    const before = (await request(v, hub.table, "guns.list")).r;
    const r = await request(v, hub.table, "gun.forget", { gun: "ga" });
    expect(r).toMatchObject({ ok: false, e: { code: "forbidden" } });
    expect((await request(v, hub.table, "guns.list")).r).toEqual(before);
    // A client may only use its own request topic.
    const cut = closed(v);
    v.publish(cmdTopic(hub.table, "someone-else", "req"), '{"v":1,"id":"x","op":"guns.list"}', { qos: 1 });
    await cut;
  });

  it("a wrong PIN is refused, both on MQTT login and in a request", async () => {
    const err = await connectRefused(hub.urls.mqtt, { username: "host", password: "000000x" });
    expect(err.message).toMatch(/Bad username or password/i);
    const v = await connect(hub.urls.mqtt);
    const r = await request(v, hub.table, "gun.forget", { gun: "ga" }, "not-the-pin");
    expect(r).toMatchObject({ ok: false, e: { code: "auth" } });
    expect(((await request(v, hub.table, "guns.list")).r as any).guns.map((g: any) => g.id)).toContain("ga");
    v.end(true);
  });

  it("a seat token logs in as that seat only and reads only its own view", async () => {
    const tok = await request(host, hub.table, "seat.token", { seat: 1 }, hub.pin);
    const token = (tok.r as any).token as string;
    await connectRefused(hub.urls.mqtt, { username: "seat-2", password: token });
    const s = await connect(hub.urls.mqtt, { username: "seat-1", password: token });
    expect(await granted(s, playerTopic(hub.table, 1, "view"))).toBe(0);
    expect(await granted(s, playerTopic(hub.table, 2, "view"))).toBe(128);
    s.end(true);
  });

  it("over WebSocket, browsers connect as viewers under the same rules", async () => {
    const v = await connect(hub.urls.ws!);
    const r = await request(v, hub.table, "guns.list");
    expect(r.ok).toBe(true);
    expect(await granted(v, gunTopic(hub.table, "ga", "cmd"))).toBe(128);
    v.end(true);
  });

  it("an oversized packet cuts the connection before the broker buffers it", async () => {
    const a = await connect(hub.urls.mqtt, { username: "ga", password: keyA, clientId: "ga" });
    const cut = closed(a);
    a.publish(gunTopic(hub.table, "ga", "aim"), Buffer.alloc(300 * 1024, 32), { qos: 0 });
    await cut;
    // and a message over its kind's limit is refused too
    const b = await connect(hub.urls.mqtt, { username: "ga", password: keyA, clientId: "ga" });
    const cut2 = closed(b);
    b.publish(gunTopic(hub.table, "ga", "aim"), Buffer.alloc(200, 32), { qos: 0 });
    await cut2;
  });
});
