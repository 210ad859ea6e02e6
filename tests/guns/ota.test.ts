// The hub's side of updates over the air against guns played by the test over MQTT, answering as the firmware does
// or as it misbehaves: a late answer to `begin` must not start a second chain of chunks, a gun that answers without
// moving ends its update, a gun already running the bundle (its `ok` lost) is done, and no game starts mid-update.
import { decodeOtaChunk, gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, pairGun, request, sleep, testHub } from "../fakes/hub.js";

type TestHub = Awaited<ReturnType<typeof testHub>>;

const code = `(function(){var FW="0.2.0";${"y".repeat(5000)}})()`;
const bundle = { board: "esp32-mpu6050", fw: "0.2.0", code };

/** A paired gun over MQTT: `answer` decides what it says to each `ota` message (begin JSON or chunk). */
async function scriptedGun(
  hub: TestHub,
  id: string,
  key: string,
  answer: (msg: string, say: (leaf: "otas" | "err", body: object) => void) => void,
): Promise<MqttClient> {
  const g = await connect(hub.urls.mqtt, { username: id, password: key, clientId: `${hub.table}-${id}` });
  const say = (leaf: "otas" | "err", body: object) => {
    if (g.connected) void g.publishAsync(gunTopic(hub.table, id, leaf), JSON.stringify({ v: 1, ...body }), { qos: 1 });
  };
  g.on("message", (_t, p) => answer(p.toString("latin1"), say));
  await g.subscribeAsync(gunTopic(hub.table, id, "ota"), { qos: 1 });
  await g.publishAsync(
    gunTopic(hub.table, id, "info"),
    JSON.stringify({ v: 1, fw: "0.1.0", b: "esp32-mpu6050", i: "mpu6050", bat: 90, up: 3, hz: 5 }),
    { qos: 1, retain: true },
  );
  await sleep(100);
  return g;
}

describe("the hub's side of updates over the air", () => {
  let hub: TestHub;
  let host: MqttClient;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    hub = await testHub({ ota: { ackMs: 300, maxSilence: 5 } });
    host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    for (const id of ["g1", "g2", "g3", "g4"]) keys[id] = await pairGun(hub, host, id);
  });
  afterAll(async () => {
    host.end(true);
    await hub.stop();
  });

  it("a late answer to the first question does not double every chunk", async () => {
    let held = 0;
    const chunks: number[] = [];
    let first = true;
    const g = await scriptedGun(hub, "g1", keys.g1, (msg, say) => {
      // a slow gun: each answer leaves 200 ms after the question, saying where it stood then
      const o = held;
      if (msg.startsWith("{")) {
        // and the first answer comes after the hub has asked again (erasing and compacting flash can take seconds)
        const late = first;
        first = false;
        setTimeout(() => say("otas", { o, n: code.length }), late ? 450 : 200);
        return;
      }
      const c = decodeOtaChunk(msg);
      if (!c.ok) throw new Error(c.error.message);
      chunks.push(c.value.o);
      if (c.value.o === held) held += c.value.data.length;
      const now = held;
      setTimeout(
        () => say("otas", now === code.length ? { o: now, n: code.length, ok: 1 } : { o: now, n: code.length }),
        200,
      );
    });
    const p = hub.ota.update("g1", bundle);
    await new Promise<void>((r) => {
      const t = setInterval(() => {
        if (hub.ota.progress("g1")?.stage !== "sending") {
          clearInterval(t);
          r();
        }
      }, 10);
    });
    expect(hub.ota.progress("g1")?.stage).toBe("restarting");
    // each chunk once: 5 of them, no second chain
    expect(chunks).toEqual([0, 1024, 2048, 3072, 4096]);
    expect(hub.ota.bytesSent("g1")).toBe(code.length);
    // back, running it
    await g.publishAsync(
      gunTopic(hub.table, "g1", "info"),
      JSON.stringify({ v: 1, fw: "0.2.0", b: "esp32-mpu6050", i: "mpu6050", bat: 90, up: 1, hz: 5 }),
      { qos: 1, retain: true },
    );
    expect(await p).toMatchObject({ stage: "done", fw: "0.2.0" });
    g.end(true);
  }, 20_000);

  it("a gun that answers without ever moving ends its update after a few questions", async () => {
    const g = await scriptedGun(hub, "g2", keys.g2, (_msg, say) => say("otas", { o: code.length, n: code.length }));
    const p = await hub.ota.update("g2", bundle);
    expect(p).toMatchObject({ stage: "failed", why: expect.stringMatching(/does not answer updates/) });
    g.end(true);
  }, 20_000);

  it("a gun already running the bundle (the restart's ok was lost) is done", async () => {
    const g = await scriptedGun(hub, "g3", keys.g3, (_msg, say) =>
      say("err", { e: "ota", m: "already runs this bundle" }),
    );
    expect(await hub.ota.update("g3", bundle)).toMatchObject({ stage: "done", fw: "0.2.0" });
    g.end(true);
  });

  it("no game starts while a gun is being updated", async () => {
    const g = await scriptedGun(hub, "g4", keys.g4, () => {});
    const p = hub.ota.update("g4", bundle);
    const r = await request(
      host,
      hub.table,
      "game.new",
      { edition: "classic", players: ["A", "B", "C", "D"], seed: 1 },
      hub.pin,
    );
    expect(r).toMatchObject({ ok: false, e: { code: "updating", msg: expect.stringMatching(/g4/) } });
    expect((await p).stage).toBe("failed");
    expect(
      await request(
        host,
        hub.table,
        "game.new",
        { edition: "classic", players: ["A", "B", "C", "D"], seed: 1 },
        hub.pin,
      ),
    ).toMatchObject({ ok: true });
    g.end(true);
  }, 20_000);
});
