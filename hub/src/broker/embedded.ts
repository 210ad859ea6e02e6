// The embedded broker: aedes over TCP and (through the web server) WebSocket, with the
// hub's authentication and topic rights, size and inflight limits, and presence events.
import { createServer, type Server, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { GunId } from "@cng/protocol";
import { decodeInfo, MAX_TOPIC_LEVELS, parseTopic } from "@cng/protocol";
import { Aedes, type AedesPublishPacket, type AuthenticateError, type Client } from "aedes";
import { type SecretLimiter, sourceOf } from "../access/limiter.js";
import { type Logger, OncePerKey } from "../log.js";
import type { DeviceId } from "../store/devices.js";
import { clientIdProblem, mayPublish, maySubscribe, pendingForward } from "./acl.js";
import { authenticate, type CredentialCheck } from "./authenticate.js";
import { PendingDoor } from "./pending-door.js";
import { describe, type Principal } from "./principal.js";
import { guardedStream } from "./size-guard.js";

/** Largest MQTT packet any connection may send (the hub's own state messages included). */
export const MAX_PACKET_BYTES = 256 * 1024;

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

export interface EmbeddedBroker {
  readonly port: number;
  /** hands a WebSocket stream (from the web server's /mqtt) to the broker, with the address it comes from */
  handle(stream: Duplex, address: string | undefined): void;
  /** the source address of a connected client, for the limiter (`client:<id>` when unknown) */
  sourceOf(clientId: string): string;
  /** closes every connection of a gun (forgotten, rejected, or re-keyed) */
  kick(gun: GunId): void;
  /** closes every connection a revoked host device made with its token */
  kickDevice(device: DeviceId): void;
  /**
   * In-process subscription for the hub's hot streams: the message goes straight from the broker to the
   * handler, without the loopback MQTT client's encode → TCP → parse. Same signature as the Bus's.
   */
  subscribe(filter: string, handler: (topic: string, payload: Buffer) => void, qos: 0 | 1): Promise<void>;
  close(): Promise<void>;
}

export async function startEmbeddedBroker(o: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const refusals = new OncePerKey(o.log);
  const principals = new WeakMap<Client, Principal>();
  const timedOut = new WeakSet<Client>();
  const gunClients = new Map<GunId, Set<Client>>();
  /** who may wait to be paired, per address */
  const door = new PendingDoor();
  /** payloads of gun reports that failed their check: forwarded to the hub alone, never retained */
  const unchecked = new WeakSet<object>();
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
  /** where each connection comes from: its stream → the peer's address */
  const addresses = new WeakMap<object, string>();
  const source = (client: Client): string =>
    sourceOf(addresses.get((client as unknown as { conn: object }).conn), `client:${client.id}`);

  const aedes = await Aedes.createBroker({
    concurrency: 10_000,
    maxClientsIdLength: 64,
    maxTopicLevels: MAX_TOPIC_LEVELS,
    drainTimeout: 10_000,
    connectTimeout: 10_000,
    maxInflightInbound: 100,
    queueLimit: 100,
    heartbeatInterval: 60_000,
    authenticate(client, username, password, done) {
      const bad = clientIdProblem(client.id);
      if (bad) {
        const from = source(client);
        refusals.warn(
          `id:${from}`,
          { from, client: client.id.slice(0, 64), user: username },
          `refused connection: ${bad}`,
        );
        const err = new Error(bad) as AuthenticateError;
        err.returnCode = 2; // identifier rejected
        return done(err, false);
      }
      const from = source(client);
      const r = safe(() => authenticate(o.credentials, username, password?.toString("utf8"), o.limiter.waitOf(from)));
      if (r.ok) {
        const p = r.principal;
        // one device waits for pairing per gun id: a second one (another client id) could take the key the host
        // gives the first. The same client id is the same device coming back: MQTT hands it the session.
        const twin =
          p.role === "pending" && [...(gunClients.get(p.gun) ?? [])].some((c) => !c.closed && c.id !== client.id);
        if (twin) {
          refusals.warn(
            `twin:${p.gun}`,
            { from, gun: p.gun, client: client.id.slice(0, 64) },
            "refused connection: another device already waits to be paired with this gun id",
          );
          guard(() => o.events.gunTwinRefused(p.gun));
          const err = new Error("another device already waits to be paired with this gun id") as AuthenticateError;
          err.returnCode = 5;
          return done(err, false);
        }
        const crowded = p.role === "pending" ? door.refuse(from, p.gun) : null;
        if (crowded) {
          refusals.warn(`door:${from}`, { from, user: username }, `refused connection: ${crowded}`);
          const err = new Error(crowded) as AuthenticateError;
          err.returnCode = 3;
          return done(err, false);
        }
        principals.set(client, p);
        return done(null, true);
      }
      if ("guess" in r && r.guess) o.limiter.failed(from);
      // once per source and minute, however many guesses it makes
      refusals.warn(
        `auth:${from}`,
        { from, client: client.id.slice(0, 64), user: username },
        `refused connection: ${r.reason}`,
      );
      const err = new Error(r.reason) as AuthenticateError;
      // 4: wrong user or secret; 5: not now (the PIN must wait); 3: no pairing slot free
      err.returnCode = "waited" in r && r.waited ? 5 : r.reason.startsWith("too many") ? 3 : 4;
      done(err, false);
    },
    authorizePublish(client, packet, done) {
      if (!client) return done(null); // an old will, with no client left to blame
      const p = principals.get(client);
      const v = p
        ? safe(() => mayPublish(p, client.id, o.table, packet.topic, packet.payload.length, packet.retain))
        : { ok: false as const, reason: "not authenticated" };
      if (v.ok) {
        if (p?.role === "gun" || p?.role === "pending") screenGunMessage(p, packet);
        return done(null);
      }
      refusals.warn(
        `pub:${source(client)}:${v.reason}`,
        { client: client.id, who: p && describe(p), topic: packet.topic.slice(0, 120) },
        `refused publish, closing client: ${v.reason}`,
      );
      done(new Error(v.reason));
    },
    authorizeSubscribe(client, sub, done) {
      const p = principals.get(client);
      const v = p
        ? safe(() => maySubscribe(p, client.id, o.table, sub.topic))
        : { ok: false as const, reason: "not authenticated" };
      if (v.ok) return done(null, sub);
      refusals.warn(
        `sub:${source(client)}:${v.reason}`,
        { client: client.id, who: p && describe(p), topic: sub.topic.slice(0, 120) },
        `refused subscription: ${v.reason}`,
      );
      done(null, null); // negated: SUBACK 0x80, the client stays
    },
    authorizeForward(client, packet: AedesPublishPacket) {
      // a gun's report that did not check out reaches the hub (which says why) and nobody else
      if (unchecked.has(packet.payload as object) && (client ? principals.get(client) : undefined)?.role !== "hub") {
        return null;
      }
      // An unpaired gun's streams go nowhere: it may announce itself, and its pulls reach the hub's pairing.
      const senderId = (packet as { clientId?: string }).clientId;
      const sender = senderId ? aedesClient(senderId) : undefined;
      const p = sender && principals.get(sender);
      if (p?.role === "pending") {
        const t = parseTopic(packet.topic);
        if (t?.kind !== "gun" || !pendingForward(t.leaf, client ? principals.get(client) : undefined)) return null;
      }
      return packet;
    },
  });

  function aedesClient(id: string): Client | undefined {
    return (aedes as unknown as { clients: Record<string, Client> }).clients[id];
  }

  aedes.on("client", (client) => {
    const p = principals.get(client);
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
  aedes.on("keepaliveTimeout", (client) => {
    timedOut.add(client);
  });
  aedes.on("clientDisconnect", (client) => {
    const p = principals.get(client);
    if (p?.role !== "gun" && p?.role !== "pending") return;
    if (p.role === "pending") door.closed(source(client), p.gun);
    const set = gunClients.get(p.gun);
    set?.delete(client);
    if (set && set.size > 0) return; // another connection of the same gun is still up
    gunClients.delete(p.gun);
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

  const handle = (stream: Duplex, address: string | undefined): void => {
    if (address) addresses.set(stream, address);
    aedes.handle(stream);
  };

  const tcp: Server = createServer((socket: Socket) => {
    socket.setNoDelay(true);
    socket.on("error", () => {});
    const stream = guardedStream(socket, MAX_PACKET_BYTES, () => {
      refusals.warn(
        `size:${socket.remoteAddress}`,
        { from: socket.remoteAddress },
        `refused connection: packet over ${MAX_PACKET_BYTES} bytes`,
      );
    });
    handle(stream, socket.remoteAddress);
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
    kick(gun) {
      for (const c of gunClients.get(gun) ?? []) c.close();
    },
    kickDevice(device) {
      for (const c of Object.values((aedes as unknown as { clients: Record<string, Client> }).clients)) {
        const p = principals.get(c);
        if (p?.role === "host" && p.device === device) c.close();
      }
    },
    subscribe(filter, handler) {
      const log = o.log;
      return new Promise<void>((resolve) =>
        aedes.subscribe(
          filter,
          (packet, done) => {
            try {
              handler(packet.topic, packet.payload as Buffer);
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
        for (const c of Object.values((aedes as unknown as { clients: Record<string, Client> }).clients)) c.close();
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
