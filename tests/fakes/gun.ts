// The tests' one fake gun, played by the test over real MQTT: switched on unknown it asks to be paired (the host
// accepts it, on the dashboard or with pair.accept), stores its key and reconnects with it, streams aim samples at
// the rate the hub asks for, in its own clock, pointing where its player points, and pulls the trigger. It records
// the cues and time replies it gets. With `answers` it also tells its info (on connecting and when asked), takes a
// battery calibration and answers the IMU mounting commands, as the firmware does; without, it answers nothing.
import { encAim, encSync, encTrig, gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { aimOptions, bearings, type SeatLayout } from "../../hub/src/aim/index.js";
import { connect, request, sleep } from "./hub.js";
import { realTime, type TestTime } from "./time.js";

export type Pose = { kind: "aim"; target: number } | { kind: "away" } | { kind: "lowered" };

/** What the bots (tests/fakes/players.ts) need of a gun: where it sits, whether it is on, its pose, its trigger. */
export interface PlayedGun {
  readonly seat: number | null;
  readonly online: boolean;
  pose: Pose;
  /** a pull: a plain one, or one of the phone round's (`2`) */
  pull(k?: "p" | "2"): void;
}

export interface TestGunOptions {
  /** the test's time (real by default, or a DrivenTime) */
  time?: TestTime;
  /** tells its info and answers `info`, `bat`, `grav` and `mount` (the dashboard's guns do; the bots' need not) */
  answers?: boolean;
  /** its seat, when known from the start (each seat's gun booted at another time) */
  seat?: number;
  /** the aim rate it streams at until the hub tells it one (10 Hz) */
  hz?: number;
}

export class TestGun implements PlayedGun {
  private client: MqttClient | null = null;
  private pending: { client: MqttClient; key: Promise<string> } | null = null;
  private stopSampling: (() => void) | null = null;
  private n = 0;
  private key: string | null = null;
  private readonly time: TestTime;
  private readonly answers: boolean;
  private readonly firstHz: number;
  /** hub ms when the gun "booted": its clock is the test's time − boot */
  readonly boot: number;
  seat: number | null = null;
  hz = 0;
  pose: Pose = { kind: "away" };
  /** degrees the gun's raw yaw is off the table bearing (what calibration finds) */
  rawOffset = 0;
  /** what its IMU chip reads as gravity now (its own frame, g), and the mounting it runs (`grav`, `mount`) */
  gravity: [number, number, number] = [0, 0, 1];
  mount = "+x+z";
  /**
   * its battery as its info says it: a percent it gauges itself (the default, 80), a LiPo's volts and calibration
   * (the `bat` command rescales them, as the firmware does), or nothing (no divider: not measured)
   */
  battery: { bat: number } | { bv: number; bk: number } | null = { bat: 80 };
  readonly cues: { c: string; at?: number; n: number; l?: number[]; rp?: number }[] = [];
  readonly times: { g: number; h: number; a: number }[] = [];
  readonly rates: number[] = [];

  constructor(
    private readonly url: string,
    private readonly table: string,
    readonly id: string,
    private layout: SeatLayout,
    o: TestGunOptions = {},
  ) {
    this.time = o.time ?? realTime;
    this.answers = o.answers ?? true;
    this.firstHz = o.hz ?? 10;
    this.boot = this.time.now() - 50_000 - (o.seat ?? 0) * 7919;
  }

  /** A new gun asks to be paired; the host accepts it at `seat` (pair.accept); it reconnects with its key. */
  static async pair(
    url: string,
    table: string,
    host: MqttClient,
    pin: string,
    id: string,
    seat: number,
    layout: SeatLayout,
    time: TestTime = realTime,
  ): Promise<TestGun> {
    const gun = new TestGun(url, table, id, layout, { time, answers: false, seat, hz: 5 });
    await gun.switchOn();
    const acc = await request(host, table, "pair.accept", { gun: id, seat }, pin);
    if (!acc.ok) throw new Error(`pairing ${id}: ${JSON.stringify(acc)}`);
    await gun.paired(seat);
    return gun;
  }

  /** Switched on, unknown: asks to be paired, then waits for the host to accept it (`paired`). */
  async switchOn(): Promise<void> {
    const c = await connect(this.url, { username: this.id, password: "new", clientId: this.id });
    const key = new Promise<string>((resolve) => {
      c.on("message", (_t, p) => {
        const m = JSON.parse(p.toString());
        if (m.c === "key") resolve(m.k);
      });
    });
    await c.subscribeAsync(gunTopic(this.table, this.id, "cmd"), { qos: 1 });
    if (this.answers)
      await c.publishAsync(gunTopic(this.table, this.id, "info"), this.info(5), { qos: 1, retain: true });
    else await sleep(30); // (the hub learns of the request from the connection)
    this.pending = { client: c, key };
  }

  /** After the host accepted: store the key, reconnect with it, stream. */
  async paired(seat: number, layout = this.layout): Promise<void> {
    if (!this.pending) throw new Error("switch the gun on first");
    this.key = await this.pending.key;
    this.pending.client.end(true);
    this.pending = null;
    this.seat = seat;
    this.layout = layout;
    await this.connect();
  }

  get online(): boolean {
    return this.client?.connected === true;
  }

  gunNow(): number {
    return this.time.now() - this.boot;
  }

  /** On the network with its stored key (again, after a drop; to another broker with `url`), streaming. */
  async connect(url = this.url): Promise<void> {
    if (!this.key) throw new Error("the gun was never paired");
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
      else if (this.answers) this.answer(c, m);
    });
    await c.subscribeAsync([gunTopic(this.table, this.id, "cmd"), gunTopic(this.table, this.id, "cue")], { qos: 1 });
    if (this.answers) await this.sendInfo();
    this.setRate(this.hz || this.firstHz);
  }

  /** Back on after a drop, with its stored key, streaming again. */
  back(): Promise<void> {
    return this.connect();
  }

  /** The connection drops (no DISCONNECT: a gun out of WiFi range, or its battery flat). */
  drop(): void {
    this.stopStream();
    this.client?.end(true);
    this.client = null;
  }

  private answer(c: MqttClient, m: any): void {
    if (m.c === "bat" && this.battery && "bv" in this.battery) {
      this.battery = { bv: Math.round((this.battery.bv / this.battery.bk) * m.k * 100) / 100, bk: m.k };
    }
    if (m.c === "info" || m.c === "bat") void this.sendInfo();
    // the IMU mounting commands, answered on `imu` as the firmware does
    if (m.c === "mount") this.mount = m.m;
    if (m.c === "grav" || m.c === "mount") {
      const r = m.c === "grav" ? { g: this.gravity, sd: 0.003 } : {};
      c.publish(gunTopic(this.table, this.id, "imu"), JSON.stringify({ v: 1, n: m.n, m: this.mount, ...r }), {
        qos: 1,
      });
    }
  }

  private info(up: number): string {
    return JSON.stringify({ v: 1, fw: "0.1.0", b: "sim", i: "sim", ...this.battery, up, rs: -55 });
  }

  /** Its info, as a gun sends it on connecting, every minute and when asked. */
  async sendInfo(): Promise<void> {
    await this.client?.publishAsync(gunTopic(this.table, this.id, "info"), this.info(6), { qos: 1, retain: true });
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
    if (!this.client?.connected || this.seat === null) return;
    const L = this.layout.seats.length;
    // the player points from the gun, held before the seat, as the hub's geometry has it
    const row = bearings(this.layout, aimOptions().gunForwardM)[this.seat]!;
    const across = row[(this.seat + Math.floor(L / 2)) % L]!;
    const p = this.pose;
    const yaw = (p.kind === "aim" ? row[p.target]! : across + 180) - this.rawOffset;
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

  /** A pull while still asking to be paired (pairing by pulling). */
  pullPending(): void {
    const c = this.pending?.client;
    if (!c) throw new Error("the gun is not asking to be paired");
    c.publish(gunTopic(this.table, this.id, "trig"), encTrig(++this.n, "p", this.gunNow(), -1), { qos: 1 });
  }

  sync(): void {
    // with when the last answer came, as the firmware tells it
    const last = this.times.at(-1);
    const msg = encSync(this.gunNow(), last?.h ?? 0, last?.a ?? 0);
    this.client?.publish(gunTopic(this.table, this.id, "sync"), msg, { qos: 0 });
  }

  close(): void {
    this.stopStream();
    this.pending?.client.end(true);
    this.client?.end(true);
  }
}
