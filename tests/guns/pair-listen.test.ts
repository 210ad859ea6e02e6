// Pairing by pulling (pair.listen): the host lights a seat, and the next gun asking to be paired whose trigger
// is pulled gets that seat. A pending gun's pulls reach only the hub's pairing; its aim reaches nobody.
import { encAim, encTrig, gunTopic, tableTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import { pendingForward } from "../../hub/src/broker/acl.js";
import { connect, nextMessage, request, requestRaw, testHub, waitFor } from "../fakes/hub.js";

type TestHub = Awaited<ReturnType<typeof testHub>>;

describe("pair by pulling", () => {
  let hub: TestHub;
  const clients: MqttClient[] = [];
  const track = (c: MqttClient) => {
    clients.push(c);
    return c;
  };
  afterEach(async () => {
    for (const c of clients.splice(0)) c.end(true);
    await hub.stop();
  });

  it("two pending guns, the host listens for seat 2, one pulls: it is paired at seat 2, the other stays pending", async () => {
    hub = await testHub();
    const t = hub.table;
    const host = track(await connect(hub.urls.mqtt, { username: "host", password: hub.pin }));
    const viewer = track(await connect(hub.urls.mqtt));
    const g1 = track(await connect(hub.urls.mqtt, { username: "g1", password: "new", clientId: "g1" }));
    const g2 = track(await connect(hub.urls.mqtt, { username: "g2", password: "new", clientId: "g2" }));
    await nextMessage(host, gunTopic(t, "g2", "status"), (m) => m.paired === false);
    const seenAim: string[] = [];
    viewer.on("message", (topic) => {
      if (topic.endsWith("/aim")) seenAim.push(topic);
    });
    await viewer.subscribeAsync(gunTopic(t, "+", "aim"));

    // not listening: a pending gun's pull pairs nothing; its aim goes nowhere
    const trigBefore = hub.streams.stats.trig;
    let unpaired = hub.streams.stats.unpaired;
    g1.publish(gunTopic(t, "g1", "trig"), encTrig(1, "p", 1000, -1), { qos: 1 });
    g1.publish(gunTopic(t, "g1", "aim"), encAim(1000, 10, 0, 0, false), { qos: 0 });
    await waitFor(() => hub.streams.stats.unpaired > unpaired, 3000, "the hub to take the pending gun's pull");
    expect(((await request(host, t, "guns.list")).r as any).guns.every((g: any) => !g.paired)).toBe(true);

    // only the host may listen
    expect(await request(viewer, t, "pair.listen", { seat: 2 })).toMatchObject({ ok: false, e: { code: "forbidden" } });
    expect(await requestRaw(host, t, "pair.listen", {}, hub.pin)).toMatchObject({ ok: false, e: { code: "bad-args" } });
    const lit = nextMessage(host, tableTopic(t, "state"), (m) => m.pairing?.seat === 2);
    const listen = await request(host, t, "pair.listen", { seat: 2 }, hub.pin);
    expect(listen).toMatchObject({ ok: true, r: { listening: { seat: 2 } } });
    expect((listen.r as any).listening.until).toBeGreaterThan(Date.now() + 50_000);
    await lit;

    const key = nextMessage(g2, gunTopic(t, "g2", "cmd"), (m) => m.c === "key");
    const off = nextMessage(host, tableTopic(t, "state"), (m) => m.pairing === null);
    g2.publish(gunTopic(t, "g2", "trig"), encTrig(1, "p", 2000, -1), { qos: 1 });
    expect((await key).k).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    await off;
    const guns = ((await request(host, t, "guns.list")).r as any).guns;
    expect(guns).toEqual([
      expect.objectContaining({ id: "g1", paired: false, seat: null }),
      expect.objectContaining({ id: "g2", paired: true, seat: 2 }),
    ]);
    // a later pull of the other gun pairs nothing: listening ended with the first
    unpaired = hub.streams.stats.unpaired;
    g1.publish(gunTopic(t, "g1", "trig"), encTrig(2, "p", 3000, -1), { qos: 1 });
    await waitFor(() => hub.streams.stats.unpaired > unpaired, 3000, "the hub to take the second pull");
    expect(((await request(host, t, "guns.list")).r as any).guns[0]).toMatchObject({ id: "g1", paired: false });
    // the pending guns' pulls never reached the game's stream, their aim never reached a viewer
    expect(hub.streams.stats.trig).toBe(trigBefore);
    expect(seenAim).toEqual([]);

    // cancel
    await request(host, t, "pair.listen", { seat: 1 }, hub.pin);
    expect(await request(host, t, "pair.listen", { seat: null }, hub.pin)).toMatchObject({
      ok: true,
      r: { listening: null },
    });
    unpaired = hub.streams.stats.unpaired;
    g1.publish(gunTopic(t, "g1", "trig"), encTrig(3, "p", 4000, -1), { qos: 1 });
    await waitFor(() => hub.streams.stats.unpaired > unpaired, 3000, "the hub to take the third pull");
    expect(((await request(host, t, "guns.list")).r as any).guns[0]).toMatchObject({ id: "g1", paired: false });
  });
});

describe("the broker's rule for pending guns", () => {
  it("forwards a pending gun's pulls to the hub alone, and its aim to nobody", () => {
    expect(pendingForward("trig", { role: "hub" })).toBe(true);
    expect(pendingForward("trig", { role: "viewer" })).toBe(false);
    expect(pendingForward("trig", undefined)).toBe(false);
    expect(pendingForward("aim", { role: "hub" })).toBe(false);
    expect(pendingForward("info", { role: "viewer" })).toBe(true);
  });
});
