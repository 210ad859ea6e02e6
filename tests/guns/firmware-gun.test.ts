// The real firmware bundle on a virtual Espruino board pairs with the hub and is seen live.
import { gunTopic } from "@cng/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVirtualGun, type VirtualGun } from "../../hub/src/sim/espruino/index.js";
import { connect, nextMessage, request, testHub } from "../fakes/hub.js";

describe("firmware bundle as a gun", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  const guns: VirtualGun[] = [];
  beforeAll(async () => {
    hub = await testHub();
  });
  afterAll(async () => {
    for (const g of guns) g.stop();
    await hub.stop();
  });

  const flash = (secret: string) => {
    const g = createVirtualGun({
      board: "esp32-mpu6050",
      config: { id: "fw1", secret, table: hub.table, hub: { host: "127.0.0.1", port: hub.ports.mqtt } },
      imu: { motion: () => ({ yaw: 30, pitch: 10, roll: 0 }) },
    });
    guns.push(g);
    return g;
  };

  it("asks to pair, stores the key the hub sends, and is online with its info", async () => {
    const host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    const asking = nextMessage(host, gunTopic(hub.table, "fw1", "status"), (m) => m.paired === false && m.info);
    const first = flash("factory-secret");
    expect((await asking).info).toMatchObject({ b: "esp32-mpu6050" });

    // The hub sends the gun its own key; the firmware stores it in gun.json and reconnects with it.
    const live = nextMessage(host, gunTopic(hub.table, "fw1", "status"), (m) => m.paired && m.on && m.info);
    expect(await request(host, hub.table, "pair.accept", { gun: "fw1", seat: 3 }, hub.pin)).toMatchObject({ ok: true });
    expect(await live).toMatchObject({ seat: 3, why: "connect", info: { b: "esp32-mpu6050" } });
    const stored = JSON.parse(first.storage.get("gun.json")!) as { secret: string };
    expect(stored.secret).not.toBe("factory-secret");
    expect(stored.secret.length).toBeGreaterThanOrEqual(16);
    expect(first.errors).toEqual([]);

    // after a reboot the stored key still lets it in, and the flashed secret no longer does
    first.stop();
    const again = nextMessage(host, gunTopic(hub.table, "fw1", "status"), (m) => m.paired && m.on);
    flash(stored.secret);
    await again;
    // and its aim stream reaches subscribers
    const aim = await nextMessage(host, gunTopic(hub.table, "fw1", "aim"));
    expect(Math.abs(aim.p - 10)).toBeLessThan(2);
    host.end(true);
  });
});
