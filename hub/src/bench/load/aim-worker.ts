// The load worker: connects N guns, streams aim samples at a set total rate (hand-written QoS 0 PUBLISH
// packets on each gun's socket, Nagle off) and, optionally, times trigger → cue round trips
// (QoS 1 `trig` out, the gun's next `cue` back), one at a time, rotating over the guns.
import type { Socket } from "node:net";
import { parentPort, workerData } from "node:worker_threads";
import { encTrig } from "@cng/protocol";
import { connectMqtt, type MqttClient } from "../../bus/connect.js";
import { publishLength, writePublish } from "./packet.js";
import { type FromWorker, type RunRequest, sinceEpochUs, type ToWorker, type WorkerSetup } from "./protocol.js";

const setup = workerData as WorkerSetup;
const port = parentPort!;
const send = (m: FromWorker) => port.postMessage(m);

interface Gun {
  id: string;
  client: MqttClient;
  socket: Socket;
  aimTopic: string;
  trigTopic: string;
  /** samples written this run */
  sent: number;
  trigN: number;
}

const guns: Gun[] = [];
/** the gun whose probe is out, and when it went */
let probing: { gun: Gun; at: number } | null = null;

async function connectAll(): Promise<void> {
  const batch = 20;
  for (let i = 0; i < setup.guns.length; i += batch) {
    await Promise.all(
      setup.guns.slice(i, i + batch).map(async (g) => {
        const client = await connectMqtt(setup.url, {
          clientId: g.id,
          username: g.username,
          password: g.password,
          reconnectPeriod: 0,
          keepalive: 60,
        });
        const gun: Gun = {
          id: g.id,
          client,
          socket: client.stream as Socket,
          aimTopic: `${setup.root}/gun/${g.id}/aim`,
          trigTopic: `${setup.root}/gun/${g.id}/trig`,
          sent: 0,
          trigN: 0,
        };
        if (setup.probes) {
          client.on("message", (topic) => {
            if (probing?.gun === gun && topic.endsWith("/cue")) onCue();
          });
          await client.subscribeAsync(`${setup.root}/gun/${g.id}/cue`, { qos: 1 });
        }
        guns.push(gun);
      }),
    );
  }
}

let rtts: number[] = [];
let probesLost = 0;
let probeTimer: NodeJS.Timeout | null = null;
let probeIndex = 0;
let running = false;
let gapMs = 10;

function onCue(): void {
  if (!probing) return;
  rtts.push(performance.now() - probing.at);
  probing = null;
  scheduleProbe();
}

function scheduleProbe(): void {
  if (!running) return;
  probeTimer = setTimeout(probe, gapMs * (0.5 + Math.random()));
}

function probe(): void {
  if (!running) return;
  const gun = guns[probeIndex++ % guns.length]!;
  gun.trigN++;
  probing = { gun, at: performance.now() };
  gun.client.publish(gun.trigTopic, encTrig(gun.trigN, "p", gun.trigN, -1), { qos: 1 });
  const mine = probing;
  probeTimer = setTimeout(() => {
    if (probing !== mine) return;
    probesLost++;
    probing = null;
    scheduleProbe();
  }, 1000);
}

/** One sample's payload: a realistic aim message whose `t` is µs since the shared epoch. */
function aimPayload(i: number): string {
  const y = ((i * 7) % 3600) / 10 - 180;
  return `{"v":1,"t":${sinceEpochUs(setup.epochMs)},"y":${y.toFixed(1)},"p":12.5,"r":-3.2}`;
}

async function run(r: RunRequest): Promise<void> {
  for (const g of guns) g.sent = 0;
  rtts = [];
  probesLost = 0;
  running = true;
  gapMs = r.probeGapMs ?? 10;
  if (r.probeGapMs !== null) scheduleProbe();
  const perGun = r.rate / guns.length;
  // Packets differ only in `t`; size the write buffer for the most a gun owes in one tick, with room.
  const sample = publishLength(guns[0]!.aimTopic, aimPayload(0)) + 16;
  const elu0 = performance.eventLoopUtilization();
  const start = performance.now();
  const end = start + r.seconds * 1000;
  let i = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = Math.min(performance.now(), end);
      const elapsed = (now - start) / 1000;
      for (const g of guns) {
        const due = Math.floor(perGun * elapsed) - g.sent;
        if (due <= 0) continue;
        const buf = Buffer.allocUnsafe(due * sample);
        let o = 0;
        for (let k = 0; k < due; k++) o = writePublish(buf, o, g.aimTopic, aimPayload(i++));
        g.socket.write(buf.subarray(0, o));
        g.sent += due;
      }
      if (now >= end) {
        clearInterval(timer);
        resolve();
      }
    };
    const timer = setInterval(tick, r.tickMs);
  });
  const seconds = (performance.now() - start) / 1000;
  const elu = performance.eventLoopUtilization(elu0).utilization;
  running = false;
  if (probeTimer) clearTimeout(probeTimer);
  // Let an outstanding probe land.
  if (probing) await new Promise((res) => setTimeout(res, 200));
  probing = null;
  let sent = 0;
  for (const g of guns) sent += g.sent;
  send({ type: "done", sent, rtts, probesLost, elu, seconds });
}

port.on("message", (m: ToWorker) => {
  if (m.type === "run") void run(m).catch((e) => send({ type: "error", message: String(e) }));
  else if (m.type === "close") {
    for (const g of guns) g.client.end(true);
    port.close();
  }
});

connectAll().then(
  () => send({ type: "ready" }),
  (e) => send({ type: "error", message: `gun connection failed: ${(e as Error).message}` }),
);
