// `cng bench ota`: what updates over the air cost and how fast they go. Bytes each optional firmware feature adds
// to each board's bundle (the bundle built with it minus without it); then N guns (default 8) on the real Espruino
// interpreter, paired with a real hub on its embedded broker over the loopback, all updated at once to a new
// version: the time until every gun runs it, per gun, bytes sent, and the JsVars a gun uses running the update
// from Storage against running the USB-flashed bundle.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { pathToFileURL } from "node:url";
import { decodeGunStatus, gunTopic, type HubGunStatusMsg } from "@cng/protocol";
import { firmwareVersion } from "../guns/bundles.js";
import { type Hub, startHub } from "../hub.js";
import { createLogger } from "../log.js";
import { CommandClient } from "../sim/commands.js";
import { bundlePathFor, findInterpreter, projectRoot } from "../sim/espruino/index.js";
import { type RealGun, startRealGun } from "../sim/espruino/real-gun.js";
import type { Bench, BenchOptions } from "./index.js";

interface Build {
  rollBundle(): Promise<{ close(): Promise<void> }>;
  loadBoards(): { name: string; has?: string[] }[];
  featureCosts(bundle: unknown, b: unknown, version: string): Promise<{ bytes: number; costs: Record<string, number> }>;
}

async function featureTable(): Promise<{ board: string; bytes: number; costs: Record<string, number> }[]> {
  const build = (await import(pathToFileURL(`${projectRoot}firmware/build/build.mjs`).href)) as Build;
  const bundle = await build.rollBundle();
  const version = JSON.parse(readFileSync(`${projectRoot}package.json`, "utf8")).version as string;
  const rows = [];
  for (const b of build.loadBoards()) rows.push({ board: b.name, ...(await build.featureCosts(bundle, b, version)) });
  await bundle.close();
  return rows;
}

const BOARDS = ["esp32-mpu6050", "esp32-bno085"];

