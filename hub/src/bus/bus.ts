// The hub's own MQTT client, the same in embedded and external-broker mode.
// Handlers run guarded: a throwing handler is logged, never fatal.
import type { Logger } from "../log.js";
import { connectMqtt, type MqttClient } from "./connect.js";

export type Handler = (topic: string, payload: Buffer) => void;
export type QoS = 0 | 1;

export interface BusOptions {
  url: string;
  username?: string;
  password?: string;
  clientId: string;
  log: Logger;
}

/** MQTT topic filter match (`+` one level, `#` the rest). */
export function topicMatches(filter: string, topic: string): boolean {
  return levelsMatch(filter.split("/"), topic.split("/"));
}

/** The same on topics already split into levels (the bus splits each message's topic once). */
function levelsMatch(f: readonly string[], t: readonly string[]): boolean {
  for (let i = 0; i < f.length; i++) {
    if (f[i] === "#") return true;
    if (i >= t.length) return false;
    if (f[i] !== "+" && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}

export class Bus {
  private readonly routes: { filter: string; levels: string[]; handler: Handler }[] = [];

  private constructor(
    readonly client: MqttClient,
    private readonly log: Logger,
  ) {
    client.on("message", (topic, payload) => this.dispatch(topic, payload));
    client.on("error", (e) => log.warn({ err: e.message }, "hub MQTT client error"));
    client.on("offline", () => log.warn("hub MQTT client offline; reconnecting"));
    client.on("reconnect", () => log.debug("hub MQTT client reconnecting"));
  }

  static async connect(o: BusOptions): Promise<Bus> {
    const client = await connectMqtt(o.url, {
      clientId: o.clientId,
      username: o.username,
      password: o.password,
      clean: true,
      keepalive: 30,
      // Subscriptions are re-made by mqtt.js on reconnect.
      resubscribe: true,
    });
    return new Bus(client, o.log);
  }

  private dispatch(topic: string, payload: Buffer): void {
    const levels = topic.split("/");
    for (const r of this.routes) {
      if (!levelsMatch(r.levels, levels)) continue;
      try {
        r.handler(topic, payload);
      } catch (e) {
        this.log.error({ err: e, topic }, "handler failed");
      }
    }
  }

  async subscribe(filter: string, handler: Handler, qos: QoS = 1): Promise<void> {
    this.routes.push({ filter, levels: filter.split("/"), handler });
    await this.client.subscribeAsync(filter, { qos });
  }

  async publish(topic: string, payload: string | object, opts: { qos?: QoS; retain?: boolean } = {}): Promise<void> {
    const body = typeof payload === "string" ? payload : JSON.stringify(payload);
    await this.client.publishAsync(topic, body, { qos: opts.qos ?? 1, retain: opts.retain ?? false });
  }

  /** Removes a retained message. */
  async clearRetained(topic: string): Promise<void> {
    await this.client.publishAsync(topic, "", { qos: 1, retain: true });
  }

  async close(): Promise<void> {
    await this.client.endAsync();
  }
}
