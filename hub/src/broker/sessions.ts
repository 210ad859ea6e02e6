// Who is on the embedded broker, as its handlers share it (one handler a file, as aedes keeps its own): each
// connection's session after CONNECT, the connections of each gun, the waiting guns' door and bindings, the streams'
// addresses and size guards, the gun reports held back from viewers; and what the hub does to connections by name.
import type { GunId } from "@cng/protocol";
import type { Aedes, Client } from "aedes";
import { sourceOf } from "../access/limiter.js";
import { type Logger, OncePerKey } from "../log.js";
import type { Seat } from "../rules/index.js";
import type { DeviceId } from "../store/devices.js";
import { type Holder, PendingBindings } from "./holders.js";
import { PendingDoor } from "./pending-door.js";
import type { Principal } from "./principal.js";
import type { PacketSizeScanner } from "./size-guard.js";

/** One connection as the broker knows it after CONNECT. */
export interface Session {
  principal: Principal;
  holder: Holder;
  source: string;
  /** the filters it holds */
  subs: Set<string>;
  /** the session's key, when the client proved its secret instead of sending it */
  key?: Uint8Array;
}

export class BrokerSessions {
  readonly sessions = new WeakMap<Client, Session>();
  /** connections aedes closed for their keepalive (a gun gone quiet, not one that said goodbye) */
  readonly timedOut = new WeakSet<Client>();
  readonly gunClients = new Map<GunId, Set<Client>>();
  /** who may wait to be paired, per address */
  readonly door = new PendingDoor();
  /** which device a waiting gun id belongs to */
  readonly bindings = new PendingBindings();
  /** payloads of gun reports that failed their check: forwarded to the hub alone, never retained */
  readonly unchecked = new WeakSet<object>();
  /** each connection's stream → the peer's address, and its packet-size guard */
  readonly addresses = new WeakMap<object, string>();
  readonly scanners = new WeakMap<object, PacketSizeScanner>();
  /** refusals and faults, one log line per key a minute */
  readonly refusals: OncePerKey;
  /** the broker, once made (its handlers need this before it exists) */
  aedes: Aedes | null = null;

  constructor(readonly log: Logger) {
    this.refusals = new OncePerKey(log);
  }

  /** The stream a client came on (where its address and size guard are kept). */
  conn(client: Client): object {
    return (client as unknown as { conn: object }).conn;
  }

  /** The client's source address, for the limits (`client:<id>` when unknown). */
  source(client: Client): string {
    return sourceOf(this.addresses.get(this.conn(client)), `client:${client.id}`);
  }

  client(id: string): Client | undefined {
    return (this.aedes as unknown as { clients: Record<string, Client> } | null)?.clients[id];
  }

  all(): Client[] {
    return Object.values((this.aedes as unknown as { clients: Record<string, Client> } | null)?.clients ?? {});
  }

  /** Who a connected client logged in as (undefined: closed, or not yet past CONNECT). */
  live(clientId: string): Session | undefined {
    const c = this.client(clientId);
    return c && !c.closed ? this.sessions.get(c) : undefined;
  }

  /** Who sent a packet that came through the broker. */
  senderOf(packet: { clientId?: string }): Principal | undefined {
    const sender = packet.clientId ? this.client(packet.clientId) : undefined;
    return sender && this.sessions.get(sender)?.principal;
  }

  /** Runs one of the hub's event handlers: its fault is logged, never the broker's. */
  event(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.log.error({ err: e }, "broker event handler failed");
    }
  }

  /** Closes every connection of a gun (forgotten, rejected, or re-keyed). */
  kick(gun: GunId): void {
    this.bindings.release(gun);
    for (const c of this.gunClients.get(gun) ?? []) c.close();
  }

  /** A gun was paired: the device it waited on gets the key, and any other waiting as it is closed. */
  paired(gun: GunId): void {
    const bound = this.bindings.holderOf(gun);
    this.bindings.release(gun);
    // by the binding there is one; any other would be a device the host did not accept
    for (const c of this.gunClients.get(gun) ?? []) {
      const s = this.sessions.get(c);
      if (s?.principal.role === "pending" && s.holder !== bound) c.close();
    }
  }

  /** Whether a connection of the gun holds a subscription to `topic` (aedes registers it before the SUBACK). */
  hears(gun: GunId, topic: string): boolean {
    for (const c of this.gunClients.get(gun) ?? []) {
      const subs = (c as unknown as { subscriptions?: Record<string, unknown> }).subscriptions;
      if (!c.closed && subs?.[topic] !== undefined) return true;
    }
    return false;
  }

  /** Closes every connection a revoked host device made with its token. */
  kickDevice(device: DeviceId): void {
    for (const c of this.all()) {
      const p = this.sessions.get(c)?.principal;
      if (p?.role === "host" && p.device === device) c.close();
    }
  }

  /** Closes the consoles logged in on a seat's token (all seats when none is given). */
  kickSeats(seat?: Seat): void {
    for (const c of this.all()) {
      const p = this.sessions.get(c)?.principal;
      if (p?.role === "seat" && (seat === undefined || p.seat === seat)) c.close();
    }
  }
}
