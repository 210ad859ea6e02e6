// Host devices: a browser that logged in with the host PIN once is given a long random token, and logs in with it
// from then on, from any address, without the PIN and without waiting on anyone's wrong guesses. The hub keeps the
// token's hash only; the host revokes a device from Setup.
import { randomBytes } from "node:crypto";
import type { Db } from "./db.js";
import { hashSecret } from "./secrets.js";

/** A device's token: 32 random bytes, url-safe (43 characters), after a prefix no PIN can have. */
const PREFIX = "hd.";
export const DEVICE_TOKEN_RE = /^hd\.[A-Za-z0-9_-]{43}$/;
/** the longest name a device may give itself */
export const DEVICE_NAME_MAX = 60;
/** devices kept at most: a host enrolling this many has a leak, not a table */
export const MAX_DEVICES = 50;

const SEEN_EVERY_MS = 60_000;

export type DeviceId = string;

export interface HostDevice {
  id: DeviceId;
  name: string;
  createdAt: number;
  lastSeen: number;
}

interface Row {
  id: string;
  name: string;
  created_at: number;
  last_seen: number;
}

/** The name without control characters (it is shown in Setup and written to the log). */
function printable(s: string): string {
  let out = "";
  for (const ch of s) if (ch >= " " && ch !== "\u007f") out += ch;
  return out;
}

export class HostDevices {
  constructor(private readonly db: Db) {}

  /** A new device named `name`; its token is returned once and never kept. */
  enrol(name: string, now: number): { device: HostDevice; token: string } | { error: string } {
    if (this.list().length >= MAX_DEVICES) return { error: `at most ${MAX_DEVICES} host devices: revoke one first` };
    const id = randomBytes(6).toString("base64url");
    const token = PREFIX + randomBytes(32).toString("base64url");
    const clean = printable(name).slice(0, DEVICE_NAME_MAX).trim() || "a browser";
    this.db
      .prepare("INSERT INTO host_devices (id, name, token_hash, created_at, last_seen) VALUES (?, ?, ?, ?, ?)")
      .run(id, clean, hashSecret(token), now, now);
    return { device: { id, name: clean, createdAt: now, lastSeen: now }, token };
  }

  /** The device a token belongs to, or null; notes when it was last seen. */
  check(token: string, now: number): DeviceId | null {
    if (!DEVICE_TOKEN_RE.test(token)) return null;
    // the token's hash is looked up: a hash gives away nothing about a token that differs from it
    const row = this.db
      .prepare<[string], { id: string; last_seen: number }>(
        "SELECT id, last_seen FROM host_devices WHERE token_hash = ?",
      )
      .get(hashSecret(token));
    if (!row) return null;
    // every host request carries the token: the database hears of it once a minute, not per request
    if (now - row.last_seen > SEEN_EVERY_MS) {
      this.db.prepare("UPDATE host_devices SET last_seen = ? WHERE id = ?").run(now, row.id);
    }
    return row.id;
  }

  /**
   * The hash of device `id`'s token, which is the key of its proofs (seal/proof.ts): the device proves its token
   * without sending it. Null for no such device. Notes when it was last seen, as check() does.
   */
  keyHash(id: DeviceId, now: number): string | null {
    const row = this.db
      .prepare<[string], { token_hash: string; last_seen: number }>(
        "SELECT token_hash, last_seen FROM host_devices WHERE id = ?",
      )
      .get(id);
    if (!row) return null;
    if (now - row.last_seen > SEEN_EVERY_MS) {
      this.db.prepare("UPDATE host_devices SET last_seen = ? WHERE id = ?").run(now, id);
    }
    return row.token_hash;
  }

  list(): HostDevice[] {
    return this.db
      .prepare<[], Row>("SELECT id, name, created_at, last_seen FROM host_devices ORDER BY created_at, id")
      .all()
      .map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at, lastSeen: r.last_seen }));
  }

  revoke(id: DeviceId): boolean {
    return this.db.prepare("DELETE FROM host_devices WHERE id = ?").run(id).changes > 0;
  }
}
