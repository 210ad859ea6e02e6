// Reads MQTT fixed headers as bytes arrive (the remaining length: up to four bytes of 7 bits, MQTT 3.1.1 §2.2.3) and
// cuts a connection that announces a packet larger than the limit, before the broker buffers it (aedes has no
// packet-size option).
import { Duplex } from "node:stream";

/** Tracks packet boundaries; `feed` returns false once a packet is too large. */
export class PacketSizeScanner {
  /** bytes still to skip in the current packet's body */
  private skip = 0;
  /** -1: expecting a fixed-header byte; ≥ 0: reading the length, this many bytes read */
  private lenBytes = -1;
  private len = 0;
  private mult = 1;

  constructor(private max: number) {}

  /** A new limit from the next packet on (a login may be given more room, or less, than a stranger). */
  limit(max: number): void {
    this.max = max;
  }

  feed(buf: Uint8Array): boolean {
    let i = 0;
    while (i < buf.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, buf.length - i);
        this.skip -= n;
        i += n;
        continue;
      }
      const b = buf[i++]!;
      if (this.lenBytes < 0) {
        this.lenBytes = 0;
        this.len = 0;
        this.mult = 1;
        continue;
      }
      this.len += (b & 0x7f) * this.mult;
      this.mult *= 128;
      this.lenBytes++;
      if (b & 0x80) {
        if (this.lenBytes >= 4) return false;
        continue;
      }
      if (this.len > this.max) return false;
      this.skip = this.len;
      this.lenBytes = -1;
    }
    return true;
  }
}

/** The socket as a duplex stream for the broker, its reading side guarded by `scanner`. */
export function guardedStream(socket: Duplex, scanner: PacketSizeScanner, onTooLarge: () => void): Duplex {
  let tripped = false;
  const d = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk, _enc, cb) {
      socket.write(chunk, cb);
    },
    // The broker corks the stream while it writes a packet's parts (and every packet of a tick):
    // hand them to the socket as one write, not one system call (and, with Nagle off, one TCP segment) each.
    writev(chunks, cb) {
      socket.write(chunks.length === 1 ? chunks[0]!.chunk : Buffer.concat(chunks.map((c) => c.chunk)), cb);
    },
    final(cb) {
      socket.end();
      cb();
    },
    destroy(err, cb) {
      socket.destroy();
      cb(err);
    },
  });
  socket.on("data", (chunk: Buffer) => {
    if (tripped) return;
    if (!scanner.feed(chunk)) {
      tripped = true;
      onTooLarge();
      d.destroy();
      return;
    }
    if (!d.push(chunk)) socket.pause();
  });
  socket.on("end", () => d.push(null));
  socket.on("close", () => d.destroy());
  socket.on("error", () => d.destroy());
  return d;
}
