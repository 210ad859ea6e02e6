// CONNECT: who a connection is, and whether it may be that with this client id. Refusals carry the CONNACK return
// code MQTT 3.1.1 has for them: 2 identifier rejected, 3 server unavailable (no room), 4 bad user name or password,
// 5 not authorized (not now, or another device is this gun).
import type { GunId } from "@cng/protocol";
import type { SecretLimiter } from "../access/limiter.js";
import { clientIdProblem } from "./acl.js";
import { authenticate, type CredentialCheck } from "./authenticate.js";
import { type Claim, type Holder, holderOf, type PendingBindings, refuseClaim } from "./holders.js";
import type { PendingDoor } from "./pending-door.js";
import type { Principal } from "./principal.js";

export type Admission =
  /** `key`: the session's, when the client proved its secret: what it says is sealed under it */
  | { ok: true; principal: Principal; holder: Holder; key?: Uint8Array }
  | {
      ok: false;
      code: 2 | 3 | 4 | 5;
      reason: string;
      /** what the refusal is logged under, once a minute: per source, so a device cycling ids writes one line */
      logKey: string;
      /** a second device asked to be paired as this gun: the host should know */
      twin?: GunId;
    };

export interface AdmissionDeps {
  table: string;
  credentials: CredentialCheck;
  limiter: SecretLimiter;
  door: PendingDoor;
  bindings: PendingBindings;
  /** the connected session holding `clientId` now, if any */
  holding(clientId: string): Claim | undefined;
  /** client ids of the connected sessions waiting to pair `gun` */
  waiting(gun: GunId): string[];
  /** every pairing slot is taken and `from` asks for one: close a gun waiting from a busier address */
  makeRoom(from: string): void;
}

export function admit(
  d: AdmissionDeps,
  clientId: string,
  username: string | undefined,
  password: string | undefined,
  from: string,
): Admission {
  const bad = clientIdProblem(clientId);
  if (bad) return { ok: false, code: 2, reason: bad, logKey: `id:${from}` };
  let r: ReturnType<typeof authenticate>;
  try {
    r = authenticate(d.credentials, username, password, d.limiter.waitOf(from), clientId);
  } catch (e) {
    r = { ok: false, reason: `internal error: ${(e as Error).message}` };
  }
  if (!r.ok) {
    if (r.guess) d.limiter.failed(from, r.pin === true);
    // every pairing slot taken: one address waiting with several guns gives one up, and this one gets in next try
    if (r.full) d.makeRoom(from);
    // 4: wrong user or secret; 5: not now (the PIN must wait); 3: no pairing slot free
    const code = r.waited ? 5 : r.full ? 3 : 4;
    return { ok: false, code, reason: r.reason, logKey: `auth:${from}` };
  }
  const p = r.principal;
  const holder = holderOf(p, from, password);
  const held = d.holding(clientId);
  if (p.role === "pending") {
    // one device waits for pairing per gun id, the first that asked: another could take the key the host gives it
    const twin =
      !d.bindings.admits(p.gun, holder) ||
      d.waiting(p.gun).some((id) => id !== clientId) ||
      (held !== undefined && held.holder !== holder && held.principal.role === "pending");
    if (twin) {
      const reason = "another device already waits to be paired with this gun id";
      return { ok: false, code: 5, reason, logKey: `twin:${p.gun}`, twin: p.gun };
    }
  }
  const rules = { table: d.table, known: (g: GunId) => d.credentials.isPaired(g) || d.bindings.has(g) };
  const taken = refuseClaim(rules, { clientId, principal: p, holder }, held);
  if (taken) return { ok: false, code: 2, reason: taken, logKey: `hold:${from}` };
  if (p.role === "pending") {
    const crowded = d.door.refuse(from, p.gun);
    if (crowded) return { ok: false, code: 3, reason: crowded, logKey: `door:${from}` };
    d.bindings.connected(p.gun, holder);
  }
  return { ok: true, principal: p, holder, ...(r.key ? { key: r.key } : {}) };
}
