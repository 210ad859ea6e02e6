// @heavy: guns on the real Espruino interpreter, in real time
// A fake hub answering a gun that looks for its hub (firmware/src/find.ts): a player's laptop on the table's WiFi
// answers first (the real hub's answers are rate-limited, a flood silences them; here the real hub is simply gone).
// It answers with its own address, unproven, with a proof made from a guessed key, and with a proof of the right key
// over another nonce (an answer recorded earlier, replayed). A paired gun, on both runtimes, takes none of them: it
// never connects there (where it would hand its key over in CONNECT) and its gun.json is unchanged. When its hub is back
// on another port, the hub's proven answer is taken. A gun not yet paired does not ask at all.
import { createHash } from "node:crypto";
import { createSocket, type Socket } from "node:dgram";
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { formatReply } from "../../hub/src/net/discovery.js";
import { createVirtualGun, type Gun } from "../../hub/src/sim/espruino/index.js";
import type { RealGun } from "../../hub/src/sim/espruino/real-gun.js";
import { broadcastSource } from "../fakes/broadcast.js";
import { tempDir, testHub } from "../fakes/hub.js";
import { onInterpreter, realGun, sleep, waitFor } from "../fakes/real-gun.js";

const lan = (await broadcastSource()) ?? "";
if (!lan) console.warn("SKIPPED: fake hub answers: a broadcast sent on this machine does not come back here");

const hex = (s: string) => createHash("sha256").update(s).digest("hex");

/** A fake hub: answers every query on `port` at once, in turn unproven, proven with a guessed key, replayed. */
async function fakeHub(table: string, keyHash: () => string | undefined) {
  const conns: string[] = [];
  const tcp: Server = createServer((s) => {
    conns.push(`${s.remoteAddress}`);
    s.destroy();
  });
  await new Promise<void>((r) => tcp.listen(0, "0.0.0.0", () => r()));
  const tcpPort = (tcp.address() as { port: number }).port;
  const queries: string[] = [];
  const udp: Socket = createSocket({ type: "udp4", reuseAddr: true });
  const kinds = ["unproven", "guessed key", "replayed"] as const;
  const sent: string[] = [];
  udp.on("message", (m, r) => {
    const q = m.toString();
    queries.push(q);
    for (const kind of kinds) {
      const proof =
        kind === "unproven"
          ? undefined
          : kind === "guessed key"
            ? { keyHash: hex("a-key-the-player-guessed"), nonce: q.split(" ")[3] ?? "" }
            : // the gun's own key hash, over a nonce of an earlier look: what a recorded answer carries
              { keyHash: keyHash() ?? "", nonce: "0123456789abcdef" };
      const text = formatReply(table, "127.0.0.1", tcpPort, proof);
      sent.push(kind);
      udp.send(text, r.port, r.address);
    }
  });
  return {
    conns,
    queries,
    sent,
    tcpPort,
    bind: (port: number) => new Promise<void>((r) => udp.bind(port, "0.0.0.0", () => r())),
    close: () => {
      udp.close();
      tcp.close();
    },
  };
}

/**
 * The scenario on one gun: paired to its hub, the hub goes away, the fake hub answers every query; then the hub comes
 * back on another port and is found.
 */
