// Sealed messages: ChaCha20-Poly1305 (RFC 8439) under a key only the two ends hold, so what crosses the table's WiFi
// is unreadable to anyone else who holds the WiFi password. A sealed payload is text: "x1." and the base64url of a
// random 12-byte nonce and the ciphertext with its tag. Keys come from a secret that travelled out of band (a seat
// link's fragment, a host device's token), never from anything sent on the network.
import { chacha20poly1305 } from "@noble/ciphers/chacha.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { randomBytes } from "@noble/hashes/utils.js";
import { bytesToUtf8, fromB64u, toB64u, utf8ToBytes } from "./bytes.js";

export const SEALED_PREFIX = "x1.";
const NONCE = 12;

/** A 32-byte key for `purpose`, from a secret's key (secretKey) and what binds it to one use (`salt`). */
export function deriveKey(secretKey: Uint8Array, purpose: string, salt: Uint8Array = new Uint8Array(0)): Uint8Array {
  return hkdf(sha256, secretKey, salt, utf8ToBytes(`cng ${purpose}`), 32);
}

/** `text` sealed under `key`. */
export function seal(key: Uint8Array, text: string): string {
  const nonce = randomBytes(NONCE);
  const ct = chacha20poly1305(key, nonce).encrypt(utf8ToBytes(text));
  const out = new Uint8Array(NONCE + ct.length);
  out.set(nonce, 0);
  out.set(ct, NONCE);
  return SEALED_PREFIX + toB64u(out);
}

export function isSealed(payload: string): boolean {
  return payload.startsWith(SEALED_PREFIX);
}

/** The text sealed in `payload` under `key`; null when it is not sealed, damaged, or sealed under another key. */
export function open(key: Uint8Array, payload: string): string | null {
  if (!isSealed(payload)) return null;
  const b = fromB64u(payload.slice(SEALED_PREFIX.length));
  if (b === null || b.length < NONCE + 16) return null;
  try {
    return bytesToUtf8(chacha20poly1305(key, b.subarray(0, NONCE)).decrypt(b.subarray(NONCE)));
  } catch {
    return null;
  }
}