/** Polls `ok` every 20 ms until it holds; throws after `ms`. */
async function waitUntil(what: string, ok: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function printFeatures(features: Awaited<ReturnType<typeof featureTable>>): void {
  console.log("bytes each optional feature adds to a board's bundle");
  for (const r of features) {
    const parts = Object.entries(r.costs).map(([f, n]) => `${f} ${n}`);
    console.log(`  ${r.board.padEnd(18)} ${String(r.bytes).padStart(6)} bytes   ${parts.join(", ") || "(none)"}`);
  }
}

/** A hub on its embedded broker whose OTA bundles are today's, renamed version `fw`. */
async function otaHub(fw: string): Promise<Hub> {
  const bundles = new Map(
    BOARDS.map((b) => [
      b,
      readFileSync(bundlePathFor(b), "latin1").replace(JSON.stringify(firmwareVersion()), JSON.stringify(fw)),
    ]),
  );
  return startHub({
    mqttPort: 0,
    httpPort: 0,
    bind: "127.0.0.1",
    data: mkdtempSync(`${tmpdir()}/cng-bench-ota-`),
    ...(process.env.CNG_BENCH_LOG ? { log: createLogger({ level: "debug", pretty: false }) } : {}),
    otaBundle: (board) => {
      const code = bundles.get(board);
      return code ? { board, fw, code } : `no ${board} bundle`;
    },
  });
}

/** Gun `b<i>` on the real interpreter (into `guns`, to be stopped whatever happens), online, then paired (no seat). */
async function pairGun(
  i: number,
  hub: Hub,
  host: CommandClient,
  status: Map<string, HubGunStatusMsg>,
  guns: RealGun[],
) {
  const id = `b${i}`;
  const gun = await startRealGun({
    board: BOARDS[i % BOARDS.length],
    config: { id, secret: "factory-secret", table: hub.table, hub: { host: "127.0.0.1", port: hub.ports.mqtt } },
    imu: { motion: () => ({ yaw: 0, pitch: 0, roll: 0 }) },
  });
  guns.push(gun);
  // its info comes once it has subscribed: a key sent before would be lost
  await waitUntil(`${id} online`, () => !!status.get(id)?.on && !!status.get(id)?.info);
  const at = Date.now();
  await host.request("pair.accept", { gun: id, seat: null });
  await waitUntil(
    `${id} paired`,
    () => !!status.get(id)?.paired && !!status.get(id)?.on && status.get(id)!.at! >= at,
  ).catch((e: Error) => {
    throw new Error(
      `${e.message}; its console: ${gun.console.slice(-6).join(" | ")}; status ${JSON.stringify(status.get(id))}`,
    );
  });
}

/** Every gun updated at once to `fw`: how long until each ran it, the bytes sent, the JsVars before and after. */
async function updateAll(
  hub: Hub,
  host: CommandClient,
  guns: RealGun[],
  status: Map<string, HubGunStatusMsg>,
  fw: string,
  json: boolean,
) {
  const n = guns.length;
  const before = await guns[0]!.memory();
  const t0 = performance.now();
  const done = new Map<string, number>();
  hub.ota.onProgress((g, p) => {
    if (p.stage === "done" || p.stage === "failed") done.set(g, performance.now() - t0);
  });
  const r = await host.request("guns.update", { guns: "all" });
  if (!json) process.stderr.write(`updating ${r.started.length} guns…\n`);
  await waitUntil("every update", () => done.size === n, 120_000);
  const total = performance.now() - t0;
  const failed = [...Array(n).keys()].filter((i) => hub.ota.progress(`b${i}`)?.stage !== "done");
  await waitUntil("every gun back on the new version", () =>
    guns.every((_, i) => status.get(`b${i}`)?.info?.fw === fw),
  );
  const after = await guns[0]!.memory();
  const per = [...done.values()].sort((a, b) => a - b);
  const sent = [...Array(n).keys()].reduce((s, i) => s + hub.ota.bytesSent(`b${i}`), 0);
  return {
    guns: n,
    seconds: Math.round(total) / 1000,
    fastestS: Math.round(per[0]!) / 1000,
    slowestS: Math.round(per[per.length - 1]!) / 1000,
    bytesSent: sent,
    failed: failed.length,
    jsvarsFactory: before.firmware,
    jsvarsUpdated: after.firmware,
  };
}

export const otaBench: Bench = {
  name: "ota",
  summary:
    "bytes each firmware feature adds per board; time to update 8 guns on the real interpreter over the loopback",
  async run(opts: BenchOptions) {
    const features = await featureTable();
    const out: Record<string, unknown> = { features };
    if (!opts.json) printFeatures(features);
    const interp = await findInterpreter();
    if (!interp.path) {
      process.stderr.write(`note: ${interp.why}; no update timings\n`);
      if (opts.json) console.log(JSON.stringify(out, null, 2));
      return;
    }
    const n = Number(process.env.CNG_BENCH_GUNS ?? 8);
    const fw = "9.9.9";
    const hub = await otaHub(fw);
    const guns: RealGun[] = [];
    const host = await CommandClient.connect(hub.urls.mqtt, {
      table: hub.table,
      clientId: "bench-ota",
      username: "host",
      password: hub.pin,
      auth: hub.pin,
    });
    try {
      const status = new Map<string, HubGunStatusMsg>();
      await host.subscribeDecoded(gunTopic(hub.table, "+", "status"), decodeGunStatus, (s, t) => {
        status.set(t.split("/").at(-2)!, s);
      });
      if (!opts.json) process.stderr.write(`starting ${n} guns on the interpreter…\n`);
      for (let i = 0; i < n; i++) await pairGun(i, hub, host, status, guns);
      const timing = await updateAll(hub, host, guns, status, fw, opts.json === true);
      out.update = timing;
      if (opts.json) console.log(JSON.stringify(out, null, 2));
      else {
        console.log(
          `\n${n} guns updated at once over the loopback (real interpreter, ${BOARDS.join(" + ")}): ` +
            `${timing.seconds} s until all ran ${fw} (fastest ${timing.fastestS} s, slowest ${timing.slowestS} s), ` +
            `${(timing.bytesSent / 1024).toFixed(1)} KB of chunks sent, ${timing.failed} failed`,
        );
        console.log(
          `JsVars of ${BOARDS[0]}'s firmware: ${timing.jsvarsFactory} running the USB-flashed bundle, ` +
            `${timing.jsvarsUpdated} running the update from Storage (the USB-flashed bundle loaded first, then it)`,
        );
      }
    } finally {
      for (const g of guns) g.stop();
      await Promise.all(guns.map((g) => g.stopped()));
      await host.close();
      await hub.close();
    }
  },
};
