// A bare MQTT 3.1.1 CONNECT, as a guesser sends it, from a chosen local address (127.0.0.x is all loopback): over TCP
// or WebSocket, resolving with the CONNACK's return code (0 accepted, 2 id rejected, 4 bad secret, 5 not now).
import { connect as tcp } from "node:net";
import { type IClientOptions, MqttClient } from "mqtt";
import WebSocket from "ws";

export interface Connect {
  clientId: string;
  username?: string;
  password?: string;
  /** the source address to connect from */
  from?: string;
}

function str(s: string): Buffer {
  const b = Buffer.from(s, "utf8");
  return Buffer.concat([Buffer.from([b.length >> 8, b.length & 255]), b]);
}

export function connectPacket(c: Connect): Buffer {
  const flags = 0x02 | (c.username !== undefined ? 0x80 : 0) | (c.password !== undefined ? 0x40 : 0);
  const body = Buffer.concat([
    str("MQTT"),
    Buffer.from([4, flags, 0, 30]),
    str(c.clientId),
    ...(c.username !== undefined ? [str(c.username)] : []),
    ...(c.password !== undefined ? [str(c.password)] : []),
  ]);
  const len: number[] = [];
  let l = body.length;
  do {
    let d = l & 127;
    l >>= 7;
    if (l) d |= 128;
    len.push(d);
  } while (l);
  return Buffer.concat([Buffer.from([0x10, ...len]), body]);
}

/** Reads a CONNACK arriving in pieces: `end` gets its return code, or -1 for anything else. */
function connack(end: (rc: number) => void): (d: Buffer) => void {
  let got = Buffer.alloc(0);
  return (d) => {
    got = Buffer.concat([got, d]);
    if (got[0] !== 0x20) end(-1);
    else if (got.length >= 4) end(got[3]!);
  };
}

/** CONNACK return code over TCP; -1 when the broker closed without one. */
export function tcpConnect(port: number, c: Connect): Promise<number> {
  return new Promise((resolve) => {
    const s = tcp({ host: "127.0.0.1", port, localAddress: c.from });
    let done = false;
    const end = (rc: number) => {
      if (done) return;
      done = true;
      s.destroy();
      resolve(rc);
    };
    s.on("connect", () => s.write(connectPacket(c)));
    s.on("data", connack(end));
    s.on("error", () => end(-1));
    s.on("close", () => end(-1));
  });
}

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
