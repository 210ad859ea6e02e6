// @real-time: the PIN's guessing budget, counted on the wall clock
// Attack: spending what the whole table shares. The hub-wide PIN budget was spent by any wrong secret — wrong gun keys
// too (a gun flashed again while still paired spends it on every reconnect) — and once spent it held the host back at
// the laptop itself; and the 16 pairing slots filled from 8 addresses, keeping a real new gun out. Now only wrong PINs
// spend the hub's budget, the laptop's own PIN is checked whatever others did, and a full set of slots makes an
// address waiting with several guns give one up.
import { gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HUB_LIMITS } from "../../hub/src/access/limiter.js";
import { PENDING_PER_SOURCE } from "../../hub/src/broker/pending-door.js";
import { MAX_PENDING } from "../../hub/src/guns/registry.js";
import { connect, nextMessage, request, sleep, testHub, waitFor } from "../fakes/hub.js";
import { clientFrom, tcpConnect } from "../fakes/raw-mqtt.js";

const INFO = JSON.stringify({ v: 1, fw: "0.1.0", b: "esp32-mpu6050", i: "mpu6050", up: 1 });

describe("what the table shares", () => {
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

  it("wrong gun keys do not spend the hub's PIN budget", async () => {
    const g = await clientFrom("127.0.1.1", hub.ports.mqtt!, {
      clientId: `${hub.table}-kg`,
      username: "kg",
      password: "f",
    });
    const key = nextMessage(g, gunTopic(hub.table, "kg", "cmd"), (m) => m.c === "key");
    await g.publishAsync(gunTopic(hub.table, "kg", "info"), INFO, { qos: 1 });
    await waitFor(async () => (await request(host, hub.table, "pair.accept", { gun: "kg", seat: 0 }, hub.pin)).ok);
    await key;
    g.end(true);
    for (let i = 0; i < HUB_LIMITS.free + 10; i++) {
      const from = `127.0.2.${i + 1}`;
      expect(await tcpConnect(hub.ports.mqtt!, { clientId: `kg${i}`, username: "kg", password: "stale", from })).toBe(
        4,
      );
    }
    // the PIN is still checked at once from a fresh address
    expect(
      await tcpConnect(hub.ports.mqtt!, {
        clientId: "hostnew",
        username: "host",
        password: hub.pin,
        from: "127.0.3.1",
      }),
    ).toBe(0);
  });

  it("with the hub's budget spent by wrong PINs, the laptop's own PIN still gets in", async () => {
    for (let i = 0; i < HUB_LIMITS.free + 5; i++) {
      const from = `127.0.4.${i + 1}`;
      await tcpConnect(hub.ports.mqtt!, { clientId: `p${i}`, username: "host", password: "000000", from });
    }
    // a device elsewhere waits for the hub's budget
    expect(
      await tcpConnect(hub.ports.mqtt!, { clientId: "far", username: "host", password: hub.pin, from: "127.0.5.1" }),
    ).toBe(5);
    // the laptop does not
    expect(
      await tcpConnect(hub.ports.mqtt!, { clientId: "lap", username: "host", password: hub.pin, from: "127.0.0.1" }),
    ).toBe(0);
  });

  it("pairing slots filled from a few addresses still let a real new gun in", async () => {
    const fakes = MAX_PENDING / PENDING_PER_SOURCE;
    for (let a = 0; a < fakes; a++) {
      for (let i = 0; i < PENDING_PER_SOURCE; i++) {
        const id = `fk${a}x${i}`;
        open.push(await clientFrom(`127.0.6.${a + 1}`, hub.ports.mqtt!, { clientId: id, username: id, password: "x" }));
      }
    }
    const real = { clientId: `${hub.table}-newgun`, username: "newgun", password: "flashed", from: "127.0.7.1" };
    // every slot taken: the first try is refused, and makes room; the gun's next try (its backoff) gets in
    expect(await tcpConnect(hub.ports.mqtt!, real)).toBe(3);
    await sleep(200);
    const gun = await clientFrom(real.from, hub.ports.mqtt!, real);
    open.push(gun);
    expect(gun.connected).toBe(true);
  });
});
