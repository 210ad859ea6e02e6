// Attack: filling the pairing slots with made-up guns, and leaving things behind through them. One address may keep
// 2 guns waiting and bring 4 new ids a minute, so a real new gun still gets in; nothing an unpaired gun says is
// retained; a gun's info that does not check out reaches no viewer; and the dashboard builds text, never markup.
import { readdirSync, readFileSync } from "node:fs";
import { gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEW_PENDING_PER_MINUTE, PENDING_PER_SOURCE } from "../../hub/src/broker/pending-door.js";
import { projectRoot } from "../../hub/src/sim/espruino/index.js";
import { connect, nextMessage, request, sleep, testHub, waitFor } from "../fakes/hub.js";
import { clientFrom } from "../fakes/raw-mqtt.js";

const INFO = JSON.stringify({ v: 1, fw: "0.1.0", b: "esp32-mpu6050", i: "mpu6050", up: 1 });

describe("guns waiting to be paired", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  const open: MqttClient[] = [];
  beforeAll(async () => {
    hub = await testHub();
  });
  afterAll(async () => {
    for (const c of open) c.end(true);
    await hub.stop();
  });

  const gunFrom = async (from: string, id: string) => {
    const c = await clientFrom(from, hub.ports.mqtt!, { clientId: `${hub.table}-${id}`, username: id, password: "x" });
    open.push(c);
    return c;
  };

  it("one address cannot fill the pairing slots; a real new gun still gets in", async () => {
    const results: string[] = [];
    for (let i = 0; i < 16; i++) {
      try {
        await gunFrom("127.0.0.5", `fake${i}`);
        results.push("in");
      } catch (e) {
        results.push((e as Error).message);
      }
    }
    expect(results.filter((r) => r === "in").length).toBe(PENDING_PER_SOURCE);
    expect(results.slice(PENDING_PER_SOURCE).every((r) => /Server unavailable/i.test(r))).toBe(true);
    // the real gun, from its own address
    const host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    open.push(host);
    const asks = nextMessage(host, gunTopic(hub.table, "realgun", "status"), (m) => m.paired === false && m.on);
    await gunFrom("127.0.0.6", "realgun");
    await asks;
  });

  it("one address cycling through made-up ids gets a few a minute", async () => {
    const results: boolean[] = [];
    for (let i = 0; i < 10; i++) {
      try {
        const c = await gunFrom("127.0.0.7", `cyc${i}`);
        c.end(true);
        await sleep(20);
        results.push(true);
      } catch {
        results.push(false);
      }
    }
    expect(results.filter(Boolean).length).toBe(NEW_PENDING_PER_MINUTE);
  });

  it("leaves nothing retained, and its info reaches no viewer unless it checks out", async () => {
    const live: string[] = [];
    const viewer = await connect(hub.urls.mqtt);
    open.push(viewer);
    viewer.on("message", (t, p) => live.push(`${t} ${p}`));
    await viewer.subscribeAsync(gunTopic(hub.table, "+", "info"));
    const g = await gunFrom("127.0.0.8", "hostile1");
    const bad = JSON.stringify({ v: 1, fw: "<img src=x onerror=alert(1)>", b: "esp32", i: "mpu6050", up: 1 });
    await g.publishAsync(gunTopic(hub.table, "hostile1", "info"), bad, { qos: 1, retain: true });
    await g.publishAsync(gunTopic(hub.table, "hostile1", "info"), INFO, { qos: 1, retain: true });
    // the good one arrives; the bad one, sent before it on the same link, never did
    await waitFor(() => live.some((l) => l.endsWith(INFO)), 3000, "the good info");
    expect(live.filter((l) => l.includes("hostile1"))).toEqual([`${gunTopic(hub.table, "hostile1", "info")} ${INFO}`]);
    // a viewer that comes later finds nothing retained for it
    const late: string[] = [];
    const later = await connect(hub.urls.mqtt);
    open.push(later);
    later.on("message", (t, p) => p.length && late.push(`${t} ${p}`));
    await later.subscribeAsync(gunTopic(hub.table, "+", "info"));
    await sleep(200);
    expect(late.filter((l) => l.includes("hostile1"))).toEqual([]);
    // the host rejects it: its status goes too, nothing is left
    const host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    open.push(host);
    expect(await request(host, hub.table, "pair.reject", { gun: "hostile1" }, hub.pin)).toMatchObject({ ok: true });
    await sleep(200);
    const last: string[] = [];
    const after = await connect(hub.urls.mqtt);
    open.push(after);
    after.on("message", (t, p) => p.length && last.push(`${t} ${p}`));
    for (const leaf of ["info", "status", "cal"] as const) await after.subscribeAsync(gunTopic(hub.table, "+", leaf));
    await sleep(200);
    expect(last.filter((l) => l.includes("hostile1"))).toEqual([]);
  });

  it("many made-up ids from the hub's own machine leave no retained message behind them", async () => {
    for (let i = 0; i < 30; i++) {
      const c = await connect(hub.urls.mqtt, { clientId: `${hub.table}-rot${i}`, username: `rot${i}`, password: "x" });
      await c.publishAsync(gunTopic(hub.table, `rot${i}`, "info"), INFO, { qos: 1, retain: true });
      c.end(true);
    }
    await sleep(300);
    const seen: string[] = [];
    const viewer = await connect(hub.urls.mqtt);
    open.push(viewer);
    viewer.on("message", (t, p) => p.length && t.includes("/rot") && seen.push(t));
    for (const leaf of ["info", "status", "cal"] as const) await viewer.subscribeAsync(gunTopic(hub.table, "+", leaf));
    await sleep(300);
    expect(seen).toEqual([]);
  });
});

it("the dashboard builds text, never markup: no HTML sinks, no handler from a string", () => {
  const dir = `${projectRoot}hub/src/web/public/`;
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".js"))) {
    const src = readFileSync(dir + f, "utf8");
    expect(src, f).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function\(/);
  }
  // h()'s attributes: an "on…" attribute given a string is dropped (it would run)
  const ui = readFileSync(`${dir}ui.js`, "utf8");
  expect(ui).toMatch(/if \(k\.startsWith\("on"\)\) \{\n\s+if \(typeof v === "function"\)/);
});
