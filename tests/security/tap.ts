// A sniffer's view of the table's WiFi: a TCP relay in front of the hub that keeps every byte both ways, as someone
// holding the WiFi password and a captured handshake reads them off the air. WebSocket frames are unwrapped (a
// browser's are masked, and the mask travels with them), so what is searched is what the MQTT packets carry.
import { connect, createServer, type Server, type Socket } from "node:net";

export interface Tap {
  /** where clients connect instead of the hub: 127.0.0.1:port */
  readonly port: number;
  /** everything that crossed, as text a sniffer would search (HTTP, and MQTT packets out of their frames) */
  heard(): string;
  /** the MQTT packets alone (the pages' own files name every op, so an op's name is looked for here) */
  mqtt(): string;
  /** each connection's bytes as they crossed, each way */
  raw(): { up: Buffer; down: Buffer }[];
  /** forgets what was heard so far (what comes next is listened to alone) */
  clear(): void;
  /** drops every connection through it, as the WiFi does (the listener stays) */
  cut(): void;
  close(): Promise<void>;
}

export async function tapInFrontOf(port: number): Promise<Tap> {
  const streams: { up: Buffer[]; down: Buffer[] }[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((c) => {
    sockets.add(c);
    c.on("close", () => sockets.delete(c));
    const s = { up: [] as Buffer[], down: [] as Buffer[] };
    streams.push(s);
    const hub = connect({ host: "127.0.0.1", port });
    c.on("data", (d) => {
      s.up.push(Buffer.from(d));
      hub.write(d);
    });
    hub.on("data", (d) => {
      s.down.push(Buffer.from(d));
      c.write(d);
    });
    const end = () => {
      c.destroy();
      hub.destroy();
    };
    c.on("error", end);
    hub.on("error", end);
    c.on("close", end);
    hub.on("close", end);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const addr = server.address();
  return {
    port: typeof addr === "object" && addr ? addr.port : 0,
    heard: () =>
      streams
        .flatMap((s) => [unwrap(Buffer.concat(s.up)), unwrap(Buffer.concat(s.down))])
        .map((b) => b.toString("latin1"))
        .join("\n"),
    mqtt: () =>
      streams
        .filter((s) => Buffer.concat(s.up).subarray(0, 9).toString("latin1") === "GET /mqtt")
        .flatMap((s) => [unwrap(Buffer.concat(s.up)), unwrap(Buffer.concat(s.down))])
        .map((b) => b.toString("latin1"))
        .join("\n"),
    raw: () => streams.map((s) => ({ up: Buffer.concat(s.up), down: Buffer.concat(s.down) })),
    clear: () => {
      for (const s of streams) {
        s.up.length = 0;
        s.down.length = 0;
      }
    },
    cut: () => {
      for (const c of sockets) c.destroy();
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        for (const c of sockets) c.destroy();
      }),
  };
}

/** An HTTP stream as it is, or a WebSocket's: its headers, then its frames' payloads, unmasked. */
function unwrap(b: Buffer): Buffer {
  const head = b.indexOf("\r\n\r\n");
  const first = b.subarray(0, Math.max(0, head)).toString("latin1");
  if (head < 0 || !/^(GET \/mqtt|HTTP\/1\.1 101)/.test(first)) return b;
  const out: Buffer[] = [b.subarray(0, head + 4)];
  let i = head + 4;
  while (i + 2 <= b.length) {
    let len = b[i + 1]! & 0x7f;
    const masked = (b[i + 1]! & 0x80) !== 0;
    let j = i + 2;
    if (len === 126) {
      len = b.readUInt16BE(j);
      j += 2;
    } else if (len === 127) {
      len = Number(b.readBigUInt64BE(j));
      j += 8;
    }
    const mask = masked ? b.subarray(j, j + 4) : null;
    if (masked) j += 4;
    const payload = Buffer.from(b.subarray(j, j + len));
    if (mask) for (let k = 0; k < payload.length; k++) payload[k]! ^= mask[k & 3]!;
    out.push(payload);
    i = j + len;
  }
  return Buffer.concat(out);
}
