// The host PIN over the WiFi without giving it away: SPAKE2 (RFC 9382's shape) over ristretto255. The PIN is six
// digits: a proof made with it (an HMAC) would fall to a listener trying every PIN offline in a second. In SPAKE2 each
// side sends a point blinded by the PIN; a listener learns nothing it can test PINs against, and one who takes part
// tests one guess per exchange — and the hub counts those (access/limiter.ts). Both ends end with the same key, with
// which the hub seals the new device's token.
import { ristretto255, ristretto255_hasher } from "@noble/curves/ed25519.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes, randomBytes } from "@noble/hashes/utils.js";
import { fromB64u, sameBytes, toB64u, utf8ToBytes } from "./bytes.js";

type Point = InstanceType<typeof ristretto255.Point>;
const P = ristretto255.Point;
const ORDER = P.Fn.ORDER;
const M = ristretto255_hasher.hashToCurve(utf8ToBytes("cng spake2 M"));
const N = ristretto255_hasher.hashToCurve(utf8ToBytes("cng spake2 N"));

function scalar(b: Uint8Array): bigint {
  let n = 0n;
  for (const x of b) n = (n << 8n) | BigInt(x);
  return n % ORDER;
}

/** The PIN as a scalar, bound to the table (`context`). */
function pinScalar(pin: string, context: string): bigint {
  return scalar(hkdf(sha256, utf8ToBytes(pin), utf8ToBytes(context), utf8ToBytes("cng pake pin"), 64));
}

function randomScalar(): bigint {
  for (;;) {
    const s = scalar(randomBytes(64));
    if (s !== 0n) return s;
  }
}

function point(b64: string): Point | null {
  const b = fromB64u(b64);
  if (b === null || b.length !== 32) return null;
  try {
    const p = P.fromBytes(b);
    return p.is0() ? null : p;
  } catch {
    return null;
  }
}

export interface PakeKeys {
  /** the shared key: what the hub seals the device's token under */
  key: Uint8Array;
  /** the client's confirmation, and the hub's */
  client: string;
  hub: string;
}

function keys(context: string, X: Point, Y: Point, K: Point, w: bigint): PakeKeys {
  const tt = sha256(
    concatBytes(utf8ToBytes(context), X.toBytes(), Y.toBytes(), K.toBytes(), utf8ToBytes(w.toString(16))),
  );
  const ka = hkdf(sha256, tt, new Uint8Array(0), utf8ToBytes("cng pake confirm"), 32);
  const tag = (who: string) => toB64u(hmac(sha256, ka, concatBytes(utf8ToBytes(who), X.toBytes(), Y.toBytes())));
  return {
    key: hkdf(sha256, tt, new Uint8Array(0), utf8ToBytes("cng pake key"), 32),
    client: tag("client"),
    hub: tag("hub"),
  };
}

/** The client's first move: its blinded point, and what it keeps to finish. */
export function pakeStart(pin: string, context: string): { X: string; finish: (Y: string) => PakeKeys | null } {
  const w = pinScalar(pin, context);
  const x = randomScalar();
  const X = P.BASE.multiply(x).add(M.multiply(w));
  return {
    X: toB64u(X.toBytes()),
    finish(Yb) {
      const Y = point(Yb);
      if (!Y) return null;
      return keys(context, X, Y, Y.subtract(N.multiply(w)).multiply(x), w);
    },
  };
}

/** The hub's answer to a client's point: its own, and the keys (null for a point that is none). */
export function pakeAnswer(pin: string, context: string, Xb: string): { Y: string; keys: PakeKeys } | null {
  const X = point(Xb);
  if (!X) return null;
  const w = pinScalar(pin, context);
  const y = randomScalar();
  const Y = P.BASE.multiply(y).add(N.multiply(w));
  return { Y: toB64u(Y.toBytes()), keys: keys(context, X, Y, X.subtract(M.multiply(w)).multiply(y), w) };
}

/** Whether a confirmation is the one expected. */
export function sameTag(a: string, b: string): boolean {
  const x = fromB64u(a);
  const y = fromB64u(b);
  return x !== null && y !== null && sameBytes(x, y);
}
