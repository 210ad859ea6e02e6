// The broker side of a gun on a USB cable: one MQTT session as that gun (its own login, or the token the hub gave
// its bridge), with its will; the cues and commands for it checked and sent down the cable, its lines published.

import { setTimeout as delay } from "node:timers/promises";
import { decodeCommand, decodeCue, encWill, type GunOutLeaf, gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { connectMqtt } from "../bus/connect.js";
import type { Logger, OncePerKey } from "../log.js";

/** how long a leaving bridge waits for the broker to take the gun's will */
const WILL_ACK_MS = 2000;

/** What goes down the cable to the gun (a line per leaf, hardware/SERIAL.md). */
export type ToGun = (leaf: "who" | "auth" | "link" | "cue" | "cmd", json: string) => void;

/** The login wanted: the gun's id and password; `sk` names it (a new token keeps a token session). */
export interface WantedLogin {
  id: string;
  pass: string;
  sk: string;
}

export interface HubLinkOptions {
  mqttUrl: string;
  table: string;
  /** reconnect this often after a refusal, ms; 0 = never */
  retryMs: number;
  /** the port the gun is on (for the log) */
  path: string;
  log: Logger;
  badLines: OncePerKey;
  toGun: ToGun;
  /** the bridge is closing: start nothing new */
  closed: () => boolean;
}

const QOS: { [leaf in GunOutLeaf]: 0 | 1 } = { aim: 0, sync: 0, trig: 1, info: 1, err: 1, will: 1, otas: 1, imu: 1 };

export class HubLink {
  private mqtt: MqttClient | null = null;
  private wanted: WantedLogin | null = null;
  /** `sk` of the MQTT session, to see when a hello changes who we are */
  private session = "";
  private connecting = false;

  constructor(private readonly o: HubLinkOptions) {}

  /** On the broker (connected or reconnecting). */
  get up(): boolean {
    return this.mqtt !== null;
  }

  get online(): boolean {
    return this.mqtt?.connected ?? false;
  }

  /** Logs in as `login` (null: nobody now); the same session only takes a new token for its reconnects. */
  want(login: WantedLogin | null): void {
    this.wanted = login;
    if (login) void this.join();
  }

  /** Joins again if the gun we want is not on (a line came while the broker was away). */
  rejoin(gun: string): void {
    if (!this.mqtt && !this.connecting && this.wanted?.id === gun) void this.join();
  }

  /** Publishes one of the gun's lines as the gun. */
  publish(gun: string, leaf: GunOutLeaf, payload: string): void {
    this.mqtt?.publish(gunTopic(this.o.table, gun, leaf), payload, { qos: QOS[leaf], retain: leaf === "info" });
  }

  /** Leaves the broker; with a reason, the gun is gone and its will goes out first. */
  async leave(gun: string | undefined, why: string | null): Promise<void> {
    const c = this.mqtt;
    this.mqtt = null;
    this.session = "";
    if (!c) return;
    let flushed = true;
    if (why !== null && gun && c.connected) {
      this.o.log.info({ gun, port: this.o.path }, `serial gun ${gun}: ${why}; publishing its will`);
      // a broker that went away as we leave never acknowledges it: the bridge still closes (and no timer outlives it)
      const waited = new AbortController();
      flushed = await Promise.race([
        c.publishAsync(gunTopic(this.o.table, gun, "will"), encWill(), { qos: 1 }).then(
          () => true,
          () => false,
        ),
        delay(WILL_ACK_MS, false, { signal: waited.signal }).catch(() => false),
      ]);
      waited.abort();
    }
    await c.endAsync(!flushed).catch(() => {});
  }

  private async join(): Promise<void> {
    const h = this.wanted;
    if (!h) return;
    if (h.sk === this.session && this.mqtt) {
      this.mqtt.options.password = h.pass;
      return;
    }
    if (this.connecting) return;
    this.connecting = true;
    try {
      await this.connect(h);
    } catch (e) {
      this.refused(h, (e as Error).message);
    } finally {
      this.connecting = false;
    }
    // a new hello or token that came while connecting
    const w = this.wanted;
    if (!this.o.closed() && this.mqtt && w) {
      if (w.sk !== this.session) void this.join();
      else this.mqtt.options.password = w.pass;
    }
  }

  private async connect(h: WantedLogin): Promise<void> {
    const o = this.o;
    await this.leave(undefined, null);
    this.session = h.sk;
    const cue = gunTopic(o.table, h.id, "cue");
    const cmd = gunTopic(o.table, h.id, "cmd");
    const c = await connectMqtt(o.mqttUrl, {
      clientId: h.id,
      username: h.id,
      password: h.pass,
      clean: true,
      keepalive: 15,
      reconnectPeriod: o.retryMs || 1000,
      will: { topic: gunTopic(o.table, h.id, "will"), payload: Buffer.from(encWill()), qos: 1, retain: false },
    });
    if (o.closed() || this.session !== h.sk) {
      await c.endAsync().catch(() => {});
      return;
    }
    this.mqtt = c;
    c.on("message", (topic, payload) =>
      this.fromHub(h.id, topic === cue ? "cue" : topic === cmd ? "cmd" : null, payload),
    );
    c.on("connect", () => o.toGun("link", '{"v":1,"on":1}'));
    c.on("offline", () => o.toGun("link", '{"v":1,"on":0}'));
    c.on("error", (e) =>
      o.badLines.warn(`mqtt:${e.message}`, { gun: h.id }, `serial gun ${h.id}: broker says ${e.message}`),
    );
    await c.subscribeAsync([cue, cmd], { qos: 1 });
    o.toGun("link", '{"v":1,"on":1}');
    o.log.info(
      { gun: h.id, port: o.path, bridged: h.sk.endsWith(":t") },
      `serial gun ${h.id} on ${o.path} is on the broker`,
    );
  }

  private refused(h: WantedLogin, m: string): void {
    const o = this.o;
    this.session = "";
    o.log.warn(
      { gun: h.id, port: o.path },
      `serial gun ${h.id}: the broker at ${o.mqttUrl} refused or did not answer (${m})` +
        (/not authori|bad user|wrong/i.test(m) ? "; its secret is wrong: forget and pair it again" : ""),
    );
    if (o.retryMs > 0 && !o.closed())
      setTimeout(() => this.wanted && !this.mqtt && void this.join(), o.retryMs).unref();
  }

  /** A cue or command from the hub: checked, then sent down the cable. */
  private fromHub(gun: string, leaf: "cue" | "cmd" | null, payload: Buffer): void {
    if (!leaf) return;
    const text = payload.toString("utf8");
    const d = leaf === "cue" ? decodeCue(text) : decodeCommand(text);
    if (!d.ok) {
      this.o.badLines.warn(
        `hub:${leaf}:${d.error.code}`,
        { gun },
        `serial gun ${gun}: not sending a bad ${leaf}: ${d.error.message}`,
      );
      return;
    }
    // pairing: the gun stores the key and says hello again, with a nonce; the bridge keeps no key
    this.o.toGun(leaf, text);
  }
}
