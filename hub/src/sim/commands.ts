// A command client over MQTT, the way the dashboard, a phone console or a bot talks to the hub: requests on
// `cmd/<client>/req`, answers on `cmd/<client>/res`, plus subscriptions to the table's topics. It reconnects on
// its own (a restarted hub), so a bot simply carries on.
import {
  cmdTopic,
  type Decoded,
  type OpArgs,
  type OpName,
  type OpResponse,
  type OpResult,
  type Payload,
  type ResponseMsg,
} from "@cng/protocol";
import { topicMatches } from "../bus/bus.js";
import { connectMqtt, type MqttClient } from "../bus/connect.js";
import type { BridgeCredentials } from "../serial/index.js";

/** A refused request: the hub's error code and message. */
export class CommandError extends Error {
  constructor(
    readonly op: string,
    readonly code: string,
    message: string,
  ) {
    super(`${op}: ${code}: ${message}`);
  }
}

export interface CommandClientOptions {
  table: string;
  /** a topic level: a-z 0-9 _ -, up to 32 */
  clientId: string;
  username?: string;
  password?: string;
  /** sent as `auth` in every request (host PIN or seat token) */
  auth?: string;
  /** how long a request waits for its answer (15 s: a hub on a machine busy with much else answers late) */
  timeoutMs?: number;
}

type Handler = (payload: unknown, topic: string) => void;

export class CommandClient {
  private n = 0;
  private readonly waiting = new Map<string, (m: ResponseMsg) => void>();
  private readonly handlers: { filter: string; fn: Handler }[] = [];
  private readonly decoded: { filter: string; fn: (p: Buffer, topic: string) => void }[] = [];
  /** messages a strict decoder refused (subscribeDecoded) */
  refused = 0;
  private closed = false;

  private constructor(
    readonly mqtt: MqttClient,
    private readonly o: CommandClientOptions,
  ) {
    mqtt.on("message", (topic, payload) => this.onMessage(topic, payload));
  }

  static async connect(url: string, o: CommandClientOptions): Promise<CommandClient> {
    const mqtt = await connectMqtt(url, {
      clientId: o.clientId,
      username: o.username,
      password: o.password,
      reconnectPeriod: 300,
      connectTimeout: 5000,
    });
    const c = new CommandClient(mqtt, o);
    await mqtt.subscribeAsync(cmdTopic(o.table, o.clientId, "res"), { qos: 1 });
    return c;
  }

  get connected(): boolean {
    return this.mqtt.connected;
  }

  /** Sends one request; resolves with `r`, throws a CommandError when refused (or on a timeout). */
  async request<K extends OpName>(op: K, a?: OpArgs<K>): Promise<OpResult<K>> {
    const id = `q${++this.n}`;
    const msg: Record<string, unknown> = { v: 1, id, op };
    if (this.o.auth !== undefined) msg.auth = this.o.auth;
    if (a !== undefined) msg.a = a;
    const timeoutMs = this.o.timeoutMs ?? 15_000;
    const res = new Promise<ResponseMsg>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new CommandError(op, "timeout", `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
    this.mqtt.publish(cmdTopic(this.o.table, this.o.clientId, "req"), JSON.stringify(msg), { qos: 1 });
    // the hub answers this op's request with this op's response
    const m = (await res) as OpResponse<K>;
    if (!m.ok) throw new CommandError(op, m.e.code, m.e.msg);
    return m.r;
  }

  /** Calls `fn` with each JSON message on `filter` (retained ones too). */
  async subscribe(filter: string, fn: Handler): Promise<void> {
    this.handlers.push({ filter, fn });
    await this.mqtt.subscribeAsync(filter, { qos: 1 });
  }

  /**
   * Calls `fn` with each message on `filter` that `decode` (one of the protocol's strict decoders) accepts; what it
   * refuses is dropped and counted in `refused`, as a client that trusts only the contract would.
   */
  async subscribeDecoded<T>(
    filter: string,
    decode: (p: Payload) => Decoded<T>,
    fn: (v: T, topic: string) => void,
  ): Promise<void> {
    this.decoded.push({
      filter,
      fn: (p, topic) => {
        const d = decode(p);
        if (d.ok) fn(d.value, topic);
        else this.refused++;
      },
    });
    await this.mqtt.subscribeAsync(filter, { qos: 1 });
  }

  private onMessage(topic: string, payload: Buffer): void {
    if (payload.length === 0) return;
    for (const h of this.decoded) if (topicMatches(h.filter, topic)) h.fn(payload, topic);
    let v: unknown;
    try {
      v = JSON.parse(payload.toString());
    } catch {
      return;
    }
    if (topic === cmdTopic(this.o.table, this.o.clientId, "res")) {
      const m = v as ResponseMsg;
      this.waiting.get(m.id)?.(m);
      this.waiting.delete(m.id);
      return;
    }
    for (const h of this.handlers) if (topicMatches(h.filter, topic)) h.fn(v, topic);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.mqtt.endAsync(true);
  }
}

/**
 * A bridge's login and proofs for a paired gun (hub/src/serial), asked of the hub as the host (`gun.bridge`), as the
 * dashboard's Bluetooth bridge asks them; null when the hub holds no key for that gun.
 */
export function bridgeCredentialsOf(host: CommandClient): BridgeCredentials {
  return async (gun, n) => {
    try {
      const r = await host.request("gun.bridge", { gun, n });
      return { token: r.token, m: r.m };
    } catch (e) {
      if (e instanceof CommandError && e.code === "unknown-gun") return null;
      throw e;
    }
  };
}
