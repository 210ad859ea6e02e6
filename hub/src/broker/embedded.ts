// The embedded broker: aedes over TCP and (through the web server) WebSocket, with the hub's authentication and topic
// rights, who may hold a client id, size, keepalive, connection, subscription and request limits, and presence events.
import { createServer, type Server, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { GunId } from "@cng/protocol";
import { decodeInfo, MAX_BYTES, MAX_TOPIC_LEVELS, parseTopic } from "@cng/protocol";
import { Aedes, type AedesPublishPacket, type AuthenticateError, type Client } from "aedes";
import { Budget, Counter } from "../access/budget.js";
import { isOwnMachine, type SecretLimiter, sourceOf } from "../access/limiter.js";
import { type Logger, OncePerKey } from "../log.js";
import type { Seat } from "../rules/index.js";
import type { DeviceId } from "../store/devices.js";
import { mayPublish, maySubscribe, pendingForward } from "./acl.js";
import { admit } from "./admission.js";
import type { CredentialCheck } from "./authenticate.js";
import { type Claim, type Holder, PendingBindings } from "./holders.js";
import { PendingDoor } from "./pending-door.js";
import { describe, type Principal } from "./principal.js";
import { guardedStream, PacketSizeScanner } from "./size-guard.js";

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

export type GunDisconnectReason = "disconnect" | "timeout";

export interface BrokerEvents {
  gunConnected(gun: GunId, pending: boolean): void;
  gunDisconnected(gun: GunId, why: GunDisconnectReason): void;
  /** a second device tried to wait for pairing as a gun that already waits: refused, the host should know */
  gunTwinRefused(gun: GunId): void;
}

export interface EmbeddedBrokerOptions {
  table: string;
  bind: string;
  port: number;
  credentials: CredentialCheck;
  /** counts wrong secrets per source address (shared with the requests' `auth`) */
  limiter: SecretLimiter;
  events: BrokerEvents;
  log: Logger;
}

/** Who sent a message to an in-process subscriber: the gun it logged in as and whether with its key; null: no gun. */
export type Sender = { gun: GunId; paired: boolean } | null;

export interface EmbeddedBroker {
  readonly port: number;
  /** hands a WebSocket stream (from the web server's /mqtt) to the broker, with the address it comes from */
  handle(stream: Duplex, address: string | undefined): void;
  /** the source address of a connected client, for the limiter (`client:<id>` when unknown) */
  sourceOf(clientId: string): string;
  /** who a connected client logged in as, and its session's key when it proved its secret */
  sessionOf(clientId: string): { principal: Principal; key?: Uint8Array } | undefined;
  /** closes every connection of a gun (forgotten, rejected, or re-keyed) */
  kick(gun: GunId): void;
  /** a gun was paired: the device it waited on gets the key, and any other waiting as it is closed */
  paired(gun: GunId): void;
  /** closes every connection a revoked host device made with its token */
  kickDevice(device: DeviceId): void;
  /** closes the consoles logged in on a seat's token (all seats when none is given): the token was renewed */
  kickSeats(seat?: Seat): void;
  /**
   * In-process subscription for the hub's hot streams: the message goes straight from the broker to the handler,
   * without the loopback MQTT client's encode → TCP → parse, and says who sent it.
   */
  subscribe(filter: string, handler: (topic: string, payload: Buffer, from: Sender) => void, qos: 0 | 1): Promise<void>;
  close(): Promise<void>;
}

/** One connection as the broker knows it after CONNECT. */
interface Session {
  principal: Principal;
  holder: Holder;
  source: string;
  /** the filters it holds */
  subs: Set<string>;
  /** the session's key, when the client proved its secret instead of sending it */
  key?: Uint8Array;
}

export async function startEmbeddedBroker(o: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const refusals = new OncePerKey(o.log);
  const sessions = new WeakMap<Client, Session>();
  const timedOut = new WeakSet<Client>();
  const gunClients = new Map<GunId, Set<Client>>();
  /** who may wait to be paired, per address */
  const door = new PendingDoor();
  /** which device a waiting gun id belongs to */
  const bindings = new PendingBindings();
  const perSource = new Counter(CONNECTIONS_PER_SOURCE);
  const requests = new Budget({ ...REQUEST_BUDGET, maxKeys: 10_000 });
  /** payloads of gun reports that failed their check: forwarded to the hub alone, never retained */
  const unchecked = new WeakSet<object>();
  /** each connection's stream → the peer's address, and its packet-size guard */
  const addresses = new WeakMap<object, string>();
  const scanners = new WeakMap<object, PacketSizeScanner>();
  const connOf = (client: Client): object => (client as unknown as { conn: object }).conn;
  const source = (client: Client): string => sourceOf(addresses.get(connOf(client)), `client:${client.id}`);
  const clients = (): Client[] => Object.values((aedes as unknown as { clients: Record<string, Client> }).clients);
  const aedesClient = (id: string): Client | undefined =>
    (aedes as unknown as { clients: Record<string, Client> }).clients[id];
  const refuse = (code: number, reason: string): AuthenticateError => {
    const err = new Error(reason) as AuthenticateError;
    err.returnCode = code;
    return err;
  };

  /**
   * Nothing an unpaired gun says is retained (500 made-up ids must not leave 500 messages for every viewer), and a
   * gun's `info` that does not decode strictly is kept from viewers and never retained: it could carry anything.
   */
  const screenGunMessage = (p: Principal, packet: { topic: string; payload: Buffer | string; retain: boolean }) => {
    if (p.role === "pending") packet.retain = false;
    // mayPublish has already kept a gun to its own topics: only the leaf is left to look at (aim passes here at 50 Hz)
    if (packet.topic.endsWith("/info") && !decodeInfo(packet.payload).ok) {
      packet.retain = false;
      unchecked.add(packet.payload as object);
    }
  };

  const admission = {
    table: o.table,
    credentials: o.credentials,
    limiter: o.limiter,
    door,
    bindings,
    holding(clientId: string): Claim | undefined {
      const c = aedesClient(clientId);
      const s = c && !c.closed ? sessions.get(c) : undefined;
      return s && { clientId, principal: s.principal, holder: s.holder };
    },
    waiting(gun: GunId): string[] {
      return [...(gunClients.get(gun) ?? [])]
        .filter((c) => !c.closed && sessions.get(c)?.principal.role === "pending")
        .map((c) => c.id);
    },
    makeRoom(from: string): void {
      const y = door.yieldFor(from);
      if (!y) return;
      refusals.warn(`yield:${y.source}`, { from: y.source, gun: y.gun }, "pairing slots full: closed a waiting gun");
      for (const c of gunClients.get(y.gun) ?? []) if (sessions.get(c)?.source === y.source) c.close();
    },
  };

  const aedes = await Aedes.createBroker({
    concurrency: 10_000,
    maxClientsIdLength: 64,
    maxTopicLevels: MAX_TOPIC_LEVELS,
    drainTimeout: 10_000,
    connectTimeout: 10_000,
    keepaliveLimit: KEEPALIVE_LIMIT_S,
    maxInflightInbound: 100,
    queueLimit: 100,
    heartbeatInterval: 60_000,
    authenticate(client, username, password, done) {
      const from = source(client);
      const a = admit(admission, client.id, username, password?.toString("utf8"), from);
      if (!a.ok) {
        refusals.warn(
          a.logKey,
          { from, client: client.id.slice(0, 64), user: username?.slice(0, 64) },
          `refused connection: ${a.reason}`,
        );
        if (a.twin !== undefined) guard(() => o.events.gunTwinRefused(a.twin!));
        return done(refuse(a.code, a.reason), false);
      }
      sessions.set(client, { principal: a.principal, holder: a.holder, source: from, subs: new Set(), key: a.key });
      // the hub's own client publishes the table's state; everyone else is held to a request's size
      if (a.principal.role === "hub") scanners.get(connOf(client))?.limit(MAX_PACKET_BYTES);
      done(null, true);
    },
    authorizePublish(client, packet, done) {
      if (!client) return done(null); // an old will, with no client left to blame
      const s = sessions.get(client);
      const p = s?.principal;
      let v = p
        ? safe(() => mayPublish(p, client.id, o.table, packet.topic, packet.payload.length, packet.retain))
        : { ok: false as const, reason: "not authenticated" };
      // a request flood is cut off here, before the hub's queue: the host (PIN or device token) is never held back
      if (v.ok && s && (p?.role === "viewer" || p?.role === "seat") && !isOwnMachine(s.source)) {
        if (!requests.take(s.source)) v = { ok: false, reason: "too many requests from this address" };
      }
      if (v.ok) {
        if (p?.role === "gun" || p?.role === "pending") screenGunMessage(p, packet);
        return done(null);
      }
      refusals.warn(
        `pub:${source(client)}`,
        { client: client.id, who: p && describe(p), topic: packet.topic.slice(0, 120), why: v.reason },
        "refused publish, closing client",
      );
      done(new Error(v.reason));
    },
    authorizeSubscribe(client, sub, done) {
      const s = sessions.get(client);
      let v = s
        ? safe(() => maySubscribe(s.principal, client.id, o.table, sub.topic))
        : { ok: false as const, reason: "not authenticated" };
      if (v.ok && s && !s.subs.has(sub.topic) && s.subs.size >= SUBSCRIPTIONS_PER_CLIENT) {
        v = { ok: false, reason: `more than ${SUBSCRIPTIONS_PER_CLIENT} subscriptions` };
      }
      if (v.ok) {
        s?.subs.add(sub.topic);
        return done(null, sub);
      }
      // once per source and minute, whatever filters it tries
      refusals.warn(
        `sub:${source(client)}`,
        { client: client.id, who: s && describe(s.principal), topic: sub.topic.slice(0, 120), why: v.reason },
        "refused subscription",
      );
      done(null, null); // negated: SUBACK 0x80, the client stays
    },
    authorizeForward(client, packet: AedesPublishPacket) {
      // a gun's report that did not check out reaches the hub (which says why) and nobody else
      const receiver = client ? sessions.get(client)?.principal : undefined;
      if (unchecked.has(packet.payload as object) && receiver?.role !== "hub") return null;
      // An unpaired gun's streams go nowhere: it may announce itself, and its pulls reach the hub's pairing.
      const p = senderOf(packet as { clientId?: string });
      if (p?.role === "pending") {
        const t = parseTopic(packet.topic);
        if (t?.kind !== "gun" || !pendingForward(t.leaf, receiver)) return null;
      }
      return packet;
    },
  });

  function senderOf(packet: { clientId?: string }): Principal | undefined {
    const sender = packet.clientId ? aedesClient(packet.clientId) : undefined;
    return sender && sessions.get(sender)?.principal;
  }

  aedes.on("client", (client) => {
    const p = sessions.get(client)?.principal;
    if (p?.role === "gun" || p?.role === "pending") {
      if (p.role === "pending") door.opened(source(client), p.gun);
      const set = gunClients.get(p.gun) ?? new Set<Client>();
      gunClients.set(p.gun, set);
      set.add(client);
      o.log.info({ gun: p.gun, client: client.id, paired: p.role === "gun" }, "gun connected");
      guard(() => o.events.gunConnected(p.gun, p.role === "pending"));
    } else if (p) {
      o.log.debug({ client: client.id, who: describe(p) }, "client connected");
    }
  });
  aedes.on("unsubscribe", (filters, client) => {
    const s = sessions.get(client);
    for (const f of filters) s?.subs.delete(f);
  });
  aedes.on("keepaliveTimeout", (client) => {
    timedOut.add(client);
  });
  aedes.on("clientDisconnect", (client) => {
    const p = sessions.get(client)?.principal;
    if (p?.role !== "gun" && p?.role !== "pending") return;
    if (p.role === "pending") door.closed(source(client), p.gun);
    const set = gunClients.get(p.gun);
    set?.delete(client);
    if (set && set.size > 0) return; // another connection of the same gun is still up
    gunClients.delete(p.gun);
    if (p.role === "pending") bindings.gone(p.gun);
    const why: GunDisconnectReason = timedOut.has(client) ? "timeout" : "disconnect";
    o.log.info({ gun: p.gun, client: client.id, why }, "gun disconnected");
    guard(() => o.events.gunDisconnected(p.gun, why));
  });
  aedes.on("clientError", (client, err) => {
    // keyed by address, not client id: a device cycling through ids writes one line a minute, not one per id
    const from = source(client);
    refusals.warn(`err:${from}`, { from, client: client.id.slice(0, 64) }, `client error: ${err.message}`);
  });
  aedes.on("connectionError", (_client, err) => {
    o.log.debug({ err: err.message }, "connection error before CONNECT");
  });

  function guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      o.log.error({ err: e }, "broker event handler failed");
    }
  }

  /** Every connection, TCP or WebSocket: counted against its address, its packets guarded from the first byte. */
  const handle = (raw: Duplex, address: string | undefined): void => {
    const from = sourceOf(address, "unknown");
    if (!isOwnMachine(from) && !perSource.add(from)) {
      refusals.warn(`conns:${from}`, { from }, `refused connection: over ${CONNECTIONS_PER_SOURCE} from this address`);
      raw.destroy();
      return;
    }
    if (!isOwnMachine(from)) raw.once("close", () => perSource.remove(from));
    const scanner = new PacketSizeScanner(CLIENT_PACKET_BYTES);
    const stream = guardedStream(raw, scanner, () => {
      refusals.warn(`size:${from}`, { from }, "refused connection: packet too large");
    });
    scanners.set(stream, scanner);
    if (address) addresses.set(stream, address);
    aedes.handle(stream);
  };

  const tcp: Server = createServer((socket: Socket) => {
    socket.setNoDelay(true);
    socket.on("error", () => {});
    handle(socket, socket.remoteAddress);
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once("error", reject);
    tcp.listen(o.port, o.bind, () => {
      tcp.off("error", reject);
      resolve();
    });
  });
  const address = tcp.address();
  const port = typeof address === "object" && address ? address.port : o.port;

  return {
    port,
    handle,
    sourceOf(clientId) {
      const c = aedesClient(clientId);
      return c ? source(c) : `client:${clientId}`;
    },
    sessionOf(clientId) {
      const c = aedesClient(clientId);
      const s = c && !c.closed ? sessions.get(c) : undefined;
      return s && { principal: s.principal, ...(s.key ? { key: s.key } : {}) };
    },
    kick(gun) {
      bindings.release(gun);
      for (const c of gunClients.get(gun) ?? []) c.close();
    },
    paired(gun) {
      const bound = bindings.holderOf(gun);
      bindings.release(gun);
      // by the binding there is one; any other would be a device the host did not accept
      for (const c of gunClients.get(gun) ?? []) {
        const s = sessions.get(c);
        if (s?.principal.role === "pending" && s.holder !== bound) c.close();
      }
    },
    kickDevice(device) {
      for (const c of clients()) {
        const p = sessions.get(c)?.principal;
        if (p?.role === "host" && p.device === device) c.close();
      }
    },
    kickSeats(seat) {
      for (const c of clients()) {
        const p = sessions.get(c)?.principal;
        if (p?.role === "seat" && (seat === undefined || p.seat === seat)) c.close();
      }
    },
    subscribe(filter, handler) {
      const log = o.log;
      return new Promise<void>((resolve) =>
        aedes.subscribe(
          filter,
          (packet, done) => {
            try {
              const p = senderOf(packet as { clientId?: string });
              const from: Sender =
                p?.role === "gun" || p?.role === "pending" ? { gun: p.gun, paired: p.role === "gun" } : null;
              handler(packet.topic, packet.payload as Buffer, from);
            } catch (e) {
              log.warn({ topic: packet.topic, err: (e as Error).message }, "a stream handler failed");
            }
            done();
          },
          resolve,
        ),
      );
    },
    async close() {
      await new Promise<void>((resolve) => {
        tcp.close(() => resolve());
        for (const c of clients()) c.close();
      });
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
    },
  };
}

function safe<T extends { ok: boolean }>(fn: () => T): T | { ok: false; reason: string } {
  try {
    return fn();
  } catch (e) {
    return { ok: false, reason: `internal error: ${(e as Error).message}` };
  }
}
