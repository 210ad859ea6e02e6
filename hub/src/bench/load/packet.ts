// MQTT 3.1.1 / 5 PUBLISH packets at QoS 0, encoded by hand: the aim load generator writes them straight
// to a connected client's socket, so producing tens of thousands of samples a second costs little.
// (A v5 QoS 0 PUBLISH also carries a properties length: pass `v5` for such a connection.)

/** Bytes of an MQTT variable byte integer. */
function varIntLength(n: number): number {
  return n < 128 ? 1 : n < 16384 ? 2 : n < 2097152 ? 3 : 4;
}

/** Writes one QoS 0 PUBLISH of `topic` / `payload` into `out` at `at`; returns the offset after it. */
export function writePublish(out: Buffer, at: number, topic: string, payload: string, v5 = false): number {
  const t = Buffer.byteLength(topic);
  const p = Buffer.byteLength(payload);
  let remaining = 2 + t + p + (v5 ? 1 : 0);
  let o = at;
  out[o++] = 0x30;
  do {
    let b = remaining % 128;
    remaining = Math.floor(remaining / 128);
    if (remaining > 0) b |= 0x80;
    out[o++] = b;
  } while (remaining > 0);
  out.writeUInt16BE(t, o);
  o += 2;
  o += out.write(topic, o, "utf8");
  if (v5) out[o++] = 0;
  o += out.write(payload, o, "utf8");
  return o;
}

/** Total bytes of that packet. */
export function publishLength(topic: string, payload: string, v5 = false): number {
  const remaining = 2 + Buffer.byteLength(topic) + Buffer.byteLength(payload) + (v5 ? 1 : 0);
  return 1 + varIntLength(remaining) + remaining;
}

/** One QoS 0 PUBLISH packet. */
export function publishPacket(topic: string, payload: string, v5 = false): Buffer {
  const b = Buffer.allocUnsafe(publishLength(topic, payload, v5));
  writePublish(b, 0, topic, payload, v5);
  return b;
}
