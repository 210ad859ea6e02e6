// A gun played by a script over real MQTT: pairs like hardware does (unknown → pair.accept → key → reconnect),
// streams aim samples at the rate the hub asks for, in its own clock, pointing where its player points, and
// pulls the trigger. It answers nothing itself; it records the cues and time replies it gets.
import { encAim, encSync, encTrig, gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { bearing, type SeatLayout } from "../../hub/src/aim/index.js";
import { connect, nextMessage, request } from "../hub/helpers.js";
import { realTime, type TestTime } from "./test-time.js";

export type Pose = { kind: "aim"; target: number } | { kind: "away" } | { kind: "lowered" };

export class ScriptedGun {
  private client: MqttClient | null = null;
  private stopSampling: (() => void) | null = null;
  private n = 0;
  /** hub ms when the gun "booted": its clock is the test's time − boot */
  readonly boot: number;
  hz = 0;
  pose: Pose = { kind: "away" };
  /** degrees the gun's raw yaw is off the table bearing (what calibration finds) */
  rawOffset = 0;
  readonly cues: { c: string; at?: number; n: number; l?: number[]; rp?: number }[] = [];
  readonly times: { g: number; h: number; a: number }[] = [];
  readonly rates: number[] = [];

  private constructor(
    private readonly url: string,
    private readonly table: string,
    readonly id: string,
    readonly seat: number,
    private readonly key: string,
    private readonly layout: SeatLayout,
    private readonly time: TestTime,
  ) {
    this.boot = time.now() - 50_000 - seat * 7919;
  }

  /** A new gun asks to be paired; the host accepts it at `seat`; it reconnects with its key. */
  static async pair(
    url: string,
    table: string,
    host: MqttClient,
    pin: string,
    id: string,
    seat: number,
    layout: SeatLayout,
    time: TestTime = realTime,
  ): Promise<ScriptedGun> {
    const pending = await connect(url, { username: id, password: "new", clientId: id });
    const key = nextMessage(pending, gunTopic(table, id, "cmd"), (m) => m.c === "key");
    await new Promise((r) => setTimeout(r, 30));
    const acc = await request(host, table, "pair.accept", { gun: id, seat }, pin);
    if (!acc.ok) throw new Error(`pairing ${id}: ${JSON.stringify(acc)}`);
    const k = (await key).k as string;
    pending.end(true);
    const gun = new ScriptedGun(url, table, id, seat, k, layout, time);
    await gun.connect();
    return gun;
  }

  get online(): boolean {
    return this.client?.connected === true;
  }

  gunNow(): number {
    return this.time.now() - this.boot;
  }

  async connect(url = this.url): Promise<void> {
    const c = this.time.watch(
      await connect(url, { username: this.id, password: this.key, clientId: this.id, queueQoSZero: false }),
    );
    this.client = c;
    c.on("message", (topic, payload) => {
      let m: any;
      try {
        m = JSON.parse(payload.toString());
      } catch {
        return;
      }
      if (topic.endsWith("/cue")) this.cues.push({ c: m.c, at: m.at, n: m.n, l: m.l, rp: m.rp });
      else if (m.c === "rate") this.setRate(m.hz);
      else if (m.c === "time") this.times.push({ g: m.g, h: m.h, a: this.gunNow() });
    });
    await c.subscribeAsync([gunTopic(this.table, this.id, "cmd"), gunTopic(this.table, this.id, "cue")], { qos: 1 });
    this.setRate(this.hz || 5);
  }

  /** The connection drops (no DISCONNECT: as a gun out of WiFi range). */
  drop(): void {
    this.stopStream();
    this.client?.end(true);
    this.client = null;
  }

  private setRate(hz: number): void {
    this.rates.push(hz);
    this.hz = hz;
    this.stopStream();
    this.stopSampling = this.time.every(Math.round(1000 / hz), () => this.sample());
  }

  private stopStream(): void {
    this.stopSampling?.();
    this.stopSampling = null;
  }

  /** One aim sample of the current pose. */
  sample(): void {
    if (!this.client?.connected) return;
    const L = this.layout.seats.length;
    const centre = bearing(this.layout, this.seat, (this.seat + Math.floor(L / 2)) % L);
    const p = this.pose;
    const yaw = (p.kind === "aim" ? bearing(this.layout, this.seat, p.target) : centre + 180) - this.rawOffset;
    const wrapped = ((((yaw + 180) % 360) + 360) % 360) - 180;
    const pitch = p.kind === "lowered" ? -70 : 2;
    this.client.publish(gunTopic(this.table, this.id, "aim"), encAim(this.gunNow(), wrapped, pitch, 0, false), {
      qos: 0,
    });
  }

  pull(k: "p" | "2" | "h" = "p"): void {
    // a press goes out at once; sent twice, as a QoS 1 redelivery would be: the hub takes it once
    const msg = encTrig(++this.n, k, this.gunNow(), -1);
    for (let i = 0; i < 2; i++) this.client?.publish(gunTopic(this.table, this.id, "trig"), msg, { qos: 1 });
  }

  sync(): void {
    // with when the last answer came, as the firmware tells it
    const last = this.times.at(-1);
    const msg = encSync(this.gunNow(), last?.h ?? 0, last?.a ?? 0);
    this.client?.publish(gunTopic(this.table, this.id, "sync"), msg, { qos: 0 });
  }

  close(): void {
    this.drop();
  }
}
