// SUBSCRIBE: each filter against the client's rights (acl.ts) and its subscription budget; a refused filter is
// negated in the SUBACK (0x80, MQTT 3.1.1 §3.9.3) and the client stays.
import type { AedesOptions } from "aedes";
import { maySubscribe } from "./acl.js";
import { SUBSCRIPTIONS_PER_CLIENT } from "./limits.js";
import { describe } from "./principal.js";
import { safe } from "./safe.js";
import type { BrokerSessions } from "./sessions.js";

export function onSubscribe(st: BrokerSessions, table: string): NonNullable<AedesOptions["authorizeSubscribe"]> {
  return (client, sub, done) => {
    const s = st.sessions.get(client);
    let v = s
      ? safe(() => maySubscribe(s.principal, client.id, table, sub.topic))
      : { ok: false as const, reason: "not authenticated" };
    if (v.ok && s && !s.subs.has(sub.topic) && s.subs.size >= SUBSCRIPTIONS_PER_CLIENT) {
      v = { ok: false, reason: `more than ${SUBSCRIPTIONS_PER_CLIENT} subscriptions` };
    }
    if (v.ok) {
      s?.subs.add(sub.topic);
      return done(null, sub);
    }
    // once per source and minute, whatever filters it tries
    st.refusals.warn(
      `sub:${st.source(client)}`,
      { client: client.id, who: s && describe(s.principal), topic: sub.topic.slice(0, 120), why: v.reason },
      "refused subscription",
    );
    done(null, null);
  };
}
