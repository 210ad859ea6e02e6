// The embedded broker: aedes over TCP and (through the web server) WebSocket, with the hub's handlers, one a file as
// aedes keeps its own: CONNECT (on-connect.ts: the login, who may hold a client id), PUBLISH (on-publish.ts: topic
// rights, the request budget), SUBSCRIBE (on-subscribe.ts), delivery (on-forward.ts), who came and went
// (presence.ts), and every connection before MQTT (connections.ts: per-address counts, packet sizes), over the one
// record of who is on (sessions.ts); the limits in limits.ts.
import type { Duplex } from "node:stream";
import { type GunId, gunTopic, MAX_TOPIC_LEVELS } from "@cng/protocol";
import { Aedes } from "aedes";
import type { SecretLimiter } from "../access/limiter.js";
import type { Logger } from "../log.js";
import type { Seat } from "../rules/index.js";
import type { DeviceId } from "../store/devices.js";
import type { CredentialCheck } from "./authenticate.js";
import { connections, listenTcp } from "./connections.js";
import { KEEPALIVE_LIMIT_S } from "./limits.js";
import { onConnect } from "./on-connect.js";
import { onForward } from "./on-forward.js";
import { onPublish } from "./on-publish.js";
import { onSubscribe } from "./on-subscribe.js";
import { type PresenceEvents, watchPresence } from "./presence.js";
import type { Principal } from "./principal.js";
import { BrokerSessions } from "./sessions.js";

export type { GunDisconnectReason } from "./presence.js";

export interface BrokerEvents extends PresenceEvents {
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
  /** a connection of the gun is subscribed to its commands: a command sent now reaches it */
  hearsCommands(gun: GunId): boolean;
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

export async function startEmbeddedBroker(o: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const st = new BrokerSessions(o.log);
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
    authenticate: onConnect(st, {
      table: o.table,
      credentials: o.credentials,
      limiter: o.limiter,
      twinRefused: (gun) => o.events.gunTwinRefused(gun),
    }),
    authorizePublish: onPublish(st, o.table),
    authorizeSubscribe: onSubscribe(st, o.table),
    authorizeForward: onForward(st),
  });
  st.aedes = aedes;
  watchPresence(aedes, st, o.events);
  const handle = connections(aedes, st);
  const tcp = await listenTcp(handle, o.port, o.bind);
  const address = tcp.address();
  return {
    port: typeof address === "object" && address ? address.port : o.port,
    handle,
    sourceOf(clientId) {
      const c = st.client(clientId);
      return c ? st.source(c) : `client:${clientId}`;
    },
    sessionOf(clientId) {
      const s = st.live(clientId);
      return s && { principal: s.principal, ...(s.key ? { key: s.key } : {}) };
    },
    kick: (gun) => st.kick(gun),
    paired: (gun) => st.paired(gun),
    hearsCommands: (gun) => st.hears(gun, gunTopic(o.table, gun, "cmd")),
    kickDevice: (device) => st.kickDevice(device),
    kickSeats: (seat) => st.kickSeats(seat),
    subscribe: (filter, handler) => subscribeInProcess(aedes, st, filter, handler),
    async close() {
      await new Promise<void>((resolve) => {
        tcp.close(() => resolve());
        for (const c of st.all()) c.close();
      });
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
    },
  };
}

/** The hub's hot streams straight from the broker, with who sent each message. */
function subscribeInProcess(
  aedes: Aedes,
  st: BrokerSessions,
  filter: string,
  handler: (topic: string, payload: Buffer, from: Sender) => void,
): Promise<void> {
  return new Promise<void>((resolve) =>
    aedes.subscribe(
      filter,
      (packet, done) => {
        try {
          const p = st.senderOf(packet as { clientId?: string });
          const from: Sender =
            p?.role === "gun" || p?.role === "pending" ? { gun: p.gun, paired: p.role === "gun" } : null;
          handler(packet.topic, packet.payload as Buffer, from);
        } catch (e) {
          st.log.warn({ topic: packet.topic, err: (e as Error).message }, "a stream handler failed");
        }
        done();
      },
      resolve,
    ),
  );
}
