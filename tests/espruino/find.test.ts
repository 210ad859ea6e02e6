// @heavy: guns on the real Espruino interpreter, in real time
// A paired gun whose hub moved finds it by UDP broadcast on the real Espruino interpreter (its hub's answer proven
// with the gun's key: tests/security/gun-discovery.test.ts has the answers it must not take) and plays, and starts at
// the remembered address after a reboot; an answer for another table is ignored. Also the WiFi signal (RSSI) in gun
// health, on both runtimes.
import { createSocket, type Socket } from "node:dgram";
import { createServer } from "node:net";
import { gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterAll, describe, expect, it } from "vitest";
import { boardNames, createVirtualGun, loadBoard, type VirtualGun } from "../../hub/src/sim/espruino/index.js";
import { broadcastSource } from "../fakes/broadcast.js";
import { connect, request, tempDir, testHub } from "../fakes/hub.js";
import { onInterpreter, realGun, sleep, waitFor } from "../fakes/real-gun.js";

/** the boards whose profile has "find" (the ESP8266's 10 KB budget leaves it out) */
const finding = boardNames().filter((b) => b.startsWith("esp32"));
/** the boards that report their WiFi signal: all with WiFi (the Puck.js has none: Bluetooth only) */
const signal = boardNames().filter((b) => loadBoard(b).has?.includes("rssi"));

/** The gun as the dashboard sees it: `guns.list`. */
async function listed(
  host: MqttClient,
  table: string,
  id: string,
): Promise<{ info?: { rs?: number }; warn?: string[] } | undefined> {
  const r = await request(host, table, "guns.list", {});
  type Listed = { id: string; info?: { rs?: number }; warn?: string[] };
  return (r as unknown as { r: { guns: Listed[] } }).r.guns.find((g) => g.id === id);
}

/** A TCP port nobody listens on. */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const p = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return p;
}

/** the address the hub names for a query broadcast from this machine: the LAN interface it went out on */
const lan = (await broadcastSource()) ?? "";
const canBroadcast = lan !== "";
if (!canBroadcast) console.warn("SKIPPED: finding the hub: a broadcast sent on this machine does not come back here");

