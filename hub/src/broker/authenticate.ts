// MQTT CONNECT credentials → a principal, or a refusal with its reason.

import type { GunId } from "@cng/protocol";
import { isName, RESERVED_USERNAMES, SEAT_USER_RE } from "@cng/protocol";
import { type WaitScope, waitText } from "../access/limiter.js";
import type { Seat } from "../rules/index.js";
import {
  checkProof,
  keyOfHash,
  PROOF_WINDOW_MS,
  type Proof,
  parseProof,
  secretKey,
  sessionKey,
} from "../seal/index.js";
import type { DeviceId } from "../store/devices.js";
import { sameSecret } from "../store/secrets.js";
import { GUN_PROOF_PREFIX } from "./gun-proof.js";
import type { Principal } from "./principal.js";

export interface CredentialCheck {
  /** the hub's own client's password, made at start */
  hubSecret: string;
  hostPin(): string;
  /** the host device a token belongs to, or null */
  hostDevice(token: string): DeviceId | null;
  isPaired(gun: GunId): boolean;
  checkGun(gun: GunId, secret: string): boolean;
  seatOfToken(token: string): Seat | null;
  /** false when too many unpaired guns are already waiting */
  mayRequestPairing(gun: GunId): boolean;
  /** the hash of a host device's token (the key its proofs are made with), or null */
  hostDeviceKey(device: DeviceId): string | null;
  /** a seat's token now, or null */
  seatToken(seat: Seat): string | null;
  /** the hub's time, ms */
  now(): number;
  /** true the first time a proof's nonce is seen (a proof heard on the air cannot be sent again) */
  freshNonce(nonce: string): boolean;
  /** a paired gun's proof of its key at CONNECT, newer than its last (broker/gun-proof.ts) */
  checkGunProof(gun: GunId, clientId: string, proof: string): boolean;
}

/**
 * `guess`: a secret was given and it was wrong (the limiter counts it; `pin`: it was a PIN, which the hub's own budget
 * counts too). `waited`: a PIN refused unchecked. `full`: every pairing slot is taken.
 */
export type AuthResult =
  /** `key`: the session's, when the client proved its secret (seal/proof.ts): what it says is sealed under it */
  | { ok: true; principal: Principal; key?: Uint8Array }
  | { ok: false; reason: string; guess?: boolean; pin?: boolean; waited?: boolean; full?: boolean };

const NO_WAIT = { ms: 0, scope: "source" } as const;

/**
 * `wait`: how long a PIN from this source must still wait before it is checked (the limiter's say); while it
 * waits, a PIN is refused unchecked. The secrets the hub made (gun keys, seat tokens, host devices' tokens) are
 * checked at any time: too long to guess, they let the host and the table in while someone guesses. A viewer or a
 * new gun asking to be paired needs no secret.
 */
export function authenticate(
  c: CredentialCheck,
  username: string | undefined,
  password: string | undefined,
  wait: { ms: number; scope: WaitScope } = NO_WAIT,
  clientId = "",
): AuthResult {
  if (username === undefined || username === "" || username === "viewer") {
    return { ok: true, principal: { role: "viewer" } };
  }
  const pw = password ?? "";
  const wrong = (reason: string): AuthResult => ({ ok: false, reason, guess: true });
  if (username === "hub") {
    // its secret is 32 random bytes, and the hub's own client must always get back in
    return sameSecret(pw, c.hubSecret) ? { ok: true, principal: { role: "hub" } } : wrong("bad hub secret");
  }
  if ((username === "host" || SEAT_USER_RE.test(username)) && parseProof(pw)) {
    return proven(c, username, parseProof(pw)!, clientId);
  }
  if (username === "host") {
    const device = c.hostDevice(pw);
    if (device !== null) return { ok: true, principal: { role: "host", device } };
    if (wait.ms > 0) return { ok: false, reason: waitText(wait), waited: true };
    return sameSecret(pw, c.hostPin())
      ? { ok: true, principal: { role: "host" } }
      : { ok: false, reason: "wrong PIN", guess: true, pin: true };
  }
  const seat = SEAT_USER_RE.exec(username);
  if (seat) {
    const s = c.seatOfToken(pw);
    return s !== null && s === Number(seat[1])
      ? { ok: true, principal: { role: "seat", seat: s } }
      : wrong("wrong seat token");
  }
  if (!isName(username) || RESERVED_USERNAMES.includes(username)) {
    return { ok: false, reason: "username is not a gun id, host, viewer or seat-<n>" };
  }
  if (c.isPaired(username) && pw.startsWith(GUN_PROOF_PREFIX)) {
    return c.checkGunProof(username, clientId, pw)
      ? { ok: true, principal: { role: "gun", gun: username } }
      : wrong("wrong or old gun proof");
  }
  if (c.isPaired(username)) {
    return c.checkGun(username, pw)
      ? { ok: true, principal: { role: "gun", gun: username } }
      : wrong("wrong gun secret");
  }
  if (!c.mayRequestPairing(username)) return { ok: false, reason: "too many guns waiting to be paired", full: true };
  return { ok: true, principal: { role: "pending", gun: username } };
}

/**
 * A host device or a seat proving its secret (seal/proof.ts) instead of sending it: the proof must be this client's,
 * made with the secret, recent, and new. The session's key comes with it.
 */
function proven(c: CredentialCheck, username: string, proof: Proof, clientId: string): AuthResult {
  const wrong = (reason: string): AuthResult => ({ ok: false, reason, guess: true });
  let key: Uint8Array | null = null;
  let principal: Principal;
  if (username === "host") {
    const hash = c.hostDeviceKey(proof.id);
    if (hash !== null) key = keyOfHash(hash);
    principal = { role: "host", device: proof.id };
  } else {
    const seat = Number(SEAT_USER_RE.exec(username)![1]);
    const token = proof.id === "" ? c.seatToken(seat) : null;
    if (token !== null) key = secretKey(token);
    principal = { role: "seat", seat };
  }
  const what = principal.role === "host" ? "device token" : "seat token";
  if (key === null || !checkProof(key, username, clientId, proof)) return wrong(`wrong ${what}`);
  if (Math.abs(proof.t - c.now()) > PROOF_WINDOW_MS)
    return { ok: false, reason: "proof out of date: is the clock right?" };
  if (!c.freshNonce(proof.nonce)) return { ok: false, reason: "proof used before" };
  return { ok: true, principal, key: sessionKey(key, clientId, proof) };
}
