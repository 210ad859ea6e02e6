// @real-time: a gun in the vm, on its own clock, through a tap
// Attack: reading a gun's key off the WiFi. A gun logged in with its key as its MQTT password at every CONNECT: a
// player holding the WiFi password read it, then logged in as that gun (aims and pulls for its seat), answered as its
// hub (the discovery and update proofs rest on the key's hash) — whatever else kept it. Now a gun that can hash (the
// ESP32 boards) proves its key at CONNECT instead, each login newer than the last: after the pairing (where the key
// crosses the air once, in the `key` command) nothing it sends names its key, and a CONNECT heard and sent again is
// refused. The ESP8266 (SHA-1 only, no room) still sends its key: docs/security.md says so.
import { connect as tcp } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createVirtualGun, type VirtualGun } from "../../hub/src/sim/espruino/index.js";
import { tempDir, testHub, waitFor } from "../fakes/hub.js";
import { type Tap, tapInFrontOf } from "./tap.js";

/** The CONNACK return code for `packet` sent as it is from `from`; -1 when the hub closed without one. */
function replay(port: number, packet: Buffer, from: string): Promise<number> {
  return new Promise((resolve) => {
    const s = tcp({ host: "127.0.0.1", port, localAddress: from });
    s.on("connect", () => s.write(packet));
    s.on("data", (d) => {
      resolve(d[0] === 0x20 && d.length >= 4 ? d[3]! : -1);
      s.destroy();
    });
    s.on("error", () => resolve(-1));
    s.on("close", () => resolve(-1));
  });
}

/** The first MQTT packet (the CONNECT) of a connection's bytes. */
function firstPacket(b: Buffer): Buffer {
  let len = 0;
  let mult = 1;
  let i = 1;
  for (; i < 5; i++) {
    len += (b[i]! & 0x7f) * mult;
    mult *= 128;
    if ((b[i]! & 0x80) === 0) break;
  }
  return b.subarray(0, i + 1 + len);
}

describe("a gun's key on the air", () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const f of cleanup.splice(0).reverse()) await f();
  });

  it("an ESP32 gun never sends its key after pairing; a CONNECT heard is refused when sent again", async () => {
    const data = tempDir("cng-gun-login-");
    cleanup.push(() => data.remove());
    const hub = await testHub({ data: data.dir });
    cleanup.push(() => hub.stop());
    const tap: Tap = await tapInFrontOf(hub.ports.mqtt!);
    cleanup.push(() => tap.close());
    const gun: VirtualGun = createVirtualGun({
      board: "esp32-mpu6050",
      config: { id: "kg1", secret: "factory-secret", table: hub.table, hub: { host: "127.0.0.1", port: tap.port } },
      imu: { motion: () => ({ yaw: 0, pitch: 0, roll: 0 }) },
    });
    cleanup.push(() => gun.stop());
    const rec = () => hub.guns.registry.get("kg1");
    await waitFor(() => rec()?.on, 8000, "a pairing request");
    expect((await hub.guns.pair("kg1", 1)).ok).toBe(true);
    const key = await waitFor(
      () => {
        const j = JSON.parse(gun.storage.get("gun.json")!);
        return j.secret !== "factory-secret" && j.pf === 1 ? (j.secret as string) : undefined;
      },
      8000,
      "the key kept, with proofs from now on",
    );
    await waitFor(() => rec()?.on && hub.streams.stats.aim > 0, 8000, "the gun streaming, logged in by its proof");

    // from here on, someone listening: the WiFi drops twice, the gun logs in again each time and plays
    tap.clear();
    for (let i = 0; i < 2; i++) {
      const aims = hub.streams.stats.aim;
      tap.cut();
      await waitFor(() => hub.streams.stats.aim > aims + 20, 15_000, "aim again after the drop");
    }
    const heard = tap.raw();
    const all = Buffer.concat(heard.map((h) => h.up)).toString("latin1");
    expect(all).not.toContain(key);
    // its first start since pairing, its second and third logins
    expect(all).toMatch(/g1\.1\.2\.[0-9a-f]{64}/);
    expect(all).toMatch(/g1\.1\.3\.[0-9a-f]{64}/);
    // each CONNECT heard, sent again from a player's laptop: refused
    const connects = heard.filter((h) => h.up[0] === 0x10).map((h) => firstPacket(h.up));
    expect(connects.length).toBe(2);
    for (const p of connects) expect(await replay(hub.ports.mqtt!, p, "127.0.0.91")).toBe(4);
    // no restart: still its first start since pairing
    expect(JSON.parse(gun.storage.get("gun.json")!).bt).toBe(1);
  }, 60_000);
});
