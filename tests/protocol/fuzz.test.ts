// Throws random and mutated payloads at the hub-side decoders: every one must come back
// classified (a value or a typed error), none may throw.
import { readFileSync } from "node:fs";
import type { Decoded, MessageKind, ProtocolErrorCode } from "@cng/protocol";
import * as protocol from "@cng/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const decoders: [MessageKind, (p: string | Buffer) => Decoded<unknown>][] = [
  ["aim", protocol.decodeAim],
  ["trig", protocol.decodeTrigger],
  ["info", protocol.decodeInfo],
  ["sync", protocol.decodeSync],
  ["err", protocol.decodeGunError],
  ["will", protocol.decodeWill],
  ["cue", protocol.decodeCue],
  ["cmd", protocol.decodeCommand],
  ["req", protocol.decodeRequest],
  ["res", protocol.decodeResponse],
];
const CODES: ProtocolErrorCode[] = ["json", "size", "version", "type", "range", "field", "topic"];

const seeds = (
  JSON.parse(readFileSync(new URL("../../shared/protocol/vectors/valid.json", import.meta.url), "utf8")) as {
    vectors: { json: string }[];
  }
).vectors.map((v) => v.json);

/** A valid payload with one edit: a byte flipped, a slice cut, a value swapped for another JSON value. */
const mutated = fc
  .tuple(
    fc.constantFrom(...seeds),
    fc.nat(),
    fc.nat(),
    fc.oneof(
      fc.string(),
      fc.jsonValue().map((j) => JSON.stringify(j) ?? ""),
    ),
  )
  .map(([s, a, b, insert]) => {
    const i = a % (s.length + 1);
    const j = Math.min(s.length, i + (b % 8));
    return s.slice(0, i) + insert + s.slice(j);
  });

/** A valid message with one field replaced by a random JSON value, or a random field added. */
const fieldSwapped = fc
  .tuple(fc.constantFrom(...seeds), fc.nat(), fc.jsonValue(), fc.string({ maxLength: 4 }))
  .map(([s, k, value, extra]) => {
    const o = JSON.parse(s) as Record<string, unknown>;
    const keys = Object.keys(o);
    if (k % 5 === 0) o[extra] = value;
    else o[keys[k % keys.length]] = value;
    return JSON.stringify(o);
  });

const anything = fc.oneof(
  fc.string(),
  fc.jsonValue().map((j) => JSON.stringify(j) ?? ""),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
  mutated,
  fieldSwapped,
);

function classified(d: Decoded<unknown>): boolean {
  return d.ok ? typeof d.value === "object" && d.value !== null : CODES.includes(d.error.code);
}

describe("decoder fuzz", () => {
  it("classifies ≥ 10,000 random and mutated payloads per decoder without throwing", () => {
    let seen = 0;
    for (const [, decode] of decoders) {
      fc.assert(
        fc.property(anything, (payload) => {
          seen++;
          return classified(decode(payload));
        }),
        { numRuns: 1_200, seed: 42 },
      );
    }
    expect(seen).toBeGreaterThanOrEqual(10_000);
  });

  it("whatever it accepts re-encodes to an equal message", () => {
    fc.assert(
      fc.property(fc.oneof(mutated, fieldSwapped), (payload) => {
        for (const [, decode] of decoders) {
          const d = decode(payload);
          if (d.ok) expect(decode(JSON.stringify(d.value))).toEqual(d);
        }
      }),
      { numRuns: 2_000, seed: 7 },
    );
  });

  it("the gun's light decoder never throws either", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), mutated, fieldSwapped), fc.boolean(), (payload, cue) => {
        const r = protocol.decIn(cue ? "cue" : "cmd", payload);
        return typeof r === "string" ? CODES.includes(r as ProtocolErrorCode) : typeof r === "object";
      }),
      { numRuns: 5_000, seed: 3 },
    );
  });
});
