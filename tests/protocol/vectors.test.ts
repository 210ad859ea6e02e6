// The shared test vectors, checked against both sides: the firmware's encoders and
// light decoder, and the hub's strict decoders.
import { readFileSync } from "node:fs";
import * as protocol from "@cng/protocol";
import { type Decoded, decIn, MAX_BYTES, type MessageKind } from "@cng/protocol";
import { describe, expect, it } from "vitest";

interface ValidVector {
  kind: MessageKind;
  json: string;
  value: unknown;
  enc?: [string, ...unknown[]];
}
interface InvalidVector {
  kind: MessageKind;
  payload: string;
  code: string;
  field?: string;
  gun?: boolean;
}

const dir = new URL("../../shared/protocol/vectors/", import.meta.url);
const valid = (JSON.parse(readFileSync(new URL("valid.json", dir), "utf8")) as { vectors: ValidVector[] }).vectors;
const invalid = (JSON.parse(readFileSync(new URL("invalid.json", dir), "utf8")) as { vectors: InvalidVector[] })
  .vectors;

const decoders: Record<MessageKind, (p: string | Buffer) => Decoded<unknown>> = {
  aim: protocol.decodeAim,
  trig: protocol.decodeTrigger,
  info: protocol.decodeInfo,
  sync: protocol.decodeSync,
  err: protocol.decodeGunError,
  will: protocol.decodeWill,
  cue: protocol.decodeCue,
  cmd: protocol.decodeCommand,
  imu: protocol.decodeImu,
  ota: protocol.decodeOtaBegin,
  otas: protocol.decodeOtaState,
  req: protocol.decodeRequest,
  res: protocol.decodeResponse,
};

describe("valid vectors", () => {
  it.each(valid.map((v) => [v.kind, v.json, v] as const))("%s %s decodes to its value", (kind, json, v) => {
    expect(decoders[kind](json)).toEqual({ ok: true, value: v.value });
    // Buffers (what MQTT clients hand over) decode the same as strings.
    expect(decoders[kind](Buffer.from(json))).toEqual({ ok: true, value: v.value });
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(MAX_BYTES[kind]);
  });

  const encoded = valid.filter((v) => v.enc);
  it.each(encoded.map((v) => [v.enc![0], v.json, v] as const))("firmware %s encodes %s", (_name, json, v) => {
    const [name, ...args] = v.enc!;
    const fn = (protocol as unknown as Record<string, (...a: unknown[]) => string>)[name];
    expect(typeof fn).toBe("function");
    const out = fn(...args.map((a) => (a === null ? undefined : a)));
    expect(JSON.parse(out)).toEqual(JSON.parse(json));
    if (name !== "encInfo" && name !== "encErr") expect(out).toBe(json);
  });

  it("aim samples stay well under 100 bytes even at their longest", () => {
    const longest = protocol.encAim(99_999_999_999, -179.96, -89.96, -179.96, true);
    expect(longest.length).toBeLessThan(80);
    expect(protocol.decodeAim(longest).ok).toBe(true);
  });

  it.each(valid.filter((v) => v.kind === "cue" || v.kind === "cmd").map((v) => [v.json, v] as const))(
    "the gun's decoder accepts %s",
    (json, v) => {
      expect(decIn(v.kind as "cue" | "cmd", json)).toEqual(v.value);
    },
  );
});

describe("invalid vectors", () => {
  it.each(invalid.map((v) => [v.kind, v.payload, v] as const))("%s %s is refused", (kind, payload, v) => {
    const d = decoders[kind](payload);
    expect(d.ok).toBe(false);
    if (d.ok) return;
    expect(d.error.code).toBe(v.code);
    if (v.field) expect(d.error.field).toBe(v.field);
    expect(d.error.message.length).toBeGreaterThan(5);
  });

  it.each(invalid.filter((v) => v.gun).map((v) => [v.kind, v.payload, v] as const))(
    "the gun refuses %s %s",
    (kind, payload, v) => {
      expect(decIn(kind as "cue" | "cmd", payload)).toBe(v.code);
    },
  );

  it("an oversize payload is refused before it is parsed", () => {
    const huge = Buffer.alloc(1_000_000, "{");
    for (const kind of Object.keys(decoders) as MessageKind[]) {
      const d = decoders[kind](huge);
      expect(d.ok ? "ok" : d.error.code).toBe("size");
    }
  });
});
