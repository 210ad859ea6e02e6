// A request's `auth` → its caller. Wrong secrets are counted per source address by the hub's one limiter (the same
// that guards MQTT logins), so guessing from one device never locks out the host on another.
import type { SecretLimiter } from "../access/limiter.js";
import type { SecretStore } from "../store/secrets.js";
import { sameSecret } from "../store/secrets.js";
import type { Caller, Need, OpError } from "./types.js";

export class RequestAuth {
  constructor(
    private readonly secrets: SecretStore,
    private readonly pin: () => string,
    private readonly limiter: SecretLimiter,
  ) {}

  /** The caller for `auth` sent from `source` (an address), or why it is refused. */
  caller(auth: string | undefined, source: string): { ok: true; caller: Caller } | ({ ok: false } & OpError) {
    if (auth === undefined) return { ok: true, caller: { role: "anyone" } };
    const wait = this.limiter.wait(source);
    if (wait > 0) {
      return {
        ok: false,
        code: "locked",
        msg: `too many wrong PINs or tokens from this device; try again in ${Math.ceil(wait / 1000)} s`,
      };
    }
    if (sameSecret(auth, this.pin())) return { ok: true, caller: { role: "host" } };
    const seat = this.secrets.seatOfToken(auth);
    if (seat !== null) return { ok: true, caller: { role: "seat", seat } };
    this.limiter.failed(source);
    return { ok: false, code: "auth", msg: "wrong PIN or seat token" };
  }
}

export function allowed(need: Need, c: Caller): boolean {
  if (need === "anyone") return true;
  if (need === "host") return c.role === "host";
  return c.role === "host" || c.role === "seat";
}
