// A request's `auth` → its caller. Wrong secrets are counted: after too many in a minute,
// every secret is refused for a while, so a 6-digit PIN cannot be guessed by brute force.
import type { SecretStore } from "../store/secrets.js";
import { sameSecret } from "../store/secrets.js";
import type { Caller, Need, OpError } from "./types.js";

export const MAX_FAILURES_PER_MINUTE = 20;

export class RequestAuth {
  private failures: number[] = [];

  constructor(
    private readonly secrets: SecretStore,
    private readonly pin: () => string,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The caller for `auth`, or why it is refused. */
  caller(auth: string | undefined): { ok: true; caller: Caller } | ({ ok: false } & OpError) {
    if (auth === undefined) return { ok: true, caller: { role: "anyone" } };
    const now = this.clock();
    this.failures = this.failures.filter((t) => now - t < 60_000);
    if (this.failures.length >= MAX_FAILURES_PER_MINUTE) {
      return { ok: false, code: "locked", msg: "too many wrong PINs or tokens; try again in a minute" };
    }
    if (sameSecret(auth, this.pin())) return { ok: true, caller: { role: "host" } };
    const seat = this.secrets.seatOfToken(auth);
    if (seat !== null) return { ok: true, caller: { role: "seat", seat } };
    this.failures.push(now);
    return { ok: false, code: "auth", msg: "wrong PIN or seat token" };
  }
}

export function allowed(need: Need, c: Caller): boolean {
  if (need === "anyone") return true;
  if (need === "host") return c.role === "host";
  return c.role === "host" || c.role === "seat";
}
