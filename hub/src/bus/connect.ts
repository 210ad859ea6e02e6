// An mqtt.js client the way the hub wants every client: Nagle off, QoS 0 never queued offline.
import type { Socket } from "node:net";
import mqtt, { type IClientOptions, type MqttClient } from "mqtt";

export type { MqttClient };

function noDelay(client: MqttClient): void {
  const s = client.stream as Partial<Socket> | undefined;
  if (s && typeof s.setNoDelay === "function") s.setNoDelay(true);
}

/** Connects and resolves once CONNACK arrives; rejects on refusal or after `connectTimeout`. */
export async function connectMqtt(url: string, opts: IClientOptions = {}): Promise<MqttClient> {
  const client = mqtt.connect(url, {
    queueQoSZero: false,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
    ...opts,
  });
  client.on("connect", () => noDelay(client));
  await new Promise<void>((resolve, reject) => {
    const fail = (e: Error) => {
      client.end(true);
      reject(e);
    };
    client.once("connect", () => {
      client.off("error", fail);
      resolve();
    });
    client.once("error", fail);
  });
  return client;
}
