// The host PIN given on a phone or another laptop, over the table's WiFi: a PIN exchange (seal/pake.ts) instead of
// the PIN itself. The device that knows the PIN gets a host device's token, sealed under the exchange's key: nobody
// listening learns the PIN or the token. Each confirmation that does not match is a wrong PIN to the limiter, per
// source and for the hub, as a PIN at MQTT login is; a first move is cheap to refuse and kept for 30 s.

import { randomBytes } from "node:crypto";
import { ok, type Result, refuse } from "@cng/protocol";
import { Budget } from "../access/budget.js";
import { type SecretLimiter, waitText } from "../access/limiter.js";
import { type PakeKeys, pakeAnswer, sameTag, seal } from "../seal/index.js";
import type { HostDevices } from "../store/devices.js";

/** how long a first move waits for its confirmation, ms */
const LOGIN_MS = 30_000;
/** logins under way at most (each holds a few hundred bytes) */
const MAX_UNDER_WAY = 1000;

export class PinLogin {
  private readonly underWay = new Map<string, { keys: PakeKeys; client: string; at: number }>();
  /** a first move costs the hub two point multiplications: a few a second from one address */
  private readonly starts: Budget;

  constructor(
    private readonly table: string,
    private readonly pin: () => string,
    private readonly limiter: SecretLimiter,
    private readonly devices: HostDevices,
    private readonly clock: () => number = Date.now,
  ) {
    this.starts = new Budget({ burst: 5, perSecond: 1, maxKeys: 10_000 }, clock);
  }

  start(client: string, from: string, X: string): Result<{ sid: string; Y: string }> {
    const wait = this.limiter.waitOf(from);
    if (wait.ms > 0) return refuse("locked", waitText(wait));
    if (!this.starts.take(from)) return refuse("busy", "too many logins from this address: try again in a moment");
    const a = pakeAnswer(this.pin(), this.table, X);
    if (!a) return refuse("bad-args", "X is not a point of the group");
    const now = this.clock();
    for (const [sid, l] of this.underWay) {
      if (now - l.at <= LOGIN_MS && this.underWay.size < MAX_UNDER_WAY) break;
      this.underWay.delete(sid);
    }
    const sid = randomBytes(12).toString("base64url");
    this.underWay.set(sid, { keys: a.keys, client, at: now });
    return ok({ sid, Y: a.Y });
  }

  finish(client: string, from: string, sid: string, c: string, name: string): Result<{ c: string; x: string }> {
    const l = this.underWay.get(sid);
    this.underWay.delete(sid);
    if (!l || l.client !== client || this.clock() - l.at > LOGIN_MS) {
      return refuse("login", "no such login under way: start again");
    }
    const wait = this.limiter.waitOf(from);
    if (wait.ms > 0) return refuse("locked", waitText(wait));
    if (!sameTag(c, l.keys.client)) {
      this.limiter.failed(from, true);
      return refuse("auth", "wrong PIN");
    }
    const r = this.devices.enrol(name, this.clock());
    if ("error" in r) return refuse("full", r.error);
    return ok({ c: l.keys.hub, x: seal(l.keys.key, JSON.stringify({ device: r.device, token: r.token })) });
  }
}
