// PUBLISH from a client: its topic rights (acl.ts), the request budget of its address, and a gun's report screened;
// a refusal closes the client (aedes answers a refused PUBLISH so: MQTT 3.1.1 §3.3.5 lets a server either acknowledge
// a PUBLISH it does not authorise or close the connection, having no negative PUBACK).
import { decodeInfo } from "@cng/protocol";
import type { AedesOptions } from "aedes";
import { Budget } from "../access/budget.js";
import { isOwnMachine } from "../access/limiter.js";
import { mayPublish } from "./acl.js";
import { REQUEST_BUDGET } from "./limits.js";
import { describe, type Principal } from "./principal.js";
import { safe } from "./safe.js";
import type { BrokerSessions } from "./sessions.js";

export function onPublish(st: BrokerSessions, table: string): NonNullable<AedesOptions["authorizePublish"]> {
  const requests = new Budget({ ...REQUEST_BUDGET, maxKeys: 10_000 });
  /**
   * Nothing an unpaired gun says is retained (500 made-up ids must not leave 500 messages for every viewer), and a
   * gun's `info` that does not decode strictly is kept from viewers and never retained: it could carry anything.
   */
  const screenGunMessage = (p: Principal, packet: { topic: string; payload: Buffer | string; retain: boolean }) => {
    if (p.role === "pending") packet.retain = false;
    // mayPublish has already kept a gun to its own topics: only the leaf is left to look at (aim passes here at 50 Hz)
    if (packet.topic.endsWith("/info") && !decodeInfo(packet.payload).ok) {
      packet.retain = false;
      st.unchecked.add(packet.payload as object);
    }
  };
  return (client, packet, done) => {
    if (!client) return done(null); // an old will, with no client left to blame
    const s = st.sessions.get(client);
    const p = s?.principal;
    let v = p
      ? safe(() => mayPublish(p, client.id, table, packet.topic, packet.payload.length, packet.retain))
      : { ok: false as const, reason: "not authenticated" };
    // a request flood is cut off here, before the hub's queue: the host (PIN or device token) is never held back
    if (v.ok && s && (p?.role === "viewer" || p?.role === "seat") && !isOwnMachine(s.source)) {
      if (!requests.take(s.source)) v = { ok: false, reason: "too many requests from this address" };
    }
    if (v.ok) {
      if (p?.role === "gun" || p?.role === "pending") screenGunMessage(p, packet);
      return done(null);
    }
    st.refusals.warn(
      `pub:${st.source(client)}`,
      { client: client.id, who: p && describe(p), topic: packet.topic.slice(0, 120), why: v.reason },
      "refused publish, closing client",
    );
    done(new Error(v.reason));
  };
}
