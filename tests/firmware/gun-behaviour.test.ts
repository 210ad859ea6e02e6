// @real-time: guns in the vm keep real time (cues and clock sync to the millisecond)
// Trigger patterns, clock sync with synchronized cues, and a gun without a usable gun.json.
import { decodeCommand, gunTopic } from "@cng/protocol";
import { afterEach, expect, it } from "vitest";
import { createVirtualGun, type VirtualGun } from "../../hub/src/sim/espruino/index.js";
import { answerSyncs, hubClient, startBroker } from "../fakes/broker.js";
import { sleep, waitFor } from "../fakes/hub.js";

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup() {
  const broker = await startBroker();
  const hub = await hubClient(broker.port);
  cleanup.push(
    () => broker.close(),
    () => hub.close(),
  );
  const mk = (id: string, board = "esp32-mpu6050", clock: "real" | "manual" = "real"): VirtualGun => {
    broker.creds.set(id, "x");
    const g = createVirtualGun({
      board,
      clock,
      config: { id, secret: "x", table: "t1", hub: { host: "127.0.0.1", port: broker.port } },
    });
    cleanup.push(() => g.stop());
    return g;
  };
  return { broker, hub, mk };
}

it("reports press, double pull, hold and release, ignoring contact bounce", async () => {
  const { hub, mk } = await setup();
  // gun time moves only when the test says: the pattern timings hold however busy the machine is
  const g = mk("g1", "esp32-mpu6050", "manual");
  const info = waitFor(() => hub.got.some((m) => m.topic.endsWith("g1/info")), 5000, "info");
  for (let i = 0; i < 20 && !hub.got.some((m) => m.topic.endsWith("g1/info")); i++) await g.advance(100);
  await info;
  const trigs = () => hub.got.filter((m) => m.topic === gunTopic("t1", "g1", "trig")).map((m) => m.msg);
  // a bouncy single pull
  g.button.press();
  g.button.release();
  g.button.press();
  await g.advance(120);
  g.button.release();
  await g.advance(450);
  // a double pull, the second one held
  g.button.press();
  await g.advance(80);
  g.button.release();
  await g.advance(120);
  g.button.press();
  await g.advance(850);
  g.button.release();
  await g.advance(100);
  await waitFor(() => trigs().length >= 8, 3000, "8 events");
  const t = trigs();
  expect(t.map((x) => x.k)).toEqual(["p", "r", "p", "r", "p", "2", "h", "r"].slice(0, t.length));
  expect(t.length).toBe(8);
  expect(t.map((x) => x.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(t[6].d).toBeGreaterThanOrEqual(650);
  expect(t[7].d).toBeGreaterThanOrEqual(800);
  // one local click per pull, not per event
  const clicks = g.tones.filter((x) => x.f === 2400).length;
  expect(clicks).toBe(3);
});

it("syncs its clock to the hub and plays a timed cue together with another gun", async () => {
  const { hub, mk } = await setup();
  // the hub's clock: far from both guns' clocks; it measures each gun's offset from its stream and says it
  const hubNow = () => Math.round(performance.now()) + 1_700_000_000_000;
  answerSyncs(hub.c, "t1", hubNow);
  const answers: unknown[] = [];
  hub.c.on("message", (topic, payload) => {
    if (/gun\/\w+\/cmd$/.test(topic)) answers.push(decodeCommand(payload.toString()).ok);
  });
  const born1 = performance.now();
  const g1 = mk("g1");
  await sleep(333);
  const born2 = performance.now();
  const g2 = mk("g2", "esp32-bno085");
  await waitFor(() => hub.got.filter((m) => m.topic.endsWith("/sync")).length >= 6, 8000, "syncs");
  const at = hubNow() + 400;
  const cue = JSON.stringify({ v: 1, n: 5, c: "beat", at, b: [1000, 60, 0, 10] });
  hub.c.publish(gunTopic("t1", "g1", "cue"), cue, { qos: 1 });
  hub.c.publish(gunTopic("t1", "g2", "cue"), cue, { qos: 1 });
  const b1 = await waitFor(() => g1.tones.find((x) => x.f === 1000), 3000, "g1 beep");
  const b2 = await waitFor(() => g2.tones.find((x) => x.f === 1000), 3000, "g2 beep");
  const wall1 = born1 + b1.t;
  const wall2 = born2 + b2.t;
  const want = at - 1_700_000_000_000;
  expect(Math.abs(wall1 - wall2)).toBeLessThan(15);
  expect(Math.abs(wall1 - want)).toBeLessThan(15);
  expect(answers.length).toBeGreaterThan(0);
  expect(answers.every((ok) => ok)).toBe(true);
  expect(g1.errors).toEqual([]);
  expect(g2.errors).toEqual([]);
});

it("plays every beat of a count the hub sends ahead at once, each at its time", async () => {
  const { hub, mk } = await setup();
  const g = mk("g1", "esp32-mpu6050", "manual");
  for (let i = 0; i < 20 && !hub.got.some((m) => m.topic.endsWith("g1/info")); i++) await g.advance(100);
  // a hub whose clock is the gun's own (offset 0): cue times are then the gun's
  const t0 = g.now();
  const cmd = (n: number) => JSON.stringify({ v: 1, n, c: "time", g: t0, h: t0, o: 0 });
  await hub.c.publishAsync(gunTopic("t1", "g1", "cmd"), cmd(1), { qos: 1 });
  await g.advance(50);
  for (const [i, c] of ["beat", "beat", "go"].entries()) {
    const cue = { v: 1, n: 10 + i, c, at: t0 + 500 + 400 * i, b: [700 + 100 * i, 60, 0, 10] };
    await hub.c.publishAsync(gunTopic("t1", "g1", "cue"), JSON.stringify(cue), { qos: 1 });
  }
  await g.advance(50);
  await g.advance(1500);
  const beeps = g.tones.filter((t) => t.f >= 700 && t.f <= 900);
  expect(beeps.map((t) => t.f)).toEqual([700, 800, 900]);
  for (const [i, b] of beeps.entries()) expect(Math.abs(b.t - (t0 + 500 + 400 * i))).toBeLessThan(60);
});

it("drops a timed cue that came after its start (says how many in info), and tells the hub when answers arrive", async () => {
  const { hub, mk } = await setup();
  const g = mk("g1", "esp32-mpu6050", "manual");
  for (let i = 0; i < 20 && !hub.got.some((m) => m.topic.endsWith("g1/info")); i++) await g.advance(100);
  const t0 = g.now();
  await hub.c.publishAsync(
    gunTopic("t1", "g1", "cmd"),
    JSON.stringify({ v: 1, n: 1, c: "time", g: t0, h: 777, o: 0 }),
    {
      qos: 1,
    },
  );
  await g.advance(20);
  const arrived = g.now();
  // one cue already due, one on time
  const late = { v: 1, n: 10, c: "beat", at: g.now() - 5, b: [1100, 60, 0, 10] };
  const ahead = { v: 1, n: 11, c: "beat", at: g.now() + 300, b: [1200, 60, 0, 10] };
  for (const c of [late, ahead]) await hub.c.publishAsync(gunTopic("t1", "g1", "cue"), JSON.stringify(c), { qos: 1 });
  await g.advance(20);
  // the cue without a time plays at once, late or not
  await hub.c.publishAsync(gunTopic("t1", "g1", "cue"), JSON.stringify({ v: 1, n: 12, c: "ident", b: [1300, 50] }), {
    qos: 1,
  });
  await g.advance(600);
  expect(g.tones.filter((t) => t.f === 1100)).toEqual([]);
  expect(g.tones.filter((t) => t.f === 1200).length).toBe(1);
  expect(g.tones.filter((t) => t.f === 1300).length).toBe(1);
  const infos = () => hub.got.filter((m) => m.topic.endsWith("g1/info"));
  const before = infos().length;
  await hub.c.publishAsync(gunTopic("t1", "g1", "cmd"), JSON.stringify({ v: 1, n: 2, c: "info" }), { qos: 1 });
  for (let i = 0; i < 10 && infos().length === before; i++) await g.advance(20);
  expect(infos().at(-1)!.msg.lc).toBe(1);
  // the next probe says when our answer (hub ms 777) reached the gun
  for (let i = 0; i < 120 && !hub.got.some((m) => m.topic.endsWith("g1/sync") && m.msg.h === 777); i++)
    await g.advance(100);
  const probe = hub.got.find((m) => m.topic.endsWith("g1/sync") && m.msg.h === 777)!.msg;
  expect(Math.abs(probe.a - arrived)).toBeLessThan(25);
});

it("says clearly when gun.json is missing or invalid, blinks red and stays off the network", async () => {
  for (const [config, why] of [
    [null, "gun.json: missing"],
    ["{not json", "gun.json: missing"],
    [{ id: "Bad Id!", secret: "x", hub: { host: "h" } }, "gun.json: id"],
    [{ id: "g1", secret: "x" }, "gun.json: hub.host missing"],
    [{ id: "g1", secret: "x", hub: { host: "h" }, hz: 500 }, "gun.json: hz"],
  ] as const) {
    const g = createVirtualGun({ board: "esp8266-mpu6050", config, clock: "manual" });
    cleanup.push(() => g.stop());
    await g.advance(3000);
    expect(g.console.join("\n")).toContain(why);
    expect(g.led.filter((l) => l.c >> 16 > 0 && (l.c & 0xffff) === 0).length).toBeGreaterThanOrEqual(3);
    expect(g.sockets).toEqual([]);
    expect(g.errors).toEqual([]);
  }
});
