// A bare MQTT 3.1.1 CONNECT, as a guesser sends it, from a chosen local address (all of 127.0.0.0/8 is loopback):
// resolving with the CONNACK's return code (0 accepted, 2 id rejected, 3 no room, 4 bad secret, 5 not now).
import { connect as tcp } from "node:net";

export interface Connect {
  clientId: string;
  username?: string;
  password?: string;
  /** the source address to connect from */
  from?: string;
  /** seconds (default 30); 0 asks for none */
  keepalive?: number;
}

function str(s: string): Buffer {
  const b = Buffer.from(s, "utf8");
  return Buffer.concat([Buffer.from([b.length >> 8, b.length & 255]), b]);
}

export function connectPacket(c: Connect): Buffer {
  const flags = 0x02 | (c.username !== undefined ? 0x80 : 0) | (c.password !== undefined ? 0x40 : 0);
  const body = Buffer.concat([
    str("MQTT"),
    Buffer.from([4, flags, (c.keepalive ?? 30) >> 8, (c.keepalive ?? 30) & 255]),
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
export function connack(end: (rc: number) => void): (d: Buffer) => void {
  let got = Buffer.alloc(0);
  return (d) => {
    got = Buffer.concat([got, d]);
    if (got[0] !== 0x20) end(-1);
    else if (got.length >= 4) end(got[3]!);
  };
}

/** CONNACK return code over TCP; -1 when the broker closed without one or gave none within `timeoutMs`. */
export function tcpConnect(port: number, c: Connect, host = "127.0.0.1", timeoutMs = 10_000): Promise<number> {
  return new Promise((resolve) => {
    const s = tcp({ host, port, localAddress: c.from });
    let done = false;
    const timer = setTimeout(() => end(-1), timeoutMs);
    const end = (rc: number) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      s.destroy();
      resolve(rc);
    };
    s.on("connect", () => s.write(connectPacket(c)));
    s.on("data", connack(end));
    s.on("error", () => end(-1));
    s.on("close", () => end(-1));
  });
}
