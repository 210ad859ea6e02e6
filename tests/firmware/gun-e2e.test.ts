// @real-time: guns in the vm keep real time (cues and clock sync to the millisecond)
// The flashed bundle of every board, run on a virtual Espruino board against a real broker.
import { decodeAim, decodeInfo, decodeTrigger, gunTopic } from "@cng/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { boardNames, createVirtualGun, loadBoard, type VirtualGun } from "../../hub/src/sim/espruino/index.js";
import { hubClient, startBroker, type TestBroker } from "../fakes/broker.js";
import { sleep, waitFor } from "../fakes/hub.js";

let broker: TestBroker;
let hub: Awaited<ReturnType<typeof hubClient>>;
const guns: VirtualGun[] = [];

beforeEach(async () => {
  broker = await startBroker();
  hub = await hubClient(broker.port);
});
afterEach(async () => {
  for (const g of guns.splice(0)) g.stop();
  await hub.close();
  await broker.close();
});

function gun(board: string, id: string, extra: object = {}) {
  broker.creds.set(id, `s-${id}`);
  const g = createVirtualGun({
    board,
    config: { id, secret: `s-${id}`, table: "t1", hub: { host: "127.0.0.1", port: broker.port }, ...extra },
    imu: { motion: () => ({ yaw: 30, pitch: 10, roll: 0 }) },
  });
  guns.push(g);
  return g;
}

const on = (id: string, leaf: string) => hub.got.filter((m) => m.topic === gunTopic("t1", id, leaf as "aim"));

// the boards on WiFi + MQTT; the Puck.js (Bluetooth only) goes through the serial bridge: serial-link.test.ts runs its
// bundle on the virtual board (and tests/espruino/puck.test.ts on the real interpreter)
const WIFI = boardNames().filter((b) => (loadBoard(b).links ?? ["wifi"]).includes("wifi"));

describe.each(WIFI)("bundle %s on a virtual board", (board) => {
  it("connects with its credentials, says who it is, streams aim and sends trigger events", async () => {
    const g = gun(board, "g1", { wifi: { ssid: "party", pass: "pw" } });
    const info = await waitFor(() => on("g1", "info")[0], 5000, "info");
    const d = decodeInfo(info.text);
    expect(d.ok, info.text).toBe(true);
    // the info is retained: a hub that starts later still learns it
    const late = await hubClient(broker.port);
    const kept = await waitFor(() => late.got.find((m) => m.topic === info.topic), 3000, "retained info");
    expect(kept.retain).toBe(true);
    await late.close();
    expect(info.msg).toMatchObject({ b: board, i: loadBoard(board).imu.kind, hz: 25 });
    expect(info.msg.mem).toBeGreaterThan(0);
    // a LiPo gun says its volts (the virtual board's 3.9 V), uncalibrated; the hub derives the charge
    expect(info.msg).toMatchObject({ bv: 3.9, bk: 1 });
    expect(info.msg.bat).toBeUndefined();
    expect(g.wifi.connects[0]).toEqual({ ssid: "party", password: "pw" });

    // aim: valid samples near the pose, at about 25 Hz
    await waitFor(() => on("g1", "aim").length >= 20, 5000, "aim");
    const aims = on("g1", "aim");
    for (const a of aims.slice(-10)) expect(decodeAim(a.text).ok, a.text).toBe(true);
    const last = aims[aims.length - 1].msg;
    expect(Math.abs(last.p - 10)).toBeLessThan(1.5);
    if (board.includes("bno085")) expect(Math.abs(last.y - 30)).toBeLessThan(0.5);
    // about 25 Hz by the gun's own clock: the most samples within 200 ms is 5 (a busy machine delays the gun's timer
    // for a while, so the hub's receive times say little, and it cannot put ten samples in 200 ms)
    const ts = aims.slice(-20).map((a) => a.msg.t as number);
    let most = 0;
    for (let i = 0, j = 0; i < ts.length; i++) {
      while (ts[i]! - ts[j]! >= 200) j++;
      most = Math.max(most, i - j + 1);
    }
    expect(most).toBeGreaterThanOrEqual(4);
    expect(most).toBeLessThanOrEqual(7);

    // a pull: press, local click at once, then release
    g.button.press();
    await waitFor(() => g.tones.some((t) => t.f > 0), 1000, "click");
    await sleep(100);
    g.button.release();
    const trig = await waitFor(() => (on("g1", "trig").length >= 2 ? on("g1", "trig") : undefined), 3000, "trig");
    for (const t of trig) expect(decodeTrigger(t.text).ok, t.text).toBe(true);
    expect(trig.map((t) => t.msg.k)).toEqual(["p", "r"]);
    expect(trig.map((t) => t.msg.n)).toEqual([1, 2]);
    expect(trig[1].msg.d).toBeGreaterThanOrEqual(80);
    expect(g.errors).toEqual([]);
  });

  it("obeys cues and commands, and reports bad ones without stopping", async () => {
    const g = gun(board, "g2");
    await waitFor(() => on("g2", "info")[0], 5000, "info");
    const cue = gunTopic("t1", "g2", "cue");
    const cmd = gunTopic("t1", "g2", "cmd");
    await hub.c.publishAsync(cmd, "not json", { qos: 1 });
    await hub.c.publishAsync(cmd, JSON.stringify({ v: 1, n: 1, c: "dance" }), { qos: 1 });
    await hub.c.publishAsync(cue, JSON.stringify({ v: 1, n: 2, c: "wound", l: [0xff0000, 50, 0x0000ff, 10] }), {
      qos: 1,
    });
    await hub.c.publishAsync(cue, JSON.stringify({ v: 1, n: 3, c: "beat", b: [880, 40, 0, 10] }), { qos: 1 });
    const errs = await waitFor(() => (on("g2", "err").length >= 2 ? on("g2", "err") : undefined), 3000, "err");
    expect(errs.map((e) => e.msg.e)).toEqual(["cmd", "cmd"]);
    await waitFor(() => g.led.some((l) => l.c >> 16 > 0 && (l.c & 0xffff) === 0), 2000, "red");
    await waitFor(() => (g.ledNow() & 0xff) > 0 && g.ledNow() >> 8 === 0, 2000, "blue stays on");
    await waitFor(() => g.tones.some((t) => t.f === 880), 2000, "880 Hz");
    await waitFor(() => g.toneNow() === 0, 2000, "silence");

    // the rate command changes the aim rate: the most samples within 200 ms of the gun's own clock, about 5 at 25 Hz
    // and 10 at 50 Hz (a busy machine delays the gun's timer for a while; it cannot put ten samples in 200 ms)
    expect(on("g2", "info")[0].msg.hz).toBe(25);
    const densestIn1s = async () => {
      const from = on("g2", "aim").length;
      await sleep(1000);
      const ts = on("g2", "aim")
        .slice(from)
        .map((a) => a.msg.t as number);
      let most = 0;
      for (let i = 0, j = 0; i < ts.length; i++) {
        while (ts[i]! - ts[j]! >= 200) j++;
        most = Math.max(most, i - j + 1);
      }
      return most;
    };
    expect(await densestIn1s()).toBeLessThanOrEqual(7);
    await hub.c.publishAsync(cmd, JSON.stringify({ v: 1, n: 4, c: "rate", hz: 50 }), { qos: 1 });
    await waitFor(() => on("g2", "info").some((i) => i.msg.hz === 50), 3000, "hz 50");
    expect(await densestIn1s()).toBeGreaterThanOrEqual(8);
    expect(g.errors).toEqual([]);
  });
});
