// A USB-tethered gun bridged onto the broker, on serialport's MockBinding.
import type { MockPortBinding } from "@serialport/binding-mock";
import mqtt from "mqtt";
import { SerialPortMock } from "serialport";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SerialGunBridge, startSerialGunBridge } from "../../hub/src/serial/index.js";
import { bareBroker } from "../fakes/bare-broker.js";
import { waitFor } from "../fakes/hub.js";
import { fakeLog } from "../fakes/log.js";

// serialport's own MockBinding instance (the ESM and CommonJS builds of binding-mock are two registries).
const MockBinding = SerialPortMock.binding;
const PATH = "/dev/ttyUSB-cng";
const AIM = '{"v":1,"t":1200,"y":-45.5,"p":3.2,"r":0.1}';
const TRIG = '{"v":1,"n":1,"k":"p","t":1300}';
const INFO = '{"v":1,"fw":"0.3.0","b":"esp32-mpu6050","i":"mpu6050","bat":80,"up":12}';

type Broker = Awaited<ReturnType<typeof bareBroker>>;

let broker: Broker;
let bridge: SerialGunBridge | null;

beforeEach(async () => {
  MockBinding.reset();
  MockBinding.createPort(PATH, { echo: false, record: true });
  broker = await bareBroker();
});

afterEach(async () => {
  await bridge?.close();
  bridge = null;
  await broker.close();
});

function start(opts: { retryMs?: number; idleMs?: number } = {}) {
  const l = fakeLog();
  bridge = startSerialGunBridge({
    path: PATH,
    mqttUrl: broker.url,
    table: "t1",
    log: l.log,
    openPort: (path, baudRate) => new SerialPortMock({ path, baudRate, autoOpen: false }),
    retryMs: opts.retryMs ?? 0,
    idleMs: opts.idleMs,
  });
  return l;
}

/** The mock serial device the bridge holds open: the gun's end of the cable. */
async function gunEnd(): Promise<MockPortBinding> {
  const p = await waitFor(() => bridge!.port?.isOpen && bridge!.port, 3000, "the port to open");
  return p.port as MockPortBinding;
}

const written = (g: MockPortBinding) => g.recording.toString().split("\n").filter(Boolean);

