// Delivery of a PUBLISH to each subscriber whose filter matches (MQTT 3.1.1 §4.7): a gun report that failed its check
// reaches the hub alone, and an unpaired gun's streams reach nobody (it may announce itself, and its pulls reach the
// hub's pairing).
import { parseTopic } from "@cng/protocol";
import type { AedesOptions, AedesPublishPacket } from "aedes";
import { pendingForward } from "./acl.js";
import type { BrokerSessions } from "./sessions.js";

export function onForward(st: BrokerSessions): NonNullable<AedesOptions["authorizeForward"]> {
  return (client, packet: AedesPublishPacket) => {
    const receiver = client ? st.sessions.get(client)?.principal : undefined;
    if (st.unchecked.has(packet.payload as object) && receiver?.role !== "hub") return null;
    const p = st.senderOf(packet as { clientId?: string });
    if (p?.role === "pending") {
      const t = parseTopic(packet.topic);
      if (t?.kind !== "gun" || !pendingForward(t.leaf, receiver)) return null;
    }
    return packet;
  };
}
