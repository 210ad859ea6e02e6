// MQTT CONNECT credentials → a principal, or a refusal with its reason.
import { isName } from "@cng/protocol";
import type { GunId, SeatNo } from "../guns/types.js";
import { sameSecret } from "../store/secrets.js";
import { type Principal, RESERVED_USERNAMES, SEAT_USER_RE } from "./principal.js";

export interface CredentialCheck {
  /** the hub's own client's password, made at start */
  hubSecret: string;
  hostPin(): string;
  isPaired(gun: GunId): boolean;
  checkGun(gun: GunId, secret: string): boolean;
  seatOfToken(token: string): SeatNo | null;
  /** false when too many unpaired guns are already waiting */
  mayRequestPairing(gun: GunId): boolean;
}

export type AuthResult = { ok: true; principal: Principal } | { ok: false; reason: string };

export function authenticate(
  c: CredentialCheck,
  username: string | undefined,
  password: string | undefined,
): AuthResult {
  if (username === undefined || username === "" || username === "viewer") {
    return { ok: true, principal: { role: "viewer" } };
  }
  const pw = password ?? "";
  if (username === "hub") {
    return sameSecret(pw, c.hubSecret)
      ? { ok: true, principal: { role: "hub" } }
      : { ok: false, reason: "bad hub secret" };
  }
  if (username === "host") {
    return sameSecret(pw, c.hostPin()) ? { ok: true, principal: { role: "host" } } : { ok: false, reason: "wrong PIN" };
  }
  const seat = SEAT_USER_RE.exec(username);
  if (seat) {
    const s = c.seatOfToken(pw);
    return s !== null && s === Number(seat[1])
      ? { ok: true, principal: { role: "seat", seat: s } }
      : { ok: false, reason: "wrong seat token" };
  }
  if (!isName(username) || RESERVED_USERNAMES.includes(username)) {
    return { ok: false, reason: "username is not a gun id, host, viewer or seat-<n>" };
  }
  if (c.isPaired(username)) {
    return c.checkGun(username, pw)
      ? { ok: true, principal: { role: "gun", gun: username } }
      : { ok: false, reason: "wrong gun secret" };
  }
  if (!c.mayRequestPairing(username)) return { ok: false, reason: "too many guns waiting to be paired" };
  return { ok: true, principal: { role: "pending", gun: username } };
}
