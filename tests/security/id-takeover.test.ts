// Attack: a player on the table's WiFi takes another client's id. MQTT hands an id to whoever connects with it last,
// closing the session that held it: a viewer with the hub's id threw the hub off its own broker (no host request
// answered, no count), one with a gun's id (`<table>-<gun>`) dropped that gun through a count, and one with a waiting
// gun's id took its pairing session and, at Accept, its key. Now the hub's id and a known gun's are kept for their
// logins, a session gives way only to the same login (or a stronger one than an anonymous holder), a waiting gun is
// bound to the device that first asked, and the streams count only what a gun sent with its key.
import { encAim, encTrig, gunTopic } from "@cng/protocol";
import type { IClientOptions, MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closed, connect, nextMessage, request, sleep, testHub, waitFor } from "../fakes/hub.js";
import { clientFrom } from "../fakes/raw-mqtt.js";

const INFO = JSON.stringify({ v: 1, fw: "0.1.0", b: "esp32-mpu6050", i: "mpu6050", up: 1 });

describe("a player who takes another client's id", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  let host: MqttClient;
  const open: MqttClient[] = [];
  beforeAll(async () => {
    hub = await testHub();
    host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    open.push(host);
  });
  afterAll(async () => {
    for (const c of open) c.end(true);
    await hub.stop();
  });

  /** A client from another device (address `from`): resolves connected, or with the broker's refusal. */
  const from = async (addr: string, o: IClientOptions): Promise<MqttClient | Error> => {
    try {
      const c = await clientFrom(addr, hub.ports.mqtt!, o);
      open.push(c);
      return c;
    } catch (e) {
      return e as Error;
    }
  };
  const refusal = (r: MqttClient | Error): string => (r instanceof Error ? r.message : "connected");

  it("cannot throw the hub off its broker: every host request is answered while a viewer keeps trying", async () => {
    expect(hub.clientId).toMatch(new RegExp(`^cng-hub-${hub.table}-[0-9a-f]{12}$`));
    let answered = 0;
    for (let i = 0; i < 10; i++) {
      for (const clientId of [hub.clientId, `cng-hub-${hub.table}`]) {
        expect(refusal(await from("127.0.0.31", { clientId })), clientId).toMatch(/identifier rejected/i);
      }
      // nor as a logged-in player: the id is the hub's login's alone
      const r = await request(host, hub.table, "guns.list", undefined, hub.pin, 3000).catch(() => null);
      if (r?.ok) answered++;
    }
    expect(answered).toBe(10);
  });

  it("cannot take a paired gun's id, while it is connected or away", async () => {
    const cid = `${hub.table}-pg1`;
    const pending = await clientFrom("127.0.0.32", hub.ports.mqtt!, { clientId: cid, username: "pg1", password: "f" });
    open.push(pending);
    const key = nextMessage(pending, gunTopic(hub.table, "pg1", "cmd"), (m) => m.c === "key");
    await pending.publishAsync(gunTopic(hub.table, "pg1", "info"), INFO, { qos: 1 });
    await waitFor(async () => (await request(host, hub.table, "pair.accept", { gun: "pg1", seat: 1 }, hub.pin)).ok);
    const k = ((await key) as { k: string }).k;
    pending.end(true);
    const gun = await clientFrom("127.0.0.32", hub.ports.mqtt!, { clientId: cid, username: "pg1", password: k });
    open.push(gun);
    let dropped = false;
    gun.on("close", () => {
      dropped = true;
    });
    // a viewer, and a viewer under the bridges' bare id
    for (const clientId of [cid, "pg1"]) {
      expect(refusal(await from("127.0.0.33", { clientId }))).toMatch(/identifier rejected/i);
    }
    // another gun's login (its own key) may not take it either
    expect(refusal(await from("127.0.0.33", { clientId: cid, username: "pg1", password: "wrong" }))).toMatch(
      /bad username or password/i,
    );
    await sleep(200);
    expect(dropped).toBe(false);
    // away: the id is still the gun's
    gun.end(true);
    await sleep(100);
    expect(refusal(await from("127.0.0.33", { clientId: cid }))).toMatch(/identifier rejected/i);
    const back = await clientFrom("127.0.0.32", hub.ports.mqtt!, { clientId: cid, username: "pg1", password: k });
    open.push(back);
    expect(back.connected).toBe(true);
  });

  it("cannot take a waiting gun's pairing session, nor its key", async () => {
    const cid = `${hub.table}-wg1`;
    const real = { clientId: cid, username: "wg1", password: "flashed-secret" };
    let gun = await clientFrom("127.0.0.41", hub.ports.mqtt!, real);
    open.push(gun);
    await gun.publishAsync(gunTopic(hub.table, "wg1", "info"), INFO, { qos: 1 });
    await nextMessage(host, gunTopic(hub.table, "wg1", "status"), (m) => m.paired === false && m.on);
    const warned = nextMessage(host, gunTopic(hub.table, "wg1", "status"), (m) =>
      m.warn?.some((w: string) => /another device/.test(w)),
    );
    // the same id from another device: with another secret, or the same one (read off the air)
    for (const password of ["guess", "flashed-secret"]) {
      expect(refusal(await from("127.0.0.42", { ...real, password }))).toMatch(/not authorized/i);
    }
    await warned;
    expect(gun.connected).toBe(true);
    // the real gun drops off the WiFi for a moment: the attacker still cannot claim its id
    gun.end(true);
    await sleep(100);
    expect(refusal(await from("127.0.0.42", real))).toMatch(/not authorized/i);
    gun = await clientFrom("127.0.0.41", hub.ports.mqtt!, real);
    open.push(gun);
    const key = nextMessage(gun, gunTopic(hub.table, "wg1", "cmd"), (m) => m.c === "key");
    await gun.publishAsync(gunTopic(hub.table, "wg1", "info"), INFO, { qos: 1 });
    await waitFor(async () => (await request(host, hub.table, "pair.accept", { gun: "wg1", seat: 3 }, hub.pin)).ok);
    const k = ((await key) as { k: string }).k;
    expect(k.length).toBeGreaterThanOrEqual(16);
    // once paired, only the key logs in as the gun
    expect(refusal(await from("127.0.0.42", real))).toMatch(/bad username or password/i);
  });

  it("a session still waiting after the pairing is not the gun: its aim and pulls count for no seat", async () => {
    const cid = `${hub.table}-wg2`;
    const waiting = await clientFrom("127.0.0.43", hub.ports.mqtt!, { clientId: cid, username: "wg2", password: "f" });
    open.push(waiting);
    await waiting.publishAsync(gunTopic(hub.table, "wg2", "info"), INFO, { qos: 1 });
    await waitFor(async () => (await request(host, hub.table, "pair.accept", { gun: "wg2", seat: 4 }, hub.pin)).ok);
    const before = { ...hub.streams.stats };
    // it does not take the key: it goes on speaking on its waiting session, under the now paired gun's topics
    for (let i = 0; i < 20; i++) {
      waiting.publish(gunTopic(hub.table, "wg2", "aim"), encAim(1000 + i * 20, 10, 0, 0, false), { qos: 0 });
    }
    await waiting.publishAsync(gunTopic(hub.table, "wg2", "trig"), encTrig(1, "p", 1500, -1), { qos: 1 });
    await waitFor(() => hub.streams.stats.forged >= before.forged + 21, 5000, "the forged stream to be counted");
    expect(hub.streams.stats.aim).toBe(before.aim);
    expect(hub.streams.stats.trig).toBe(before.trig);
  });

  it("cannot take a logged-in browser's id; a stronger login takes an anonymous one's", async () => {
    const cid = "webfeed01";
    const browser = await clientFrom("127.0.0.51", hub.ports.mqtt!, {
      clientId: cid,
      username: "host",
      password: hub.pin,
    });
    open.push(browser);
    expect(refusal(await from("127.0.0.52", { clientId: cid }))).toMatch(/identifier rejected/i);
    expect(browser.connected).toBe(true);
    // a viewer's id, from another address: refused too; from its own address: its own session back
    const viewer = await clientFrom("127.0.0.53", hub.ports.mqtt!, { clientId: "webview01" });
    open.push(viewer);
    expect(refusal(await from("127.0.0.54", { clientId: "webview01" }))).toMatch(/identifier rejected/i);
    const gone = closed(viewer);
    const again = await from("127.0.0.53", { clientId: "webview01" });
    expect(refusal(again)).toBe("connected");
    await gone;
    // the host logging in takes what an anonymous device held
    const taken = closed(again as MqttClient);
    expect(refusal(await from("127.0.0.55", { clientId: "webview01", username: "host", password: hub.pin }))).toBe(
      "connected",
    );
    await taken;
  });
});
