// @heavy: guns on the real Espruino interpreter, in real time
// Updates over the air a gun must refuse, on the real interpreter with the real bundle.
// - On a fake hub's broker (where a fake discovery answer or a spoofed address would put a gun: the attacker publishes
//   on its `ota` topic): an image with no proof, one vouched for with a guessed key, and a `begin` vouched for with
//   the gun's own key but earlier than its last update (one recorded and played again) are refused before a byte is
//   written, and never run; a vouched `begin` followed by other bytes is written, fails its hash and is never run.
// - With its real hub: a version older than the one it runs is refused, by the hub's `guns.update` and by the gun
//   itself when the hub skips its own checks; forced, it goes.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, expect, it } from "vitest";
import { bundlePathFor } from "../../hub/src/boards/profile.js";
import { crcOf, type OtaBundle, otaChunk, shaOf, vouchedBegin } from "../../hub/src/guns/ota.js";
import type { RealGun } from "../../hub/src/sim/espruino/real-gun.js";
import { hubClient, type Received, startBroker, type TestBroker } from "../fakes/broker.js";
import { connect, request, tempDir, testHub } from "../fakes/hub.js";
import { onInterpreter, realGun, sleep, waitFor } from "../fakes/real-gun.js";

const BOARD = "esp32-mpu6050";
const FW = JSON.parse(readFileSync(new URL("../../firmware/dist/sizes.json", import.meta.url), "utf8")).version;
const hex = (s: string) => createHash("sha256").update(s).digest("hex");

/** The build's bundle for the board, as version `fw`. */
function bundleAs(fw: string): OtaBundle {
  const code = readFileSync(bundlePathFor(BOARD), "latin1");
  expect(code).toContain(JSON.stringify(FW));
  return { board: BOARD, fw, code: code.replace(JSON.stringify(FW), JSON.stringify(fw)) };
}

/** A `begin` for `b` as the hub makes it, vouched for with `keyHash`, dated `t`. */
function beginFor(b: OtaBundle, keyHash: string, t: number, force = false): string {
  return vouchedBegin(
    {
      v: 1,
      c: "begin",
      b: b.board,
      fw: b.fw,
      n: b.code.length,
      crc: crcOf(b.code),
      w: 60_000,
      h: shaOf(b.code),
      t,
      ...(force ? { f: 1 as const } : {}),
    },
    keyHash,
  );
}

onInterpreter("updates a fake hub pushes (real interpreter, a fake hub's broker)", () => {
  const KEY = "the-key-this-guns-hub-gave-it-at-pairing";
  const id = "fo1";
  const table = "main";
  let broker: TestBroker;
  let att: { c: MqttClient; got: Received[]; close(): Promise<void> };
  let gun: RealGun;
  const ota = gunTopic(table, id, "ota");
  const errs = () => att.got.filter((r) => r.topic === gunTopic(table, id, "err") && r.msg?.e === "ota");
  const states = () => att.got.filter((r) => r.topic === gunTopic(table, id, "otas"));

  /** The attacker's side of the exchange: `begin`, then each chunk where the gun says it stands, `code`'s bytes. */
  async function push(begin: string, code: string, ms = 20_000): Promise<"ok" | "refused" | "stopped"> {
    const e0 = errs().length;
    let seen = states().length;
    await att.c.publishAsync(ota, begin, { qos: 1 });
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (errs().length > e0 && !/CRC wrong/.test(errs().at(-1)!.msg.m)) return "refused";
      const s = states();
      if (s.length > seen) {
        seen = s.length;
        const last = s.at(-1)!.msg;
        if (last.ok) return "ok";
        if (last.o < code.length)
          await att.c.publishAsync(ota, otaChunk(last.o, code.substr(last.o, 1024)), { qos: 1 });
      }
      await sleep(20);
    }
    return "stopped";
  }

  beforeAll(async () => {
    broker = await startBroker(0, new Map(), true);
    att = await hubClient(broker.port);
    gun = await realGun(
      {
        board: BOARD,
        config: { id, secret: KEY, paired: 1, table, hub: { host: "127.0.0.1", port: broker.port } },
        imu: { motion: () => ({ yaw: 0, pitch: 0, roll: 0 }) },
      },
      true,
    );
    await waitFor(() => att.got.some((r) => r.topic === gunTopic(table, id, "info")), 10_000, "the gun online");
  }, 30_000);
  afterAll(async () => {
    await att?.close();
    await broker?.close();
  });

  /** Nothing was written for an update, and the gun still runs what it ran. */
  async function untouched(): Promise<void> {
    expect(await gun.readFile("ota.new")).toBeUndefined();
    expect(await gun.readFile("gun.a")).toBeUndefined();
    expect(gun.reboots).toBe(0);
    const info = att.got.filter((r) => r.topic === gunTopic(table, id, "info")).at(-1)!;
    expect(info.msg.fw).toBe(FW);
  }

  it("an image with no proof, or vouched for with a guessed key, is refused before a byte is written", async () => {
    const evil = bundleAs("9.9.9");
    const plain = JSON.stringify({
      v: 1,
      c: "begin",
      b: BOARD,
      fw: evil.fw,
      n: evil.code.length,
      crc: crcOf(evil.code),
      w: 60_000,
    });
    expect(await push(plain, evil.code)).toBe("refused");
    expect(await push(beginFor(evil, hex("a-key-the-player-guessed"), Date.now()), evil.code)).toBe("refused");
    expect(errs().map((e) => e.msg.m)).toEqual([
      "not vouched for by this gun's hub, refused",
      "not vouched for by this gun's hub, refused",
    ]);
    await sleep(500);
    await untouched();
  }, 60_000);

  it("a begin vouched for before the gun's last update (recorded, played again) is refused", async () => {
    // what an update leaves (and every one after it keeps): its hub's time when it vouched for it
    const last = Date.now();
    await gun.writeFile("ota.json", JSON.stringify({ q: last }));
    const older = bundleAs("9.9.8");
    const n = errs().length;
    expect(await push(beginFor(older, hex(KEY), last - 3_600_000), older.code)).toBe("refused");
    expect(
      errs()
        .slice(n)
        .map((e) => e.msg.m),
    ).toEqual(["older than the last update, refused"]);
    await sleep(500);
    await untouched();
  }, 60_000);

  it("a vouched begin followed by other bytes: written, its hash wrong, never run", async () => {
    const vouched = bundleAs("9.9.7");
    // the same length, each chunk with a right CRC: what a damaged transfer never looks like
    const other = vouched.code.replace(JSON.stringify("9.9.7"), JSON.stringify("6.6.6"));
    expect(other.length).toBe(vouched.code.length);
    const n = errs().length;
    await push(beginFor(vouched, hex(KEY), Date.now()), other, 30_000);
    expect(
      errs()
        .slice(n)
        .map((e) => e.msg.m),
    ).toContain("bundle hash wrong, starting again");
    await sleep(500);
    expect(JSON.parse((await gun.readFile("ota.json"))!).f).toBeUndefined();
    expect(gun.reboots).toBe(0);
  }, 60_000);
});

