// MQTT CONNECT credentials → a principal, or a refusal with its reason.

import type { GunId } from "@cng/protocol";
import { isName, RESERVED_USERNAMES, SEAT_USER_RE } from "@cng/protocol";
import type { Seat } from "../rules/index.js";
import { sameSecret } from "../store/secrets.js";
import type { Principal } from "./principal.js";

export interface CredentialCheck {
  /** the hub's own client's password, made at start */
  hubSecret: string;
  hostPin(): string;
  isPaired(gun: GunId): boolean;
  checkGun(gun: GunId, secret: string): boolean;
  seatOfToken(token: string): Seat | null;
  /** false when too many unpaired guns are already waiting */
  mayRequestPairing(gun: GunId): boolean;
}

/** `guess`: a secret was given and it was wrong (the limiter counts it). */
export type AuthResult = { ok: true; principal: Principal } | { ok: false; reason: string; guess?: boolean };

/**
 * `waitMs`: how long this source must still wait before a secret of its is checked (the limiter's say); while it
 * waits, logins that need a secret are refused unchecked. A viewer or a new gun asking to be paired needs none.
 */
export function authenticate(
  c: CredentialCheck,
  username: string | undefined,
  password: string | undefined,
  waitMs = 0,
): AuthResult {
  if (username === undefined || username === "" || username === "viewer") {
    return { ok: true, principal: { role: "viewer" } };
  }
  const pw = password ?? "";
  const waiting: AuthResult = {
    ok: false,
    reason: `too many wrong secrets from this address: try again in ${Math.ceil(waitMs / 1000)} s`,
  };
  const wrong = (reason: string): AuthResult => ({ ok: false, reason, guess: true });
  if (username === "hub") {
    // never held back: its secret is 32 random bytes, and the hub's own client must always get back in
    return sameSecret(pw, c.hubSecret) ? { ok: true, principal: { role: "hub" } } : wrong("bad hub secret");
  }
  if (username === "host") {
    if (waitMs > 0) return waiting;
    return sameSecret(pw, c.hostPin()) ? { ok: true, principal: { role: "host" } } : wrong("wrong PIN");
  }
  const seat = SEAT_USER_RE.exec(username);
  if (seat) {
    if (waitMs > 0) return waiting;
    const s = c.seatOfToken(pw);
    return s !== null && s === Number(seat[1])
      ? { ok: true, principal: { role: "seat", seat: s } }
      : wrong("wrong seat token");
  }
  if (!isName(username) || RESERVED_USERNAMES.includes(username)) {
    return { ok: false, reason: "username is not a gun id, host, viewer or seat-<n>" };
  }
  if (c.isPaired(username)) {
    if (waitMs > 0) return waiting;
    return c.checkGun(username, pw)
      ? { ok: true, principal: { role: "gun", gun: username } }
      : wrong("wrong gun secret");
  }
  if (!c.mayRequestPairing(username)) return { ok: false, reason: "too many guns waiting to be paired" };
  return { ok: true, principal: { role: "pending", gun: username } };
}
