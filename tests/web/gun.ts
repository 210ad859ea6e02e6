// A gun played by the test over real MQTT: switched on unknown (a pairing request the host accepts on the
// dashboard), it stores its key and reconnects with it, streams aim where its player points at the rate the hub
// asks, and pulls the trigger.
import { encAim, encTrig, gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { bearing, type SeatLayout } from "../../hub/src/aim/index.js";
import { connect } from "../hub/helpers.js";

export type Pose = { kind: "aim"; target: number } | { kind: "away" } | { kind: "lowered" };

export class TestGun {
  private client: MqttClient | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private n = 0;
  private readonly boot = Date.now() - 40_000;
  private key: string | null = null;
  seat: number | null = null;
  pose: Pose = { kind: "away" };
  /** what its IMU chip reads as gravity now (its own frame, g), and the mounting it runs (`grav`, `mount`) */
  gravity: [number, number, number] = [0, 0, 1];
  mount = "+x+z";
  /**
   * its battery as its info says it: a percent it gauges itself (the default, 80), a LiPo's volts and calibration
   * (the `bat` command rescales them, as the firmware does), or nothing (no divider: not measured)
   */
  battery: { bat: number } | { bv: number; bk: number } | null = { bat: 80 };

  constructor(
    private readonly url: string,
    private readonly table: string,
    readonly id: string,
    private layout: SeatLayout,
  ) {}

  /** Switched on, unknown: waits for the host to accept it, then reconnects with its key. */
  async switchOn(): Promise<void> {
    const c = await connect(this.url, { username: this.id, password: "new", clientId: this.id });
    const key = new Promise<string>((resolve) => {
      c.on("message", (_t, p) => {
        const m = JSON.parse(p.toString());
        if (m.c === "key") resolve(m.k);
      });
    });
    await c.subscribeAsync(gunTopic(this.table, this.id, "cmd"), { qos: 1 });
    await c.publishAsync(gunTopic(this.table, this.id, "info"), this.info(5), { qos: 1, retain: true });
    this.pending = { client: c, key };
  }

  private pending: { client: MqttClient; key: Promise<string> } | null = null;

  /** After the host accepted: store the key, reconnect with it, stream. */
  async paired(seat: number, layout = this.layout): Promise<void> {
    if (!this.pending) throw new Error("switch the gun on first");
    this.key = await this.pending.key;
    this.pending.client.end(true);
    this.pending = null;
    this.seat = seat;
    this.layout = layout;
    await this.connectKeyed();
  }

  /** Off the network at once, as a flat battery drops it (no DISCONNECT). */
  drop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.client?.end(true);
    this.client = null;
  }

  /** Back on after a drop, with its stored key, streaming again. */
  async back(): Promise<void> {
    await this.connectKeyed();
  }

  private async connectKeyed(): Promise<void> {
    if (!this.key) throw new Error("the gun was never paired");
    const c = await connect(this.url, {
      username: this.id,
      password: this.key,
      clientId: this.id,
      queueQoSZero: false,
    });
    this.client = c;
    c.on("message", (_t, p) => {
      const m = JSON.parse(p.toString());
      if (m.c === "rate") this.rate(m.hz);
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
    });
    await c.subscribeAsync([gunTopic(this.table, this.id, "cmd"), gunTopic(this.table, this.id, "cue")], { qos: 1 });
    await this.sendInfo();
    this.rate(10);
  }

  private info(up: number): string {
    return JSON.stringify({ v: 1, fw: "0.1.0", b: "sim", i: "sim", ...this.battery, up, rs: -55 });
  }

  /** Its info, as a gun sends it on connecting, every minute and when asked. */
  async sendInfo(): Promise<void> {
    await this.client?.publishAsync(gunTopic(this.table, this.id, "info"), this.info(6), { qos: 1, retain: true });
  }

  private rate(hz: number): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = setInterval(() => this.sample(), Math.round(1000 / hz));
  }

  private sample(): void {
    if (!this.client?.connected || this.seat === null) return;
    const L = this.layout.seats.length;
    const across = bearing(this.layout, this.seat, (this.seat + Math.floor(L / 2)) % L);
    const p = this.pose;
    const yaw = p.kind === "aim" ? bearing(this.layout, this.seat, p.target) : across + 180;
    const wrapped = ((((yaw + 180) % 360) + 360) % 360) - 180;
    this.client.publish(
      gunTopic(this.table, this.id, "aim"),
      encAim(Date.now() - this.boot, wrapped, p.kind === "lowered" ? -70 : 2, 0, false),
      { qos: 0 },
    );
  }

  pull(): void {
    this.client?.publish(gunTopic(this.table, this.id, "trig"), encTrig(++this.n, "p", Date.now() - this.boot, -1), {
      qos: 1,
    });
  }

  /** A pull while still asking to be paired (pairing by pulling). */
  pullPending(): void {
    const c = this.pending?.client;
    if (!c) throw new Error("the gun is not asking to be paired");
    c.publish(gunTopic(this.table, this.id, "trig"), encTrig(++this.n, "p", Date.now() - this.boot, -1), { qos: 1 });
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.pending?.client.end(true);
    this.client?.end(true);
  }
}
