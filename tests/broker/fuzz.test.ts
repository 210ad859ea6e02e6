// Fuzz every topic the hub reads (and the gun streams it will read) with ≥ 10,000 payloads each,
// against a hub process: it stays up, its state does not change, its memory stays flat.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { cmdTopic, type GameSetup, gunTopic, MAX_BYTES, type MessageKind } from "@cng/protocol";
import fc from "fast-check";
import type { MqttClient } from "mqtt";
import { afterAll, describe, expect, it } from "vitest";
import { connect, nextMessage, request, sleep, tempDir } from "../fakes/hub.js";

const CLI = new URL("../../bin/cng.js", import.meta.url).pathname;
const PIN = "771177";
const PER_TOPIC = 10_000;

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) : 0;
}

/** Payloads that look a little, a lot, or not at all like real messages. */
function payloads(seed: number, n: number, maxBytes: number): Buffer[] {
  const valueish = fc.oneof(
    fc.integer(),
    fc.double(),
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.integer(), { maxLength: 8 }),
  );
  const messageish = fc.record(
    {
      v: fc.oneof(fc.constant(1), fc.constant(2), valueish),
      id: fc.oneof(fc.string({ maxLength: 70 }), valueish),
      op: fc.oneof(fc.constantFrom("pair.accept", "game.new", "game.decide", "seat.token", "gun.forget"), fc.string()),
      auth: fc.oneof(fc.string({ maxLength: 10 }), valueish),
      a: fc.oneof(fc.dictionary(fc.string({ maxLength: 6 }), valueish, { maxKeys: 4 }), valueish),
      fw: valueish,
      b: valueish,
      i: fc.oneof(fc.constantFrom("sim", "mpu6050"), valueish),
      bat: valueish,
      up: valueish,
      on: valueish,
      e: valueish,
      t: valueish,
      y: valueish,
      n: valueish,
      k: valueish,
    },
    { requiredKeys: [] },
  );
  const arb = fc.oneof(
    messageish.map((o) => Buffer.from(JSON.stringify(o))),
    fc.json().map((s) => Buffer.from(s)),
    fc.string({ unit: "binary" }).map((s) => Buffer.from(s)),
    fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
  );
  return fc.sample(arb, { seed, numRuns: n }).map((b) => b.subarray(0, maxBytes));
}

describe("fuzzing the hub", () => {
  const t = tempDir("cng-fuzz-");
  let child: ChildProcess;
  afterAll(() => {
    child?.kill("SIGKILL");
    t.remove();
  });

  it(`survives ${PER_TOPIC} hostile payloads per topic with its state and memory unchanged`, async () => {
    child = spawn(
      process.execPath,
      [CLI, "hub", "--data", t.dir, "--mqtt-port", "0", "--http-port", "0", "--bind", "127.0.0.1", "--pin", PIN],
      // a capped heap: a hub that leaks per message runs out of it and dies, which the test sees
      {
        stdio: ["ignore", "pipe", "ignore"],
        env: { ...process.env, CNG_LOG_LEVEL: "error", NODE_OPTIONS: "--max-old-space-size=96" },
      },
    );
    let exited = false;
    child.on("exit", () => (exited = true));
    const url = await new Promise<string>((resolve) => {
      let out = "";
      child.stdout!.on("data", (d) => {
        out += d;
        const m = /MQTT:\s+(mqtt:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
    });

    // Something to protect: a paired gun and a game in progress.
    const host: MqttClient = await connect(url, { username: "host", password: PIN });
    const pending = await connect(url, { username: "fz1", password: "x", clientId: "fz1" });
    const key = nextMessage(pending, gunTopic("main", "fz1", "cmd"), (m) => m.c === "key");
    await sleep(50);
    expect((await request(host, "main", "pair.accept", { gun: "fz1", seat: 0 }, PIN)).ok).toBe(true);
    const secret = (await key).k;
    pending.end(true);
    const setup: GameSetup = { edition: "classic", players: ["A", "B", "C", "D"], seed: 3 };
    expect((await request(host, "main", "game.new", setup, PIN)).ok).toBe(true);
    expect(
      (await request(host, "main", "game.decide", { decision: { type: "bullet", seat: 0, card: "click" } }, PIN)).ok,
    ).toBe(true);

    const snapshot = async () => ({
      guns: ((await request(host, "main", "guns.list")).r as any).guns.map((g: any) => ({
        id: g.id,
        paired: g.paired,
        seat: g.seat,
      })),
      game: (await request(host, "main", "game.state", undefined, PIN)).r,
    });
    const before = await snapshot();

    const gun = await connect(url, { username: "fz1", password: secret, clientId: "fz1", reconnectPeriod: 200 });
    const viewer = await connect(url, { reconnectPeriod: 200 });
    const cid = viewer.options.clientId!;
    const targets: { client: MqttClient; topic: string; kind: MessageKind }[] = [
      ...(["info", "will", "err", "aim", "trig", "sync"] as const).map((leaf) => ({
        client: gun,
        topic: gunTopic("main", "fz1", leaf),
        kind: leaf as MessageKind,
      })),
      { client: viewer, topic: cmdTopic("main", cid, "req"), kind: "req" },
    ];

    const round = async (seed: number) => {
      for (const [i, tgt] of targets.entries()) {
        const list = payloads(seed * 100 + i, PER_TOPIC / 2, MAX_BYTES[tgt.kind]);
        for (let j = 0; j < list.length; j++) {
          tgt.client.publish(tgt.topic, list[j]!, { qos: j % 10 === 0 ? 1 : 0 });
          if (j % 500 === 499) await sleep(5); // let the socket drain
        }
      }
      // Everything sent has been handled once the hub answers a request after it.
      await request(viewer, "main", "guns.list", undefined, undefined, 90_000);
    };

    await round(1);
    const rssAfterFirst = rssKb(child.pid!);
    await round(2);
    const rssAfterSecond = rssKb(child.pid!);

    expect(exited).toBe(false);
    expect(gun.connected && viewer.connected).toBe(true);
    expect(await snapshot()).toEqual(before);
    // Memory flat: the second half of the fuzzing costs no more than the noise of a growing V8 heap
    // (RSS never shrinks; the heap cap above is what catches a real leak).
    expect(rssAfterSecond - rssAfterFirst).toBeLessThan(60_000);
    gun.end(true);
    viewer.end(true);
    host.end(true);
  }, 240_000);
});
