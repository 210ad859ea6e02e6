// Credentials kept in the database: gun secrets and their bridges' tokens (hashed), seat tokens, the host PIN.
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { type GunId, linkProofText } from "@cng/protocol";
import type { Seat } from "../rules/index.js";
import type { Db } from "./db.js";

/** A gun's MQTT password: 32 url-safe characters (192 bits), fits CommandMsg `key`. */
export function newSecret(): string {
  return randomBytes(24).toString("base64url");
}

export function newPin(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** Constant-time string comparison. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface PairedGun {
  id: GunId;
  seat: Seat | null;
  pairedAt: number;
}

export class SecretStore {
  constructor(private readonly db: Db) {}

  /** The stored host PIN, replaced by `wanted` when given; created on first use. */
  hostPin(wanted?: string): string {
    const row = this.db.prepare<[string], { v: string }>("SELECT v FROM kv WHERE k = ?").get("pin");
    if (row && (wanted === undefined || wanted === row.v)) return row.v;
    const pin = wanted ?? newPin();
    this.db.prepare("INSERT OR REPLACE INTO kv (k, v) VALUES ('pin', ?)").run(pin);
    return pin;
  }

  guns(): PairedGun[] {
    return this.db
      .prepare<[], { id: string; seat: number | null; paired_at: number }>(
        "SELECT id, seat, paired_at FROM guns ORDER BY id",
      )
      .all()
      .map((r) => ({ id: r.id, seat: r.seat, pairedAt: r.paired_at }));
  }

  /** Stores a new secret for the gun (replacing any old one) and returns it; only its hash is kept. */
  pairGun(id: GunId, seat: Seat | null, now: number): string {
    const secret = newSecret();
    this.db
      .prepare("INSERT OR REPLACE INTO guns (id, secret_hash, seat, paired_at) VALUES (?, ?, ?, ?)")
      .run(id, hashSecret(secret), seat, now);
    return secret;
  }

  /**
   * The hex SHA-256 of a paired gun's key, as stored, or undefined: what gun and hub share, which keys the proofs the
   * gun checks (a discovery answer, an update's `begin`).
   */
  gunKeyHash(id: GunId): string | undefined {
    return this.db.prepare<[string], { secret_hash: string }>("SELECT secret_hash FROM guns WHERE id = ?").get(id)
      ?.secret_hash;
  }

  /** The counters of the gun's last login by proof, or null before its first. */
  gunLogin(id: GunId): { boot: number; n: number } | null {
    const r = this.db
      .prepare<[string], { b: number | null; n: number | null }>(
        "SELECT login_boot AS b, login_n AS n FROM guns WHERE id = ?",
      )
      .get(id);
    return r && r.b !== null && r.n !== null ? { boot: r.b, n: r.n } : null;
  }

  /** Keeps the counters of a login by proof: the next must be newer. */
  setGunLogin(id: GunId, boot: number, n: number): void {
    this.db.prepare("UPDATE guns SET login_boot = ?, login_n = ? WHERE id = ?").run(boot, n, id);
  }

  /** The gun's key, or its bridge's token (bridgeToken): either logs in as that gun. */
  checkGun(id: GunId, secret: string): boolean {
    const row = this.db
      .prepare<[string], { secret_hash: string; bridge_hash: string | null }>(
        "SELECT secret_hash, bridge_hash FROM guns WHERE id = ?",
      )
      .get(id);
    if (row === undefined) return false;
    const h = hashSecret(secret);
    // both compared, whichever matches: no timing says which one a guess was near
    const key = sameSecret(row.secret_hash, h);
    const bridge = row.bridge_hash !== null && sameSecret(row.bridge_hash, h);
    return key || bridge;
  }

  /**
   * A new login for the bridge that carries a paired gun over a serial or Bluetooth link (the gun itself never hands
   * its key out again: firmware/src/serial.ts): random, kept only hashed beside the key, the gun's MQTT password from
   * now on in place of the one before; void once the gun is forgotten or paired again. Undefined for a gun not paired.
   */
  bridgeToken(id: GunId): string | undefined {
    const token = newSecret();
    const n = this.db.prepare("UPDATE guns SET bridge_hash = ? WHERE id = ?").run(hashSecret(token), id).changes;
    return n > 0 ? token : undefined;
  }

  /**
   * What proves a link to a paired gun over the nonce of its hello (`n`): HMAC-SHA256 of linkProofText(n) keyed by the
   * key's hash, hex, as the gun checks it (firmware/src/mac.ts); undefined for a gun not paired.
   */
  linkProof(id: GunId, n: string): string | undefined {
    const k = this.gunKeyHash(id);
    return k === undefined ? undefined : createHmac("sha256", k).update(linkProofText(n), "latin1").digest("hex");
  }

  setGunSeat(id: GunId, seat: Seat | null): void {
    this.db.prepare("UPDATE guns SET seat = ? WHERE id = ?").run(seat, id);
  }

  forgetGun(id: GunId): boolean {
    return this.db.prepare("DELETE FROM guns WHERE id = ?").run(id).changes > 0;
  }

  /**
   * The seat's console token, created on first use or when `renew`, for `player` (the game's player at the seat; null
   * before any game). A token made for nobody is taken by the player it is asked for next. `replaced`: an older token
   * is void now (its consoles must be closed).
   */
  seatToken(seat: Seat, renew = false, player: string | null = null): { token: string; replaced: boolean } {
    const row = this.db
      .prepare<[number], { token: string; player: string | null }>(
        "SELECT token, player FROM seat_tokens WHERE seat = ?",
      )
      .get(seat);
    if (row && !renew && (row.player === null || row.player === player)) {
      if (row.player === null && player !== null) {
        this.db.prepare("UPDATE seat_tokens SET player = ? WHERE seat = ?").run(player, seat);
      }
      return { token: row.token, replaced: false };
    }
    const token = randomBytes(12).toString("base64url");
    this.db
      .prepare("INSERT OR REPLACE INTO seat_tokens (seat, token, player) VALUES (?, ?, ?)")
      .run(seat, token, player);
    return { token, replaced: row !== undefined };
  }

  /**
   * A new game with `players` (by seat): a token stays with the player it was made for, and one made between games
   * goes to whoever now sits there; every other token is dropped. Returns the seats whose tokens were dropped (their
   * consoles must be closed: they would read the next player's hand).
   */
  seatTokensFor(players: readonly string[]): Seat[] {
    const rows = this.db
      .prepare<[], { seat: number; player: string | null }>("SELECT seat, player FROM seat_tokens")
      .all();
    const dropped: Seat[] = [];
    for (const r of rows) {
      const now = players[r.seat];
      if (now !== undefined && (r.player === null || r.player === now)) {
        if (r.player === null) this.db.prepare("UPDATE seat_tokens SET player = ? WHERE seat = ?").run(now, r.seat);
        continue;
      }
      this.db.prepare("DELETE FROM seat_tokens WHERE seat = ?").run(r.seat);
      dropped.push(r.seat);
    }
    return dropped;
  }

  /**
   * The token that may read `player`'s private view at `seat`: the seat's, if it was made for that player or for
   * nobody yet (the next game's player takes it); null otherwise.
   */
  viewToken(seat: Seat, player: string): string | null {
    const row = this.db
      .prepare<[number], { token: string; player: string | null }>(
        "SELECT token, player FROM seat_tokens WHERE seat = ?",
      )
      .get(seat);
    return row && (row.player === null || row.player === player) ? row.token : null;
  }

  /** The seat's token now, or null when it has none. */
  tokenOf(seat: Seat): string | null {
    return (
      this.db.prepare<[number], { token: string }>("SELECT token FROM seat_tokens WHERE seat = ?").get(seat)?.token ??
      null
    );
  }

  /** The seat a token belongs to, or null. */
  seatOfToken(token: string): Seat | null {
    const rows = this.db.prepare<[], { seat: number; token: string }>("SELECT seat, token FROM seat_tokens").all();
    for (const r of rows) if (sameSecret(r.token, token)) return r.seat;
    return null;
  }
}
