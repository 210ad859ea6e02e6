// A paired gun proves its key at CONNECT instead of sending it (boards that can hash: firmware/src/main.ts `login`):
// "g1.<boot>.<n>.<mac>", mac the HMAC-SHA256 keyed by the key's SHA-256 hex (all the hub keeps of it) over
// "<gun>|<client id>|<boot>.<n>"; `boot` counts the gun's starts since pairing, `n` its logins since it started. Each
// login must be newer than the gun's last: a CONNECT heard on the WiFi cannot be sent again, and says nothing of the key.
import { createHmac } from "node:crypto";
import type { GunId } from "@cng/protocol";
import { sameSecret } from "../store/secrets.js";

export const GUN_PROOF_PREFIX = "g1.";

export interface GunProof {
  boot: number;
  n: number;
  mac: string;
}

export function parseGunProof(password: string): GunProof | null {
  const m = /^g1\.(\d{1,9})\.(\d{1,9})\.([0-9a-f]{64})$/.exec(password);
  return m ? { boot: Number(m[1]), n: Number(m[2]), mac: m[3]! } : null;
}

/** The proof's HMAC, as the gun makes it (its key: the 64 hex characters as bytes, firmware/src/mac.ts). */
export function gunProofMac(keyHash: string, gun: GunId, clientId: string, boot: number, n: number): string {
  return createHmac("sha256", Buffer.from(keyHash, "latin1"))
    .update(`${gun}|${clientId}|${boot}.${n}`, "latin1")
    .digest("hex");
}

export interface GunLogins {
  gunKeyHash(gun: GunId): string | undefined;
  gunLogin(gun: GunId): { boot: number; n: number } | null;
  setGunLogin(gun: GunId, boot: number, n: number): void;
}

/** Whether `password` proves `gun`'s key on `clientId`, newer than its last login (which it then becomes). */
export function checkGunProof(store: GunLogins, gun: GunId, clientId: string, password: string): boolean {
  const p = parseGunProof(password);
  const h = store.gunKeyHash(gun);
  if (!p || h === undefined || !sameSecret(p.mac, gunProofMac(h, gun, clientId, p.boot, p.n))) return false;
  const last = store.gunLogin(gun);
  if (last && (p.boot < last.boot || (p.boot === last.boot && p.n <= last.n))) return false;
  store.setGunLogin(gun, p.boot, p.n);
  return true;
}
