// @heavy: guns on the real Espruino interpreter, in real time
// The Puck.js v2 gun on the real Espruino interpreter: its bundle, byte for byte as flashed, boots
// from Storage on a board with the Puck's own objects (firmware/espruino/board.js: `Puck` with its LSM6DS3TR-C, LED1-3,
// BTN, the coin cell, and the `Bluetooth` device as the link). It has no WiFi: whatever gun.json says, it speaks the
// line protocol (hardware/SERIAL.md) on Bluetooth once the console has moved away, and through the hub's serial
// bridge it pairs with the real hub, aims, pulls and plays cues on its LEDs like any other gun.
import { gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Hub } from "../../hub/src/hub.js";
import type { Motion } from "../../hub/src/sim/espruino/index.js";
import type { RealGun } from "../../hub/src/sim/espruino/real-gun.js";
import { connect, request, tempDir, testHub } from "../fakes/hub.js";
import {
  countLines,
  expectRefusedConfig,
  isRed,
  onInterpreter,
  pullTwice,
  realGun,
  said,
  sleep,
  usbLines,
  waitFor,
} from "../fakes/real-gun.js";
import { bridgeGun } from "./bluetooth.js";

const board = "puckjs";
const count = countLines;

onInterpreter("the Puck.js bundle on the real interpreter", () => {
  it("boots from Storage with a WiFi gun.json and still takes Bluetooth: no WiFi, no TCP, hello on Bluetooth", async () => {
    const g = await realGun({
      board,
      config: {
        id: "g1",
        secret: "s3cret-factory",
        table: "main",
        hub: { host: "127.0.0.1", port: 9 },
        wifi: { ssid: "party", pass: "pw" },
        hz: 25,
        click: true,
      },
    });
    expect(g.usb.device).toBe("Bluetooth");
    await waitFor(() => count(g, "hello") === 1, 4000, "hello on Bluetooth");
    expect(g.console[0]).toBe("CNG gun g1 fw 0.1.0 on puckjs on Bluetooth");
    // taken at once: Espruino gives the console to whoever connects unless it is forced away
    expect(g.usb.console).toBe("LoopbackA");
    expect(g.now()).toBeLessThan(1500);
    const hello = said(g, "hello")[0];
    // not yet paired: its flashed secret, which only asks to pair
    expect(hello).toEqual({ v: 1, id: "g1", k: "s3cret-factory", fw: "0.1.0" });
    // the greeting on its own LEDs (green) and the piezo pad: two rising tones
    await waitFor(() => g.led.some((l) => l.c !== 0 && (l.c & 0xff00) !== 0 && l.c >> 16 === 0), 2000, "green");
    await waitFor(() => g.tones.filter((t) => t.f > 0).length === 2, 2000, "two tones");
    expect(g.tones.filter((t) => t.f > 0).map((t) => t.f)).toEqual([1800, 2400]);
    // info over Bluetooth: its board, its IMU, its coin cell (2.75 V of a CR2032: 91 %)
    await waitFor(() => count(g, "info") > 0, 2000, "info");
    const info = said(g, "info")[0];
    expect(info).toMatchObject({ b: "puckjs", i: "lsm6ds3", bat: 91, hz: 25 });
    expect(info.rs).toBeUndefined();
    await waitFor(() => count(g, "aim") > 10, 2000, "aim");
    expect(g.wifi.connects).toEqual([]);
    expect(g.connects).toEqual([]);
    expect(g.errors).toEqual([]);
  });

  it("refuses every kind of bad gun.json with its console error, a red blink and a low beep, and never takes the link", async () => {
    // the generic cases run for every board in boot.test.ts and mount.test.ts; these are the Puck's own
    const ok = { id: "g1", secret: "x" };
    const cases: [object | string | null, string][] = [
      [null, "gun.json: missing"],
      [{ ...ok, link: "wifi" }, "gun.json: link must be serial (this board has no WiFi)"],
      [{ ...ok, link: "radio" }, "gun.json: link must be serial (this board has no WiFi)"],
      [{ ...ok, hz: 0 }, "gun.json: hz must be 1-50"],
    ];
    const guns = await Promise.all(cases.map(([config]) => realGun({ board, config })));
    await sleep(2300);
    guns.forEach((g, i) => {
      const why = cases[i]![1];
      expectRefusedConfig(g, cases[i]![0], why);
      // the console stays on Bluetooth: the gun can be reflashed over the air
      expect(g.usb.console, why).toBe("Bluetooth");
      expect(g.usb.out, why).not.toMatch(/hello /);
    });
  }, 60_000);
  // mounted any way (a Puck taped on its side, standing on its edge): tests/espruino/mount.test.ts
});

