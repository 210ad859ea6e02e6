// A guesser's bare MQTT CONNECT (hub/src/bench/guess/raw-connect.ts) over TCP or the hub's WebSocket, from a chosen
// loopback address, and a full mqtt.js client from one.
import { connect as tcp } from "node:net";
import { type IClientOptions, MqttClient } from "mqtt";
import WebSocket from "ws";
import { type Connect, connack, connectPacket } from "../../hub/src/bench/guess/raw-connect.js";

export { type Connect, connectPacket, tcpConnect } from "../../hub/src/bench/guess/raw-connect.js";

/** CONNACK return code over the hub's WebSocket /mqtt; -1 when closed without one. */
export function wsConnect(url: string, c: Connect): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, ["mqtt"], { localAddress: c.from });
    let done = false;
    const end = (rc: number) => {
      if (done) return;
      done = true;
      ws.terminate();
      resolve(rc);
    };
    ws.on("open", () => ws.send(connectPacket(c)));
    // the broker's stream may send the CONNACK a few bytes per WebSocket message
    ws.on("message", connack(end));
    ws.on("error", () => end(-1));
    ws.on("close", () => end(-1));
  });
}

/** A full mqtt.js client connected from `from` (another loopback address: another device, to the hub). */
export function clientFrom(from: string, port: number, o: IClientOptions): Promise<MqttClient> {
  const c = new MqttClient(() => tcp({ host: "127.0.0.1", port, localAddress: from }), {
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 3000,
    ...o,
  });
  return new Promise((resolve, reject) => {
    c.once("connect", () => resolve(c));
    c.once("error", (e) => {
      c.end(true);
      reject(e);
    });
  });
}
