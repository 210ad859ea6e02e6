// @real-time: guns in the vm keep real time (cues and clock sync to the millisecond)
// A gun on a USB cable (hardware/SERIAL.md): the real esp32-mpu6050 bundle in serial mode, on the virtual board
// and on the real Espruino interpreter (whose USB device is the cable: its console really moves away and back),
// its USB serial port wired to the real hub bridge (hub/src/serial) through serialport's MockBinding, the bridge
// on a real aedes broker that checks the gun's credentials.
//
// The cable: the bridge opens a SerialPortMock as it would a /dev/ttyUSB0; what the board writes on
// its USB port is fed to that mock port (emitData), and what the bridge writes to the port goes to
// the board's USB port (gun.usb.send). So the bridge's own port handling, line splitting, checks and
// MQTT session are all in the path, as on a real cable.

import { createHash, createHmac } from "node:crypto";
import { decodeAim, decodeInfo, decodeTrigger, gunTopic } from "@cng/protocol";
import type { MockPortBinding } from "@serialport/binding-mock";
import { SerialPortMock } from "serialport";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SerialGunBridge, startSerialGunBridge } from "../../hub/src/serial/index.js";
import { type MockPort, plug } from "../../hub/src/sim/espruino/cable.js";
import {
  createGun,
  createVirtualGun,
  type Gun,
  type GunRuntime,
  type RealGun,
  type VirtualGun,
} from "../../hub/src/sim/espruino/index.js";
import { hubClient, startBroker, type TestBroker } from "../fakes/broker.js";
import { sleep, waitFor } from "../fakes/hub.js";
import { fakeLog } from "../fakes/log.js";
import { interpreter } from "../fakes/real-gun.js";

// serialport's own MockBinding instance (the ESM and CommonJS builds of binding-mock are two registries)
const MockBinding = SerialPortMock.binding;
const PATH = "/dev/ttyUSB-gun";
const BOARD = "esp32-mpu6050";

let broker: TestBroker;
let hub: Awaited<ReturnType<typeof hubClient>>;
let bridge: SerialGunBridge | null = null;
const guns: Gun[] = [];

beforeEach(async () => {
  broker = await startBroker();
  hub = await hubClient(broker.port);
});
afterEach(async () => {
  for (const g of guns.splice(0)) g.stop();
  await bridge?.close();
  bridge = null;
  await hub.close();
  await broker.close();
});

/** Lines the gun wrote on its USB port (console chatter included). */
const lines = (g: Gun) => g.usb.out.split(/\r?\n/).filter(Boolean);

/** gun.json as the board has it now */
async function stored(g: Gun): Promise<{ secret?: string }> {
  const text =
    g.runtime === "vm" ? (g as VirtualGun).storage.get("gun.json") : await (g as RealGun).readFile("gun.json");
  return JSON.parse(text ?? "{}");
}

function gun(config: object, clock: "real" | "manual" = "real", board = BOARD): VirtualGun {
  const g = createVirtualGun({ board, config, clock, imu: { motion: () => ({ yaw: 30, pitch: 10, roll: 0 }) } });
  guns.push(g);
  return g;
}

const on = (leaf: string) => hub.got.filter((m) => m.topic === gunTopic("t1", "g1", leaf as "aim"));
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
/** what the hub would vouch for a paired gun with (the test's own, set when it pairs) */
let vouch: (gun: string, n: string) => { token: string; m: string } | null = () => null;

// the real interpreter too, where it is built (tests/fakes/real-gun.ts says when it is not)
const RUNTIMES: GunRuntime[] = interpreter.path ? ["vm", "espruino"] : ["vm"];

