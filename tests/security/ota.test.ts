// Updates over the air, seen by an attacker: only the hub may publish on a gun's `ota` topic (a gun, the host, a
// viewer or a seat cannot push firmware), a gun cannot answer for another gun's update, only the host PIN starts
// one, and a gun that floods its `otas` with garbage neither crashes the hub nor moves its update.
import { gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closed, connect, granted, nextMessage, pairGun, request, sleep, testHub } from "../fakes/hub.js";

type TestHub = Awaited<ReturnType<typeof testHub>>;

/** A paired gun over plain MQTT that says it is an esp32-mpu6050 on 0.1.0. */
async function gunOnline(hub: TestHub, id: string, key: string): Promise<MqttClient> {
  const g = await connect(hub.urls.mqtt, { username: id, password: key, clientId: `${hub.table}-${id}` });
  await g.publishAsync(
    gunTopic(hub.table, id, "info"),
    JSON.stringify({ v: 1, fw: "0.1.0", b: "esp32-mpu6050", i: "mpu6050", bat: 90, up: 3, hz: 5 }),
    { qos: 1, retain: true },
  );
  return g;
}

describe("updates over the air against an attacker", () => {
  let hub: TestHub;
  let host: MqttClient;
  const keys: Record<string, string> = {};
  const code = `(function(){var FW="0.2.0";${"x".repeat(3000)}})()`;

  beforeAll(async () => {
    hub = await testHub({
      ota: { ackMs: 300, maxSilence: 3, awayMs: 1500 },
      otaBundle: (board) => ({ board, fw: "0.2.0", code }),
    });
    host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    for (const id of ["ga", "gb"]) keys[id] = await pairGun(hub, host, id);
  });
  afterAll(async () => {
    host.end(true);
    await hub.stop();
  });

  it("a gun may read its own ota topic but publish on no ota topic, its own included", async () => {
    const ga = await gunOnline(hub, "ga", keys.ga);
    expect(await granted(ga, gunTopic(hub.table, "ga", "ota"))).toBe(0);
    expect(await granted(ga, gunTopic(hub.table, "gb", "ota"))).toBe(128);
    const cut = closed(ga);
    ga.publish(gunTopic(hub.table, "gb", "ota"), "0 0\nevil", { qos: 1 });
    await cut;
    const ga2 = await gunOnline(hub, "ga", keys.ga);
    const cut2 = closed(ga2);
    ga2.publish(gunTopic(hub.table, "ga", "ota"), '{"v":1,"c":"begin"}', { qos: 1 });
    await cut2;
  });

  it("neither the host nor a viewer can publish firmware; a viewer cannot start an update, a wrong PIN neither", async () => {
    for (const c of [host, await connect(hub.urls.mqtt, {})]) {
      const probe = await connect(hub.urls.mqtt, c === host ? { username: "host", password: hub.pin } : {});
      const cut = closed(probe);
      probe.publish(gunTopic(hub.table, "ga", "ota"), "0 1\nx", { qos: 1 });
      await cut;
    }
    const viewer = await connect(hub.urls.mqtt, {});
    expect(await request(viewer, hub.table, "guns.update", { guns: "all" })).toMatchObject({
      ok: false,
      e: { code: "forbidden" },
    });
    expect(await request(viewer, hub.table, "guns.update", { guns: "all" }, "0000")).toMatchObject({ ok: false });
    viewer.end(true);
    expect(hub.ota.progress("ga")).toBeUndefined();
  });

  it("a gun cannot answer for another gun's update, and garbage on its own otas changes nothing", async () => {
    const ga = await gunOnline(hub, "ga", keys.ga);
    const gb = await gunOnline(hub, "gb", keys.gb);
    await sleep(100);
    // ga is being updated; it stays silent (what the hub sees of a gun that lost its network mid-way)
    const begun = nextMessage(ga, gunTopic(hub.table, "ga", "ota"), (m) => m.c === "begin");
    await ga.subscribeAsync(gunTopic(hub.table, "ga", "ota"));
    const r = await request(host, hub.table, "guns.update", { guns: ["ga"] }, hub.pin);
    expect(r).toMatchObject({ ok: true, r: { started: [{ gun: "ga", fw: "0.2.0", from: "0.1.0" }] } });
    expect(await begun).toMatchObject({ b: "esp32-mpu6050", fw: "0.2.0", n: code.length });
    // gb claims ga's update is complete: refused at the broker, gb is cut off
    const cut = closed(gb);
    gb.publish(gunTopic(hub.table, "ga", "otas"), JSON.stringify({ v: 1, o: code.length, n: code.length, ok: 1 }), {
      qos: 1,
    });
    await cut;
    // ga floods its own otas with garbage: wrong JSON, wrong sizes, offsets past the end, another bundle's length
    for (const p of [
      "nope",
      "{}",
      '{"v":1,"o":99999999,"n":1}',
      `{"v":1,"o":${code.length + 1},"n":${code.length}}`,
      '{"v":1,"o":0,"n":5,"ok":1}',
      "x".repeat(60),
    ])
      for (let i = 0; i < 20; i++) ga.publish(gunTopic(hub.table, "ga", "otas"), p, { qos: 0 });
    await sleep(200);
    expect(hub.ota.progress("ga")).toMatchObject({ stage: "sending", o: 0 });
    // the hub is fine and answers
    expect((await request(host, hub.table, "guns.list")).ok).toBe(true);
    // a gun that never answers: the update ends, said plainly
    await new Promise<void>((resolve) => {
      const t = setInterval(() => {
        if (hub.ota.progress("ga")?.stage === "failed") {
          clearInterval(t);
          resolve();
        }
      }, 20);
    });
    expect(hub.ota.progress("ga")?.why).toMatch(/does not answer updates/);
    ga.end(true);
  });

  it("a gun that goes away mid-update and stays away: the update is given up, not waited for forever", async () => {
    const gb = await gunOnline(hub, "gb", keys.gb);
    await sleep(100);
    const begun = nextMessage(gb, gunTopic(hub.table, "gb", "ota"), (m) => m.c === "begin");
    await gb.subscribeAsync(gunTopic(hub.table, "gb", "ota"));
    const done = hub.ota.update("gb", { board: "esp32-mpu6050", fw: "0.2.0", code });
    await begun;
    gb.end(true);
    const p = await done;
    expect(p).toMatchObject({ stage: "failed", why: "the gun went away mid-update for 2 s" });
  });
});