describe("serial gun bridge", () => {
  it("asks who is there, then publishes the gun's lines on its topics", async () => {
    start();
    const g = await gunEnd();
    await waitFor(() => written(g).includes('who {"v":1}'), 3000, "a who line");
    g.emitData(`hello {"v":1,"id":"g1"}\naim ${AIM}\n`);
    await waitFor(() => bridge!.online, 3000, "the gun on the broker");
    g.emitData(`aim ${AIM}\ntrig ${TRIG}\r\ninfo ${INFO}\n`);
    await waitFor(() => broker.seen.some((m) => m.topic.endsWith("/info")), 3000, "info");
    const got = (leaf: string) => broker.seen.filter((m) => m.topic === `cng/v1/t1/gun/g1/${leaf}`);
    expect(got("aim").at(-1)?.text).toBe(AIM);
    expect(got("trig").map((m) => m.text)).toEqual([TRIG]);
    // info is retained: a dashboard that comes later still sees it
    const late = await mqtt.connectAsync(broker.url, { clientId: "late" });
    const retained = new Promise<string>((r) => late.on("message", (_t, p) => r(p.toString())));
    await late.subscribeAsync("cng/v1/t1/gun/g1/info");
    expect(await retained).toBe(INFO);
    await late.endAsync();
    expect(written(g)).toContain('link {"v":1,"on":1}');
  });

  it("sends the hub's cues and commands down the cable, and only well-formed ones", async () => {
    start();
    const g = await gunEnd();
    g.emitData('hello {"v":1,"id":"g1"}\n');
    await waitFor(() => bridge!.online, 3000, "the gun on the broker");
    const cue = '{"v":1,"n":7,"c":"wound","l":[16711680,150,0,100],"b":[220,250],"rp":3}';
    await broker.watcher.publishAsync("cng/v1/t1/gun/g1/cue", '{"v":1,"n":6,"c":"boom"}', { qos: 1 });
    await broker.watcher.publishAsync("cng/v1/t1/gun/g1/cue", cue, { qos: 1 });
    await broker.watcher.publishAsync("cng/v1/t1/gun/g1/cmd", '{"v":1,"n":8,"c":"rate","hz":50}', { qos: 1 });
    await waitFor(() => written(g).some((l) => l.startsWith("cmd ")), 3000, "the command line");
    expect(written(g).filter((l) => /^(cue|cmd) /.test(l))).toEqual([
      `cue ${cue}`,
      'cmd {"v":1,"n":8,"c":"rate","hz":50}',
    ]);
  });

  it("drops bad lines with a clear log line and keeps going", async () => {
    const l = start();
    const g = await gunEnd();
    g.emitData(`aim ${AIM}\n`);
    await waitFor(() => l.text("warn").includes("before its hello"), 3000, "a warning about the missing hello");
    g.emitData('hello {"v":1,"id":"g1"}\n');
    await waitFor(() => bridge!.online, 3000, "the gun on the broker");
    g.emitData('Guru Meditation Error\naim {"v":1,"t":1,"y":999,"p":0,"r":0}\n');
    g.emitData(`aim ${AIM}\n`);
    await waitFor(() => broker.seen.some((m) => m.topic.endsWith("/g1/aim")), 3000, "the good aim");
    expect(broker.seen.filter((m) => m.topic.endsWith("/aim"))).toHaveLength(1);
    expect(l.text("warn")).toMatch(/dropped a line \(not `<leaf> <json>`\)/);
    expect(l.text("warn")).toMatch(/dropped a line \(aim: y must be between -180 and 180\)/);
  });

  it("closes even when the broker never takes the gun's will (a broker going away as the bridge leaves)", async () => {
    start();
    const g = await gunEnd();
    g.emitData('hello {"v":1,"id":"g1"}\n');
    await waitFor(() => bridge!.online, 3000, "the gun on the broker");
    // the broker holds the will's PUBLISH unanswered: no PUBACK ever comes
    broker.aedes.authorizePublish = (_c, p, done) => {
      if (!p.topic.endsWith("/will")) done(null);
    };
    const t = Date.now();
    await bridge!.close();
    bridge = null;
    expect(Date.now() - t).toBeLessThan(10_000);
  });

  it("publishes the gun's will when it is unplugged, and takes it back when replugged", async () => {
    const l = start({ retryMs: 50 });
    const g = await gunEnd();
    g.emitData('hello {"v":1,"id":"g1"}\n');
    await waitFor(() => bridge!.online, 3000, "the gun on the broker");
    // Unplugging: the next read fails the way a vanished USB device does.
    g.read = () => Promise.reject(new Error("Input/output error"));
    g.emitData("\n");
    await waitFor(() => broker.seen.some((m) => m.topic === "cng/v1/t1/gun/g1/will"), 3000, "the will");
    expect(broker.seen.find((m) => m.topic.endsWith("/will"))?.text).toBe('{"v":1,"on":0}');
    expect(l.text("warn")).toMatch(/serial gun g1 on \/dev\/ttyUSB-cng: unplugged; trying again/);
    expect(bridge!.online).toBe(false);
    const again = await waitFor(
      () => bridge!.port?.isOpen && bridge!.port !== null && (bridge!.port.port as MockPortBinding),
      3000,
      "the port back",
    );
    expect(again).not.toBe(g);
    await waitFor(() => written(again).includes('who {"v":1}'), 3000, "a new who");
    again.emitData('hello {"v":1,"id":"g1"}\n');
    await waitFor(() => bridge!.online, 3000, "the gun back on the broker");
  });

  it("says so when the gun's port is missing, and does not throw", async () => {
    MockBinding.reset();
    const l = start();
    await waitFor(() => l.text("warn"), 3000, "a warning");
    expect(l.text("warn")).toMatch(/ttyUSB-cng/);
    expect(bridge!.online).toBe(false);
  });
});

describe("serial gun bridge on the real hub", () => {
  it("pairs a USB gun like a WiFi gun: pending, key down the cable, then its aim reaches the table", async () => {
    const { testHub, connect, request } = await import("../fakes/hub.js");
    const hub = await testHub();
    try {
      const l = fakeLog();
      bridge = startSerialGunBridge({
        path: PATH,
        mqttUrl: hub.urls.mqtt,
        table: hub.table,
        log: l.log,
        openPort: (path, baudRate) => new SerialPortMock({ path, baudRate, autoOpen: false }),
        retryMs: 0,
      });
      const g = await gunEnd();
      g.emitData('hello {"v":1,"id":"sg1","fw":"0.3.0"}\n');
      await waitFor(() => bridge!.online, 3000, "the pending gun on the broker");
      const host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
      const r = await request(host, hub.table, "pair.accept", { gun: "sg1" }, hub.pin);
      expect(r.ok).toBe(true);
      const keyLine = await waitFor(
        () => written(g).find((x) => x.startsWith("cmd ") && x.includes('"key"')),
        3000,
        "the key",
      );
      const key = JSON.parse(keyLine.slice(4)).k as string;
      // The bridge reconnects with the key; the gun stores it and says hello again with it.
      g.emitData(`hello {"v":1,"id":"sg1","k":"${key}"}\n`);
      const aims: string[] = [];
      host.on("message", (t, p) => t.endsWith("/gun/sg1/aim") && aims.push(p.toString()));
      await host.subscribeAsync(`${hub.topicRoot}/gun/sg1/aim`);
      await waitFor(
        () => {
          g.emitData(`aim ${AIM}\n`);
          return aims.length > 0;
        },
        5000,
        "the paired gun's aim at the table",
      );
      expect(aims[0]).toBe(AIM);
      host.end(true);
    } finally {
      await bridge?.close();
      bridge = null;
      await hub.stop();
    }
  });
});