onInterpreter("a Puck.js gun on the real interpreter, through the hub's serial bridge, with the real hub", () => {
  const data = tempDir("cng-espruino-puck-");
  let hub: Hub & { stop: () => Promise<void> };
  let host: MqttClient;
  let gun: RealGun;
  const seen: { leaf: string; msg: any }[] = [];
  let pose = { yaw: 20, pitch: 10, roll: 0 };
  const id = "puck1";
  const motion: Motion = () => pose;
  const got = (leaf: string) => seen.filter((s) => s.leaf === leaf);
  const status = () => got("status").at(-1)?.msg;

  beforeAll(async () => {
    hub = await testHub({ data: data.dir });
    host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    host.on("message", (topic, payload) => {
      if (payload.length) seen.push({ leaf: topic.split("/").at(-1)!, msg: JSON.parse(payload.toString()) });
    });
    for (const leaf of ["status", "info", "aim"] as const) await host.subscribeAsync(gunTopic(hub.table, id, leaf));
    hub.streams.triggerConsumer = (_gun, _seat, msg) => seen.push({ leaf: "trig", msg });
  });
  afterAll(async () => {
    host?.end(true);
    await hub?.stop();
    data.remove();
  });

  it("pairs: asks over Bluetooth, stores the hub's key in gun.json, comes back through a bridge the hub vouches for", async () => {
    gun = await realGun({ board, config: { id, secret: "factory-secret", table: hub.table }, imu: { motion } }, true);
    await bridgeGun(gun, hub.urls.mqtt, hub.table, true, hub);
    await waitFor(() => status()?.paired === false && status()?.on && status()?.info, 8000, "a pairing request");
    expect(status().info).toMatchObject({ b: board, i: "lsm6ds3", fw: "0.1.0" });
    const s0 = got("status").length;
    expect(await request(host, hub.table, "pair.accept", { gun: id, seat: 1 }, hub.pin)).toMatchObject({ ok: true });
    // the bridge leaves its pairing session once the gun said hello again, and comes back with the hub's login for it
    await waitFor(
      () =>
        got("status")
          .slice(s0)
          .some((x) => x.msg.why === "disconnect") &&
        status()?.paired &&
        status()?.on,
      8000,
      "back through a proven link",
    );
    const stored = JSON.parse((await gun.readFile("gun.json"))!);
    expect(stored.secret).not.toBe("factory-secret");
    expect(stored.secret.length).toBeGreaterThanOrEqual(16);
    expect(stored.paired).toBe(1);
    // its hello names a nonce now, never the key; the bridge proved the link over it
    const hello = JSON.parse(
      usbLines(gun)
        .filter((l) => l.startsWith("hello "))
        .at(-1)!
        .slice(6),
    );
    expect(hello).toEqual({ v: 1, id, n: expect.stringMatching(/^[0-9a-f]{16}$/), fw: "0.1.0" });
    expect(usbLines(gun).filter((l) => l.startsWith("hello ") && l.includes(stored.secret))).toEqual([]);
    expect(gun.errors).toEqual([]);
  }, 30_000);

  it("streams aim at the rate asked, following a turn", async () => {
    const infos = got("info").length;
    await hub.guns.command(id, { c: "rate", hz: 50 });
    // its answer, however many other infos came meanwhile
    await waitFor(
      () =>
        got("info")
          .slice(infos)
          .some((i) => i.msg.hz === 50),
      8000,
      "info at 50 Hz",
    );
    await sleep(300);
    const from = got("aim").length;
    await sleep(2000);
    const rate = (got("aim").length - from) / 2;
    // an interpreter starved by a busy machine streams slower, never faster: above 30 still tells 50 Hz from the
    // 25 Hz its gun.json asks
    expect(rate).toBeGreaterThan(30);
    // (after a stall its samples arrive bunched; it never streams faster than the 50 Hz it is told)
    expect(rate).toBeLessThan(75);
    await hub.guns.command(id, { c: "rate", hz: 25 });
    await sleep(500);
    const y0 = got("aim").at(-1)!.msg.y;
    const t0 = gun.now() + gun.leadMs;
    const start = { ...pose };
    gun.imu.motion = (t) => {
      const k = Math.min(1, Math.max(0, (t * 1000 - t0) / 600));
      return { yaw: start.yaw + 50 * k, pitch: start.pitch + 10 * k, roll: 0 };
    };
    await sleep(2000);
    const a = got("aim").at(-1)!.msg;
    console.log(`puckjs: turned 50° left, 10° up: aim ${(a.y - y0).toFixed(1)}° / ${a.p}°`);
    // within 5°: a gun that does not follow is off by 10° or more; how closely it follows is `cng bench`'s to tell
    expect(Math.abs(a.y - y0 - 50)).toBeLessThan(5);
    expect(Math.abs(a.p - 20)).toBeLessThan(5);
    expect(a.s).toBe(1);
    pose = { yaw: start.yaw + 50, pitch: 20, roll: 0 };
    gun.imu.motion = motion;
  }, 20_000);

  it("sends trigger events from its button, and clicks at once", async () => {
    await pullTwice(gun, () => got("trig"));
  });

  it("plays cues on its LEDs at the hub's time", async () => {
    const from = gun.led.length;
    const at = Date.now() + 1000;
    // the same instant in gun ms, for a plain timer beside it: what the machine's load does to both cancels out
    const ref = gun.timerAt(at - (Date.now() - gun.now()));
    hub.play.dispatcher.cue(1, "wound", { at });
    const red = await waitFor(() => gun.led.slice(from).find((l) => isRed(l.c)), 4000, "the red LED");
    const off = Date.now() - gun.now() + red.t - at;
    const clock = red.t - (await ref);
    console.log(
      `puckjs: the wound cue lit red ${off.toFixed(1)} ms off the hub's time, ${clock.toFixed(1)} ms off a plain timer`,
    );
    // how close is `cng bench`'s to tell; a cue played on arrival (1 s early) or a clock far off fails here
    expect(Math.abs(clock)).toBeLessThan(300);
    expect(gun.errors).toEqual([]);
  });
});
