// The embedded broker's limits: what one client or one address may hold or send.
import { MAX_BYTES } from "@cng/protocol";

/** Largest MQTT packet the hub's own client may send (its state messages). */
export const MAX_PACKET_BYTES = 256 * 1024;
/** Largest packet anyone else may send: a request and its topic, a CONNECT. Checked from the first byte. */
export const CLIENT_PACKET_BYTES = MAX_BYTES.req + 8 * 1024;
/**
 * Longest keepalive (s) a client may ask for, and 0 (none) is refused: a silent half-open session is dropped (the
 * broker closes a client silent for 1.5 keepalives, MQTT 3.1.1 §3.1.2.10).
 */
export const KEEPALIVE_LIMIT_S = 300;
/** Connections one address may hold at once (the hub's own machine aside: its simulator, its USB guns' bridge). */
export const CONNECTIONS_PER_SOURCE = 32;
/** Subscriptions one client may hold; the dashboard needs a dozen. */
export const SUBSCRIPTIONS_PER_CLIENT = 32;
/** Requests one address may send (a token bucket): a flood is cut off at the broker, the client closed. */
export const REQUEST_BUDGET = { burst: 40, perSecond: 20 };
