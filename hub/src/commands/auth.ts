// A request's `auth` → its caller. A host device's token or a seat token is checked at any time; a PIN waits while
// the limiter says so (the same one that guards MQTT logins: per source address and for the whole hub).

import { ok, type Result, refuse } from "@cng/protocol";
import { type SecretLimiter, waitText } from "../access/limiter.js";
import type { HostDevices } from "../store/devices.js";
import type { SecretStore } from "../store/secrets.js";
import { sameSecret } from "../store/secrets.js";
import type { Caller, Need } from "./types.js";

export class RequestAuth {
  constructor(
    private readonly secrets: SecretStore,
    private readonly devices: HostDevices,
    private readonly pin: () => string,
    private readonly limiter: SecretLimiter,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The caller for `auth` sent from `source` (an address), or why it is refused. */
  caller(auth: string | undefined, source: string): Result<Caller> {
    if (auth === undefined) return ok({ role: "anyone" });
    const device = this.devices.check(auth, this.clock());
    if (device !== null) return ok({ role: "host", device });
    const seat = this.secrets.seatOfToken(auth);
    if (seat !== null) return ok({ role: "seat", seat });
    const wait = this.limiter.waitOf(source);
    if (wait.ms > 0) return refuse("locked", waitText(wait));
    if (sameSecret(auth, this.pin())) return ok({ role: "host" });
    this.limiter.failed(source);
    return refuse("auth", "wrong PIN or token");
  }
}

export function allowed(need: Need, c: Caller): boolean {
  if (need === "anyone") return true;
  if (need === "host") return c.role === "host";
  return c.role === "host" || c.role === "seat";
}
