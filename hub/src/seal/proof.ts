// Secrets proven, not sent: a client that holds a secret (a host device's token, a seat token) logs in with a proof of
// it made for this login alone — the time, a fresh nonce and an HMAC-SHA256 over them, its user name and client id —
// so a listener on the WiFi learns nothing it could log in with (the hub refuses a nonce twice and a time far off
// its own). Both ends derive the session's key from the same secret and nonce: what the session says is sealed.
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { hexToBytes, randomBytes } from "@noble/hashes/utils.js";
import { deriveKey } from "./box.js";
import { fromB64u, sameBytes, toB64u, utf8ToBytes } from "./bytes.js";

export const PROOF_PREFIX = "p1.";
/** how far a proof's time may be from the hub's, ms */
export const PROOF_WINDOW_MS = 60_000;

/** A secret's key: its SHA-256, which is also what the hub keeps of the secrets it does not show again. */
export function secretKey(secret: string): Uint8Array {
  return sha256(utf8ToBytes(secret));
}

/** The key of a secret the hub keeps only as its SHA-256 in hex (store/secrets.ts hashSecret). */
export function keyOfHash(hex: string): Uint8Array {
  return hexToBytes(hex);
}

export interface Proof {
  /** which secret: a host device's id; "" when the user name says (a seat) */
  id: string;
  /** the prover's idea of the hub's time, ms */
  t: number;
  nonce: string;
  mac: string;
}

function mac(key: Uint8Array, user: string, clientId: string, id: string, t: number, nonce: string): Uint8Array {
  return hmac(sha256, key, utf8ToBytes(`${user}|${clientId}|${id}|${t}|${nonce}`));
}

/** The password that proves `key` for `user` on `clientId` at hub time `now`. */
export function makeProof(key: Uint8Array, user: string, clientId: string, now: number, id = ""): string {
  const t = Math.floor(now);
  const nonce = toB64u(randomBytes(16));
  return `${PROOF_PREFIX}${id}.${t}.${nonce}.${toB64u(mac(key, user, clientId, id, t, nonce))}`;
}

/** A proof's parts, or null when `password` is no proof (then it is the secret itself, as older clients send it). */
export function parseProof(password: string): Proof | null {
  if (!password.startsWith(PROOF_PREFIX)) return null;
  const m = /^([A-Za-z0-9_-]{0,32})\.(\d{1,16})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(
    password.slice(PROOF_PREFIX.length),
  );
  return m ? { id: m[1]!, t: Number(m[2]), nonce: m[3]!, mac: m[4]! } : null;
}

/** Whether `p` proves `key` for `user` on `clientId` (its time and nonce are the caller's to check). */
export function checkProof(key: Uint8Array, user: string, clientId: string, p: Proof): boolean {
  const got = fromB64u(p.mac);
  return got !== null && sameBytes(got, mac(key, user, clientId, p.id, p.t, p.nonce));
}

/** The key of the session a proof opened: both ends have it, nobody listening does. */
export function sessionKey(key: Uint8Array, clientId: string, p: Proof): Uint8Array {
  return deriveKey(key, `session ${clientId} ${p.t}`, utf8ToBytes(p.nonce));
}

/** The key a seat's private view is sealed under, from its token. */
export function viewKey(seatToken: string, table: string, seat: number): Uint8Array {
  return deriveKey(secretKey(seatToken), `view ${table} ${seat}`);
}