onInterpreter("an older version than the gun runs (real interpreter, its real hub)", () => {
  const data = tempDir("cng-gun-ota-");
  let hub: Awaited<ReturnType<typeof testHub>>;
  let host: MqttClient;
  let gun: RealGun;
  const status = new Map<string, any>();
  const id = "od1";

  beforeAll(async () => {
    hub = await testHub({ data: data.dir, ota: { ackMs: 1500, windowMs: 8000 }, otaBundle: () => bundleAs("0.0.9") });
    host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    host.on("message", (topic, payload) => {
      if (payload.length) status.set(topic.split("/").at(-2)!, JSON.parse(payload.toString()));
    });
    await host.subscribeAsync(gunTopic(hub.table, "+", "status"));
    gun = await realGun(
      {
        board: BOARD,
        config: { id, secret: "factory-secret", table: hub.table, hub: { host: "127.0.0.1", port: hub.ports.mqtt } },
        imu: { motion: () => ({ yaw: 0, pitch: 0, roll: 0 }) },
      },
      true,
    );
    await waitFor(() => status.get(id)?.info && status.get(id)?.on, 10_000, "asking to pair");
    expect(await request(host, hub.table, "pair.accept", { gun: id, seat: null }, hub.pin)).toMatchObject({ ok: true });
    await waitFor(() => status.get(id)?.paired && status.get(id)?.on, 10_000, "back with its key");
  }, 40_000);
  afterAll(async () => {
    host?.end(true);
    await hub?.stop();
    data.remove();
  });

  it("refused by guns.update and by the gun itself; forced, it goes", async () => {
    // the hub's op says so before sending anything
    const asked = await request(host, hub.table, "guns.update", { guns: [id] }, hub.pin);
    expect(asked).toMatchObject({
      ok: true,
      r: { started: [], refused: [{ gun: id, why: `${id} runs ${FW}, newer than 0.0.9 (force: true goes back)` }] },
    });
    // past the hub's checks, the gun refuses it too: nothing written
    const refused = await hub.ota.update(id, bundleAs("0.0.9"), false);
    expect(refused).toMatchObject({ stage: "failed", why: `0.0.9 is older than ${FW}: force to go back` });
    expect(await gun.readFile("ota.new")).toBeUndefined();
    expect(await gun.readFile("gun.a")).toBeUndefined();
    // forced by the host: the gun takes it and runs it
    const forced = await request(host, hub.table, "guns.update", { guns: [id], force: true }, hub.pin);
    expect(forced).toMatchObject({ ok: true, r: { started: [{ gun: id, fw: "0.0.9", from: FW }] } });
    await waitFor(() => ["done", "failed"].includes(hub.ota.progress(id)?.stage ?? ""), 60_000, "the forced update");
    expect(hub.ota.progress(id)).toMatchObject({ stage: "done", fw: "0.0.9" });
    // the hub reads the gun's status before this client's copy arrives
    await waitFor(() => status.get(id)?.info?.fw === "0.0.9", 10_000, "the status naming 0.0.9");
    expect(gun.errors).toEqual([]);
  }, 90_000);
});