// an ESP32 on its USB cable, and a Puck.js on Bluetooth (its Nordic UART carries the same lines to the same bridge)
describe.each<[GunRuntime, string]>(
  RUNTIMES.flatMap((r) => [[r, BOARD] as [GunRuntime, string], [r, "puckjs"] as [GunRuntime, string]]),
)("a gun on a USB cable, through the hub's serial bridge (%s, %s)", (runtime, BOARD) => {
  it("says hello, streams aim and trigger events to MQTT, plays cues, and takes the pairing key", async () => {
    broker.creds.set("g1", "s-g1");
    MockBinding.reset();
    MockBinding.createPort(PATH, { echo: false, record: true });
    const l = fakeLog();
    bridge = startSerialGunBridge({
      path: PATH,
      mqttUrl: `mqtt://127.0.0.1:${broker.port}`,
      table: "t1",
      log: l.log,
      openPort: (path, baudRate) => new SerialPortMock({ path, baudRate, autoOpen: false }),
      retryMs: 0,
      credentials: (gun, n) => vouch(gun, n),
    });
    const port = await waitFor(() => bridge!.port?.isOpen && (bridge!.port.port as MockPortBinding), 3000, "the port");
    // no wifi, no hub host: serial mode by itself
    const g = await createGun({
      runtime,
      board: BOARD,
      config: { id: "g1", secret: "s-g1", table: "t1" },
      imu: { motion: () => ({ yaw: 30, pitch: 10, roll: 0 }) },
    });
    guns.push(g);
    plug(g, port as unknown as MockPort);

    // on a cable the console stays on USB for 2 s (cng flash can get in), then moves away and the gun says hello; on
    // Bluetooth, where anyone in range connects, it moves at once
    const bt = BOARD === "puckjs";
    if (!bt) expect(g.usb.console).toBe(g.usb.device);
    const hello = await waitFor(() => lines(g).find((x) => x.startsWith("hello ")), 4000, "hello");
    expect(g.usb.console).toBe("LoopbackA");
    // not yet paired: its flashed secret, which only asks to pair
    expect(JSON.parse(hello.slice(6))).toEqual({ v: 1, id: "g1", k: "s-g1", fw: expect.any(String) });
    if (bt) expect(g.now()).toBeLessThan(1500);
    else expect(g.now()).toBeGreaterThanOrEqual(2000);

    // on the broker as g1 with its secret: info (retained), then aim
    await waitFor(() => bridge!.online, 3000, "the bridge on the broker");
    const info = await waitFor(() => on("info")[0], 3000, "info");
    expect(decodeInfo(info.text).ok, info.text).toBe(true);
    expect(info.msg).toMatchObject({ b: BOARD, i: BOARD === "puckjs" ? "lsm6ds3" : "mpu6050", hz: 25 });
    // retained: a hub that comes later still learns it
    const late = await hubClient(broker.port);
    expect((await waitFor(() => late.got.find((m) => m.topic === info.topic), 3000, "retained info")).retain).toBe(
      true,
    );
    await late.close();
    await waitFor(() => on("aim").length >= 10, 3000, "aim");
    for (const a of on("aim").slice(-5)) expect(decodeAim(a.text).ok, a.text).toBe(true);
    expect(Math.abs(on("aim").at(-1)!.msg.p - 10)).toBeLessThan(1.5);

    // a pull: at once on MQTT, QoS 1
    g.button.press();
    await sleep(100);
    g.button.release();
    const trig = await waitFor(() => (on("trig").length >= 2 ? on("trig") : undefined), 3000, "trig");
    for (const t of trig) expect(decodeTrigger(t.text).ok, t.text).toBe(true);
    expect(trig.map((t) => t.msg.k)).toEqual(["p", "r"]);

    // a cue on MQTT comes down the cable and lights the LED red
    const sent = g.now();
    await hub.c.publishAsync(
      gunTopic("t1", "g1", "cue"),
      JSON.stringify({ v: 1, n: 7, c: "wound", l: [0xff0000, 150, 0, 100], b: [220, 250], rp: 1 }),
      { qos: 1 },
    );
    // full red at the board's brightness cap (0.5 on the ESP32's RGB LED and on the Puck's own LEDs)
    const red0 = (g.board.led.kind === "neopixel" ? Math.floor : Math.round)(255 * (g.board.led.max ?? 1)) << 16;
    const red = await waitFor(() => g.led.find((e) => e.t >= sent && e.c === red0), 3000, "the red LED");
    expect(red).toBeTruthy();

    // pairing: the hub's key comes down as a command; the gun stores it and says hello again, with a nonce and no
    // key; the bridge gets its own login and the answer to the nonce from the hub (here: made as the hub makes them),
    // proves the link, and is on the broker with that login
    const key = "k-0123456789abcdefXYZ";
    const token = "bridge-token-of-g1";
    const asked: string[] = [];
    vouch = (gun, n) => {
      expect(gun).toBe("g1");
      asked.push(n);
      return { token, m: createHmac("sha256", sha256(key)).update(`link ${n}`).digest("hex") };
    };
    broker.creds.set("g1", token);
    const from = g.usb.out.length;
    await hub.c.publishAsync(gunTopic("t1", "g1", "cmd"), JSON.stringify({ v: 1, n: 8, c: "key", k: key }), {
      qos: 1,
    });
    const again = await waitFor(
      () =>
        g.usb.out
          .slice(from)
          .split(/\r?\n/)
          .find((x) => x.startsWith("hello ")),
      3000,
      "hello again",
    );
    expect(JSON.parse(again.slice(6))).toEqual({
      v: 1,
      id: "g1",
      n: expect.stringMatching(/^[0-9a-f]{16}$/),
      fw: expect.any(String),
    });
    expect((await stored(g)).secret).toBe(key);
    // still streaming on the broker, now as its bridge's login, the key never on the link again
    const n = on("aim").length;
    await waitFor(() => bridge!.online && on("aim").length > n + 5, 3000, "aim after pairing");
    expect(asked).toEqual([JSON.parse(again.slice(6)).n]);
    expect(g.usb.out.slice(from)).not.toContain(key);
    // the bridge dropped nothing but the boot chatter of the console, before the gun took the port
    for (const w of l.said.filter((x) => x.level === "warn")) expect(w.msg).toMatch(/dropped a line \(not `<leaf>/);
    expect(g.errors).toEqual([]);
  }, 15000);
});

describe("the serial link on the virtual board", () => {
  const cfg = { id: "g1", secret: "s-g1", table: "t1", link: "serial", hub: { host: "h" } };

  it("answers who, stops aim while the bridge is off the broker, and gives the console back on repl", async () => {
    const g = gun(cfg, "manual");
    await g.advance(2100);
    expect(g.usb.console).toBe("LoopbackA");
    const count = (leaf: string) => lines(g).filter((x) => x.startsWith(`${leaf} `)).length;
    expect(count("hello")).toBe(1);
    g.usb.send('who {"v":1}\n');
    expect(count("hello")).toBe(2);
    await g.advance(500);
    expect(count("aim")).toBeGreaterThan(5);
    // link off: like a WiFi drop, no aim
    g.usb.send('link {"v":1,"on":0}\r\n');
    let a = count("aim");
    await g.advance(1000);
    expect(count("aim")).toBe(a);
    // link back: info and a clock probe at once, aim again; a line may come in pieces
    const i = count("info");
    g.usb.send('link {"v":1,');
    g.usb.send('"on":1}\n');
    expect(count("info")).toBe(i + 1);
    await g.advance(500);
    expect(count("aim")).toBeGreaterThan(a);
    // a run of garbage longer than a line is skipped up to the next line end
    g.usb.send("x".repeat(3000));
    g.usb.send('more\nwho {"v":1}\n');
    expect(count("hello")).toBe(3);
    // repl: the console is back on USB, the gun sends no more lines
    g.usb.send('repl {"v":1}\n');
    expect(g.usb.console).toBe("Serial1");
    a = count("aim");
    await g.advance(1000);
    expect(count("aim")).toBe(a);
    expect(g.errors).toEqual([]);
  });

  it("keeps the console on USB when the trigger is held through a reset", async () => {
    const g = gun(cfg, "manual");
    g.button.press();
    await g.advance(2500);
    expect(g.usb.console).toBe("Serial1");
    expect(lines(g).some((x) => x.startsWith("hello "))).toBe(false);
    expect(g.console.join("\n")).toMatch(/trigger held/);
  });

  it("stays on WiFi when gun.json has WiFi or a hub, and the ESP8266 build has no serial link", async () => {
    const w = gun({ id: "g1", secret: "s-g1", hub: { host: "127.0.0.1", port: 1 } }, "manual");
    await w.advance(2500);
    expect(w.usb.console).toBe("Serial1");
    expect(w.console.join("\n")).not.toMatch(/USB serial|gun.json/);
    const e = gun(cfg, "manual", "esp8266-mpu6050");
    await e.advance(2500);
    expect(e.usb.console).toBe("Serial1");
    expect(e.console.join("\n")).toMatch(/gun.json: link must be wifi/);
  });
});
