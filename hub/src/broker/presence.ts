// Who came and went: a gun's connections counted per gun (two may overlap while one replaces the other), so the hub
// hears a gun connected at its first and gone at its last, and whether it said goodbye (DISCONNECT, MQTT 3.1.1 §3.14)
// or its keepalive ran out (one and a half times the Keep Alive with nothing heard, §3.1.2.10).
import type { GunId } from "@cng/protocol";
import type { Aedes, Client } from "aedes";
import { describe } from "./principal.js";
import type { BrokerSessions } from "./sessions.js";

export type GunDisconnectReason = "disconnect" | "timeout";

export interface PresenceEvents {
  gunConnected(gun: GunId, pending: boolean): void;
  gunDisconnected(gun: GunId, why: GunDisconnectReason): void;
}

export function watchPresence(aedes: Aedes, st: BrokerSessions, events: PresenceEvents): void {
  aedes.on("client", (client) => {
    const p = st.sessions.get(client)?.principal;
    if (p?.role === "gun" || p?.role === "pending") {
      if (p.role === "pending") st.door.opened(st.source(client), p.gun);
      const set = st.gunClients.get(p.gun) ?? new Set<Client>();
      st.gunClients.set(p.gun, set);
      set.add(client);
      st.log.info({ gun: p.gun, client: client.id, paired: p.role === "gun" }, "gun connected");
      st.event(() => events.gunConnected(p.gun, p.role === "pending"));
    } else if (p) {
      st.log.debug({ client: client.id, who: describe(p) }, "client connected");
    }
  });
  aedes.on("unsubscribe", (filters, client) => {
    const s = st.sessions.get(client);
    for (const f of filters) s?.subs.delete(f);
  });
  aedes.on("keepaliveTimeout", (client) => {
    st.timedOut.add(client);
  });
  aedes.on("clientDisconnect", (client) => {
    const p = st.sessions.get(client)?.principal;
    if (p?.role !== "gun" && p?.role !== "pending") return;
    if (p.role === "pending") st.door.closed(st.source(client), p.gun);
    const set = st.gunClients.get(p.gun);
    set?.delete(client);
    if (set && set.size > 0) return; // another connection of the same gun is still up
    st.gunClients.delete(p.gun);
    if (p.role === "pending") st.bindings.gone(p.gun);
    const why: GunDisconnectReason = st.timedOut.has(client) ? "timeout" : "disconnect";
    st.log.info({ gun: p.gun, client: client.id, why }, "gun disconnected");
    st.event(() => events.gunDisconnected(p.gun, why));
  });
  aedes.on("clientError", (client, err) => {
    // keyed by address, not client id: a device cycling through ids writes one line a minute, not one per id
    const from = st.source(client);
    st.refusals.warn(`err:${from}`, { from, client: client.id.slice(0, 64) }, `client error: ${err.message}`);
  });
  aedes.on("connectionError", (_client, err) => {
    st.log.debug({ err: err.message }, "connection error before CONNECT");
  });
}
