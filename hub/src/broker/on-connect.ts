// CONNECT: who the client is (admission.ts decides: the login, who may hold the client id, the pairing door); a
// refusal answers CONNACK with its return code (MQTT 3.1.1 §3.2.2.3) and is logged once a minute per kind.
import type { GunId } from "@cng/protocol";
import type { AedesOptions, AuthenticateError } from "aedes";
import type { SecretLimiter } from "../access/limiter.js";
import { admit } from "./admission.js";
import type { CredentialCheck } from "./authenticate.js";
import type { Claim } from "./holders.js";
import { MAX_PACKET_BYTES } from "./limits.js";
import type { BrokerSessions } from "./sessions.js";

export interface ConnectDeps {
  table: string;
  credentials: CredentialCheck;
  limiter: SecretLimiter;
  /** a second device tried to wait for pairing as a gun that already waits */
  twinRefused(gun: GunId): void;
}

function refusal(code: number, reason: string): AuthenticateError {
  const err = new Error(reason) as AuthenticateError;
  err.returnCode = code;
  return err;
}

export function onConnect(st: BrokerSessions, d: ConnectDeps): NonNullable<AedesOptions["authenticate"]> {
  const admission = {
    table: d.table,
    credentials: d.credentials,
    limiter: d.limiter,
    door: st.door,
    bindings: st.bindings,
    holding(clientId: string): Claim | undefined {
      const s = st.live(clientId);
      return s && { clientId, principal: s.principal, holder: s.holder };
    },
    waiting(gun: GunId): string[] {
      return [...(st.gunClients.get(gun) ?? [])]
        .filter((c) => !c.closed && st.sessions.get(c)?.principal.role === "pending")
        .map((c) => c.id);
    },
    makeRoom(from: string): void {
      const y = st.door.yieldFor(from);
      if (!y) return;
      st.refusals.warn(`yield:${y.source}`, { from: y.source, gun: y.gun }, "pairing slots full: closed a waiting gun");
      for (const c of st.gunClients.get(y.gun) ?? []) if (st.sessions.get(c)?.source === y.source) c.close();
    },
  };
  return (client, username, password, done) => {
    const from = st.source(client);
    const a = admit(admission, client.id, username, password?.toString("utf8"), from);
    if (!a.ok) {
      st.refusals.warn(
        a.logKey,
        { from, client: client.id.slice(0, 64), user: username?.slice(0, 64) },
        `refused connection: ${a.reason}`,
      );
      if (a.twin !== undefined) st.event(() => d.twinRefused(a.twin!));
      return done(refusal(a.code, a.reason), false);
    }
    st.sessions.set(client, { principal: a.principal, holder: a.holder, source: from, subs: new Set(), key: a.key });
    // the hub's own client publishes the table's state; everyone else is held to a request's size
    if (a.principal.role === "hub") st.scanners.get(st.conn(client))?.limit(MAX_PACKET_BYTES);
    done(null, true);
  };
}