// the boards take their turns side by side (each its own hubs, ports and table; the firmware asks every 5 s and
// mostly waits): concurrent suites run together
(canBroadcast ? onInterpreter.concurrent : describe.skip).each(finding)(
  "%s finds its hub on the real interpreter",
  (board) => {
    const data = tempDir("cng-find-");
    const other = tempDir("cng-find-other-");
    const table = `fm${process.pid % 100000}`;
    const id = `fg-${board}`;
    const closers: (() => Promise<unknown> | unknown)[] = [];
    afterAll(async () => {
      for (const c of closers.reverse()) await c();
      data.remove();
      other.remove();
    });

    it("paired, its hub moves: asks, ignores another table's answer, finds the hub and plays; after a reboot starts at the remembered address", async ({
      onTestFinished,
    }) => {
      // another table's hub on the same discovery port, and a responder that answers every query for another table
      const elsewhere = await testHub({
        data: other.dir,
        table: `fo${process.pid % 100000}`,
        bind: "0.0.0.0",
        discovery: 0,
      });
      closers.push(() => elsewhere.stop());
      const dport = elsewhere.ports.discovery!;
      const queries: string[] = [];
      const rogue: Socket = createSocket({ type: "udp4", reuseAddr: true });
      rogue.on("message", (m, r) => {
        queries.push(m.toString());
        rogue.send(`CNG1! ${elsewhere.table} 127.0.0.1 ${elsewhere.ports.mqtt}`, r.port, r.address);
      });
      await new Promise<void>((r) => rogue.bind(dport, "0.0.0.0", () => r()));
      closers.push(() => rogue.close());

      // the gun, flashed for its hub, pairs there
      let hub = await testHub({ data: data.dir, table, bind: "0.0.0.0", discovery: dport });
      closers.push(() => hub.stop());
      const gun = await realGun(
        {
          board,
          config: {
            id,
            secret: "factory-secret",
            table,
            hub: { host: "127.0.0.1", port: hub.ports.mqtt, find: dport },
          },
          imu: { motion: () => ({ yaw: 10, pitch: 5, roll: 0 }) },
          rssi: -71,
        },
        onTestFinished,
      );
      const rec = () => hub.guns.registry.all().find((x) => x.id === id && x.on);
      await waitFor(() => rec(), 8000, "a pairing request");
      expect((await hub.guns.pair(id, 1)).ok).toBe(true);
      // the key is kept in gun.json, marked paired (the hub's record says paired already as it sends the key)
      await waitFor(
        async () => JSON.parse((await gun.readFile("gun.json"))!).paired === 1,
        8000,
        "the key kept in gun.json",
      );
      // its hub's address answers: it never asked
      expect(queries).toEqual([]);

      // the hub goes away: two connects fail, then a query every 5 s, answered only for another table
      const first = hub.ports.mqtt;
      await hub.stop();
      await waitFor(() => queries.length >= 2, 20_000, "two queries");
      expect(queries[0]).toMatch(new RegExp(`^CNG1\\? ${table} ${id} [0-9a-f]{16}$`));
      expect(gun.connects).not.toContain(`127.0.0.1:${elsewhere.ports.mqtt}`);

      // the table's hub is back on another port, on every address, answering on the same port
      const t0 = Date.now();
      hub = await testHub({ data: data.dir, table, bind: "0.0.0.0", discovery: dport });
      closers.push(() => hub.stop());
      expect(hub.ports.mqtt).not.toBe(first);
      const host: MqttClient = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
      closers.push(() => host.end(true));
      const seen: { leaf: string; msg: any }[] = [];
      host.on("message", (topic, payload) => {
        if (payload.length) seen.push({ leaf: topic.split("/").at(-1)!, msg: JSON.parse(payload.toString()) });
      });
      for (const leaf of ["status", "aim"] as const) await host.subscribeAsync(gunTopic(table, id, leaf));
      const status = () => seen.filter((s) => s.leaf === "status").at(-1)?.msg;

      await waitFor(() => status()?.paired && status()?.on, 15_000, "the gun at the moved hub, with its key");
      const found = Date.now() - t0;
      // the hub named the LAN address the broadcast came in on, not 127.0.0.1
      expect(gun.connects.at(-1)).toBe(`${lan}:${hub.ports.mqtt}`);
      expect(gun.connects).not.toContain(`127.0.0.1:${elsewhere.ports.mqtt}`);
      expect(JSON.parse((await gun.readFile("gun.json"))!).hub).toEqual({
        host: lan,
        port: hub.ports.mqtt,
        find: dport,
      });
      console.log(`${board}: found the hub ${found} ms after it started (queries every 5 s)`);

      // plays: aim reaches the hub, a cue reaches the gun; gun health has the WiFi signal
      const n = seen.filter((s) => s.leaf === "aim").length;
      await waitFor(() => seen.filter((s) => s.leaf === "aim").length > n + 5, 5000, "aim at the hub");
      const from = gun.tones.length;
      // a second ahead: a gun drops a cue that comes after its start, and a busy machine delays the message
      hub.play.dispatcher.cue(1, "beat", { at: Date.now() + 1000 });
      await waitFor(() => gun.tones.slice(from).find((x) => x.f > 0), 6000, "the cue's beep");
      expect((await listed(host, table, id))?.info?.rs).toBe(-71);

      // a power cycle: the first connect goes to the remembered address
      const before = gun.connects.length;
      const at = Date.now();
      await gun.reboot();
      await waitFor(() => status()?.on && status()?.at >= at, 8000, "a new session after the reboot");
      expect(gun.connects[before]).toBe(`${lan}:${hub.ports.mqtt}`);
      expect(gun.errors).toEqual([]);
    }, 90_000);
  },
);

onInterpreter("the WiFi signal of a board without find, on the real interpreter", () => {
  it.each(signal.filter((b) => !finding.includes(b)))(
    "%s: guns.list shows rs",
    async (board) => {
      const data = tempDir("cng-rssi-real-");
      const hub = await testHub({ data: data.dir });
      const host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
      try {
        const id = `rr-${board}`;
        await realGun({
          board,
          config: { id, secret: "factory-secret", table: hub.table, hub: { host: "127.0.0.1", port: hub.ports.mqtt } },
          imu: { motion: () => ({ yaw: 0, pitch: 0, roll: 0 }) },
          rssi: -66,
        });
        await waitFor(() => hub.guns.registry.all().find((x) => x.id === id && x.info), 8000, "the gun's info");
        const gun = await listed(host, hub.table, id);
        expect(gun?.info?.rs).toBe(-66);
        expect(gun?.warn?.join() ?? "").not.toMatch(/weak WiFi/);
      } finally {
        host.end(true);
        await hub.stop();
        data.remove();
      }
    },
    20_000,
  );
});