async function scenario(start: (cfg: object) => Promise<Gun & { file(): Promise<string | undefined> }>): Promise<void> {
  const data = tempDir("cng-fake-hub-");
  const table = `fk${process.pid % 100000}${Math.floor(Math.random() * 1000)}`;
  const id = "fk1";
  let hub = await testHub({ data: data.dir, table, bind: "0.0.0.0", discovery: 0 });
  const dport = hub.ports.discovery!;
  /** the gun's key hash, as its hub keeps it: what a recorded answer of the hub's was proven with */
  let keyHash: string | undefined;
  const fake = await fakeHub(table, () => keyHash);
  try {
    await fake.bind(dport);
    const gun = await start({
      id,
      secret: "factory-secret",
      table,
      hub: { host: "127.0.0.1", port: hub.ports.mqtt, find: dport },
    });
    const rec = () => hub.guns.registry.all().find((x) => x.id === id && x.on);
    await waitFor(() => rec(), 8000, "a pairing request");
    expect((await hub.guns.pair(id, 1)).ok).toBe(true);
    await waitFor(
      async () => JSON.parse((await gun.file())!).secret !== "factory-secret" && rec()?.paired,
      8000,
      "paired: the gun holds its key",
    );
    const stored = JSON.parse((await gun.file())!);
    keyHash = hex(stored.secret);
    expect(stored.hub).toEqual({ host: "127.0.0.1", port: hub.ports.mqtt, find: dport });

    // the hub goes away; the fake hub answers each question, three ways
    const first = hub.ports.mqtt;
    await hub.stop();
    await waitFor(() => fake.queries.length >= 2, 20_000, "two questions answered by the fake hub");
    await sleep(500);
    expect(fake.conns, "the gun connected to the fake hub").toEqual([]);
    expect(JSON.parse((await gun.file())!).hub).toEqual(stored.hub);
    expect(gun.console.filter((l) => l.startsWith("CNG hub "))).toEqual([]);
    // each question carries a nonce of its look
    const nonces = fake.queries.map((q) => q.split(" ")[3]);
    expect(nonces.every((n) => /^[0-9a-f]{16}$/.test(n ?? ""))).toBe(true);

    // the hub is back on another port (same data: the gun's key hash kept); the fake hub still answers too
    hub = await testHub({ data: data.dir, table, bind: "0.0.0.0", discovery: dport });
    expect(hub.ports.mqtt).not.toBe(first);
    await waitFor(() => rec()?.paired, 20_000, "the gun back at its hub, with its key");
    expect(JSON.parse((await gun.file())!).hub).toEqual({ host: lan, port: hub.ports.mqtt, find: dport });
    expect(fake.conns).toEqual([]);
    expect(gun.errors).toEqual([]);
  } finally {
    fake.close();
    await hub.stop();
    data.remove();
  }
}

describe.skipIf(!lan)("a fake hub's answers (vm runtime)", () => {
  const guns: Gun[] = [];
  afterEach(() => {
    for (const g of guns.splice(0)) g.stop();
  });

  it("esp32-mpu6050, paired: takes no unproven, guessed or replayed answer; its hub's proven one when back", async () => {
    await scenario(async (config) => {
      const g = createVirtualGun({
        board: "esp32-mpu6050",
        config,
        imu: { motion: () => ({ yaw: 0, pitch: 0, roll: 0 }) },
      });
      guns.push(g);
      return Object.assign(g, { file: async () => g.storage.get("gun.json") });
    });
  }, 60_000);

  it("esp32-bno085, not paired: asks nothing, so takes nothing", async () => {
    const table = `fn${process.pid % 100000}`;
    const fake = await fakeHub(table, () => undefined);
    const probe = createSocket("udp4");
    await new Promise<void>((r) => probe.bind(0, () => r()));
    const dport = (probe.address() as { port: number }).port;
    probe.close();
    await fake.bind(dport);
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, "127.0.0.1", () => r()));
    const port = (dead.address() as { port: number }).port;
    await new Promise((r) => dead.close(r));
    try {
      const g = createVirtualGun({
        board: "esp32-bno085",
        config: { id: "fn1", secret: "factory-secret", table, hub: { host: "127.0.0.1", port, find: dport } },
        imu: { motion: () => ({ yaw: 0, pitch: 0, roll: 0 }) },
      });
      guns.push(g);
      // two failed connects (≈ 3 s), then a question every 5 s for a gun that asks
      await sleep(11_000);
      expect(fake.queries).toEqual([]);
      expect(fake.conns).toEqual([]);
      expect(JSON.parse(g.storage.get("gun.json")!).hub.port).toBe(port);
    } finally {
      fake.close();
    }
  }, 30_000);
});

(lan ? onInterpreter : describe.skip)("a fake hub's answers (real interpreter)", () => {
  it("esp32-bno085, paired: takes no unproven, guessed or replayed answer; its hub's proven one when back", async () => {
    await scenario(async (config) => {
      const g: RealGun = await realGun({
        board: "esp32-bno085",
        config,
        imu: { motion: () => ({ yaw: 0, pitch: 0, roll: 0 }) },
      });
      return Object.assign(g, { file: () => g.readFile("gun.json") });
    });
  }, 90_000);
});