describe.skipIf(!canBroadcast)("finding the hub on the vm runtime (cng sim's default)", () => {
  it("a gun not yet paired, flashed with a wrong port, does not ask (no key to check an answer with); the ESP8266 build never asks", async () => {
    const data = tempDir("cng-find-vm-");
    const table = `fv${process.pid % 100000}`;
    const hub = await testHub({ data: data.dir, table, bind: "0.0.0.0", discovery: 0 });
    const wrong = await deadPort();
    const cfg = (id: string) => ({
      id,
      secret: "factory-secret",
      table,
      hub: { host: "127.0.0.1", port: wrong, find: hub.ports.discovery },
    });
    const g = createVirtualGun({
      board: "esp32-mpu6050",
      config: cfg("fv1"),
      imu: { motion: () => ({ yaw: 0, pitch: 0, roll: 0 }) },
    });
    const e = createVirtualGun({
      board: "esp8266-mpu6050",
      config: cfg("fv2"),
      imu: { motion: () => ({ yaw: 0, pitch: 0, roll: 0 }) },
    });
    // a listener beside the hub on its discovery port hears every question
    const heard: string[] = [];
    const ear: Socket = createSocket({ type: "udp4", reuseAddr: true });
    ear.on("message", (m) => heard.push(m.toString()));
    await new Promise<void>((r) => ear.bind(hub.ports.discovery!, "0.0.0.0", () => r()));
    try {
      // two failed connects (≈ 3 s), then a question every 5 s from a gun that asks
      await sleep(11_000);
      expect(heard).toEqual([]);
      expect(hub.guns.registry.all().some((x) => x.id === "fv1" || x.id === "fv2")).toBe(false);
      expect(JSON.parse(g.storage.get("gun.json")!).hub.port).toBe(wrong);
      expect(g.errors).toEqual([]);
      expect(e.errors).toEqual([]);
    } finally {
      ear.close();
      g.stop();
      e.stop();
      await hub.stop();
      data.remove();
    }
  }, 20_000);
});

describe.skipIf(!canBroadcast)("the hub moves while a paired gun plays (vm runtime)", () => {
  it("the hub comes back on another port: the gun finds it and logs in with its key", async () => {
    const data = tempDir("cng-find-move-");
    const table = `fw${process.pid % 100000}`;
    let hub = await testHub({ data: data.dir, table, bind: "0.0.0.0", discovery: 0 });
    const dport = hub.ports.discovery!;
    const g = createVirtualGun({
      board: "esp32-bno085",
      config: {
        id: "mv1",
        secret: "factory-secret",
        table,
        hub: { host: "127.0.0.1", port: hub.ports.mqtt, find: dport },
      },
      imu: { motion: () => ({ yaw: 0, pitch: 0, roll: 0 }) },
    });
    const on = () => hub.guns.registry.all().find((x) => x.id === "mv1" && x.on);
    try {
      await waitFor(() => on(), 5000, "a pairing request");
      expect((await hub.guns.pair("mv1", 1)).ok).toBe(true);
      await waitFor(
        () => on()?.paired && JSON.parse(g.storage.get("gun.json")!).secret !== "factory-secret",
        5000,
        "paired",
      );
      const first = hub.ports.mqtt;
      await hub.stop();
      // the laptop's hub is back, on another port (same data: the gun's key is kept)
      hub = await testHub({ data: data.dir, table, bind: "0.0.0.0", discovery: dport });
      expect(hub.ports.mqtt).not.toBe(first);
      await waitFor(() => on()?.paired, 15_000, "the gun back, paired, at the new port");
      expect(JSON.parse(g.storage.get("gun.json")!).hub).toMatchObject({ host: lan, port: hub.ports.mqtt });
      expect(g.console.filter((l) => l.startsWith("CNG hub "))).toEqual([`CNG hub ${lan}:${hub.ports.mqtt}`]);
      expect(g.errors).toEqual([]);
    } finally {
      g.stop();
      await hub.stop();
      data.remove();
    }
  }, 30_000);
});

describe("the WiFi signal on the vm runtime", () => {
  const guns: VirtualGun[] = [];
  afterAll(() => {
    for (const g of guns) g.stop();
  });
  it.each(signal)("%s: info carries rs, and guns.list shows it", async (board) => {
    const data = tempDir("cng-rssi-");
    const hub = await testHub({ data: data.dir });
    try {
      const id = `rs-${board}`;
      const g = createVirtualGun({
        board,
        config: { id, secret: "factory-secret", table: hub.table, hub: { host: "127.0.0.1", port: hub.ports.mqtt } },
        imu: { motion: () => ({ yaw: 0, pitch: 0, roll: 0 }) },
        rssi: -83,
      });
      guns.push(g);
      const host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
      try {
        let gun: Awaited<ReturnType<typeof listed>>;
        for (let i = 0; i < 50 && !gun?.info; i++) {
          gun = await listed(host, hub.table, id);
          if (!gun?.info) await sleep(100);
        }
        expect(gun?.info?.rs).toBe(-83);
        expect(gun?.warn?.join()).toMatch(/weak WiFi: -83 dBm/);
      } finally {
        host.end(true);
        g.stop();
      }
    } finally {
      await hub.stop();
      data.remove();
    }
    await sleep(0);
  });
});
