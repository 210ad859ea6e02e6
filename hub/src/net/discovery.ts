// Finding the hub on the local network: a gun whose flashed hub address does not answer broadcasts a UDP query
// naming its table (firmware/src/find.ts); the hub of that table answers with the MQTT broker's address the gun
// should use, as seen from the network the query came in on. Another table's query gets no answer.
//
//   query  "CNG1? <table> <gun> <nonce>"            (to 255.255.255.255:18830; nonce: 16 hex digits, new per look)
//   reply  "CNG1! <table> <host> <port> <proof>"    (unicast back to the query's source address and port)
//
// The proof is HMAC-SHA256, keyed by the hex SHA-256 of the gun's key (what the hub keeps of it), of the reply
// before it, a space and the query's nonce: anyone on the network can answer a gun, only its hub can prove it, and an
// answer recorded earlier does not fit a new nonce. A gun the hub holds no key for (not paired), or a query without a
// nonce (firmware before proofs), gets the reply without one; guns that check proofs do not take it.
// Never crashes on what arrives: anything that is not a well-formed query is dropped, replies are rate limited
// (per source and in all), and socket errors are logged.
import { createHmac } from "node:crypto";
import { createSocket, type RemoteInfo, type Socket } from "node:dgram";
import type { Logger } from "../log.js";
import { isLoopback, isThisMachine, isUnspecified, lanAddresses, localAddressFor } from "./lan.js";

/** The UDP port guns ask on (firmware/src/find.ts FP) */
export { DISCOVERY_PORT } from "@cng/protocol";

/** longest datagram looked at; a query is far shorter */
const MAX_QUERY = 80;
const QUERY = /^CNG1\? ([a-z0-9][a-z0-9_-]{0,31})(?: ([a-z0-9][a-z0-9_-]{0,31})(?: ([0-9a-f]{16}))?)?$/;

export interface DiscoveryQuery {
  table: string;
  gun?: string;
  /** the gun's nonce for this look: the reply's proof covers it */
  nonce?: string;
}

/** A query, or null for anything else. */
export function parseQuery(b: Buffer): DiscoveryQuery | null {
  if (b.length < 6 || b.length > MAX_QUERY) return null;
  const m = QUERY.exec(b.toString("latin1"));
  if (!m) return null;
  return m[3] ? { table: m[1]!, gun: m[2], nonce: m[3] } : { table: m[1]!, gun: m[2] };
}

/** The reply; with `proof` (the gun's key hash and its query's nonce), the HMAC that proves it comes from its hub. */
export function formatReply(
  table: string,
  host: string,
  port: number,
  proof?: { keyHash: string; nonce: string },
): string {
  const text = `CNG1! ${table} ${host} ${port}`;
  return proof ? `${text} ${replyProof(text, proof.keyHash, proof.nonce)}` : text;
}

/** HMAC-SHA256 keyed by the gun's key hash (hex, as the hub keeps it) of the reply, a space and the nonce; hex. */
export function replyProof(reply: string, keyHash: string, nonce: string): string {
  return createHmac("sha256", keyHash).update(`${reply} ${nonce}`, "latin1").digest("hex");
}

export function formatQuery(table: string, gun?: string, nonce?: string): string {
  return gun ? `CNG1? ${table} ${gun}${nonce ? ` ${nonce}` : ""}` : `CNG1? ${table}`;
}

/** A reply: table, host, port, and its proof when it has one; null for anything else. */
export function parseReply(b: Buffer | string): { table: string; host: string; port: number; proof?: string } | null {
  const m = /^CNG1! ([a-z0-9][a-z0-9_-]{0,31}) ([\w.:-]{1,64}) (\d{1,5})(?: ([0-9a-f]{64}))?$/.exec(b.toString());
  const port = m ? Number(m[3]) : 0;
  if (!m || port < 1 || port > 65535) return null;
  return m[4] ? { table: m[1]!, host: m[2]!, port, proof: m[4] } : { table: m[1]!, host: m[2]!, port };
}

/** Where guns reach the broker: host as configured (0.0.0.0 = any of this machine's addresses), port. */
export interface BrokerAddress {
  host: string;
  port: number;
}

/**
 * The broker address guns should use, from a broker URL (external broker). Null when guns cannot speak it:
 * they have plain MQTT over TCP only (no TLS, no WebSocket).
 */
export function brokerAddressOf(url: string): BrokerAddress | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== "mqtt:" && u.protocol !== "tcp:") return null;
  const host = u.hostname.replace(/^\[|\]$/g, "");
  // a broker on this machine: guns reach it on this machine's LAN address (it must listen there: docs/external-broker.md)
  return { host: isLoopback(host) ? "0.0.0.0" : host, port: u.port ? Number(u.port) : 1883 };
}

/**
 * The host a gun at `remote` should connect to, or null when it cannot reach the broker: a broker on every
 * address → this machine's address on the gun's network; on loopback → only for a client on this machine;
 * anything else → as configured.
 */
export function hostFor(broker: string, remote: string, addrs = lanAddresses()): string | null {
  if (isUnspecified(broker)) return localAddressFor(remote, addrs);
  if (isLoopback(broker)) return isThisMachine(remote, addrs) ? (broker === "localhost" ? "127.0.0.1" : broker) : null;
  return broker;
}

/** The source address this machine uses towards `remote` (the kernel's route), for a gun beyond our subnets. */
function routeSource(remote: string): Promise<string | null> {
  return new Promise((resolve) => {
    const s = createSocket("udp4");
    const done = (v: string | null) => {
      try {
        s.close();
      } catch {}
      resolve(v);
    };
    s.on("error", () => done(null));
    try {
      s.connect(9, remote, () => {
        try {
          done(s.address().address);
        } catch {
          done(null);
        }
      });
    } catch {
      done(null);
    }
  });
}

export interface DiscoveryOptions {
  /** UDP port, 0 = any free one */
  port: number;
  table: string;
  /** the broker's address as guns see it (per query), or null while there is none */
  broker: () => BrokerAddress | null;
  log: Logger;
  /** replies per second to one source address (default 5) */
  perSource?: number;
  /** replies per second in all (default 50) */
  total?: number;
  /**
   * Whether to answer this gun (its id from the query; absent in an old query): default every gun. A hub answers its
   * own guns, so a second table of the same name on the network cannot draw them over to it.
   */
  answers?: (gun: string | undefined) => boolean;
  /** the hex SHA-256 of a paired gun's key, which proves the reply to it; undefined for a gun without one */
  keyHash?: (gun: string) => string | undefined;
}

export interface DiscoveryStats {
  /** datagrams received */
  received: number;
  /** well-formed queries for this table */
  queries: number;
  replies: number;
  /** queries for another table */
  otherTable: number;
  /** not a query at all */
  garbage: number;
  /** a gun this hub does not answer (another hub's, see `answers`) */
  notOurs: number;
  /** over the rate limit */
  limited: number;
  /** no address the asker could reach */
  unreachable: number;
  /** replies with a proof (the gun's nonce, its key known) */
  proven: number;
}

export interface DiscoveryResponder {
  /** the UDP port bound */
  readonly port: number;
  readonly stats: DiscoveryStats;
  close(): Promise<void>;
}

/** Starts answering; rejects when the port cannot be bound. */
export function startDiscovery(o: DiscoveryOptions): Promise<DiscoveryResponder> {
  return new Responder(o).bind();
}

/** A query's rate: at most `total` a second, `perSource` from one address, 4096 addresses a second. */
class QueryRate {
  private windowAt = 0;
  private inWindow = 0;
  private readonly bySource = new Map<string, number>();

  constructor(
    private readonly perSource: number,
    private readonly total: number,
  ) {}

  allow(addr: string): boolean {
    const now = Date.now();
    if (now - this.windowAt >= 1000) {
      this.windowAt = now;
      this.inWindow = 0;
      this.bySource.clear();
    }
    const n = this.bySource.get(addr) ?? 0;
    if (this.inWindow >= this.total || n >= this.perSource || (n === 0 && this.bySource.size >= 4096)) return false;
    this.inWindow++;
    this.bySource.set(addr, n + 1);
    return true;
  }
}

class Responder implements DiscoveryResponder {
  port = 0;
  readonly stats: DiscoveryStats = {
    received: 0,
    queries: 0,
    replies: 0,
    otherTable: 0,
    garbage: 0,
    limited: 0,
    unreachable: 0,
    notOurs: 0,
    proven: 0,
  };
  private readonly rate: QueryRate;
  /** who asked, for the log: once per gun and address */
  private readonly told = new Set<string>();
  private readonly sock: Socket = createSocket({ type: "udp4", reuseAddr: true });
  private closed = false;

  constructor(private readonly o: DiscoveryOptions) {
    this.rate = new QueryRate(o.perSource ?? 5, o.total ?? 50);
    this.sock.on("message", (msg, r) => this.onMessage(msg, r));
  }

  bind(): Promise<DiscoveryResponder> {
    const sock = this.sock;
    return new Promise((resolve, reject) => {
      const fail = (e: Error) => {
        this.closed = true;
        try {
          sock.close();
        } catch {}
        reject(e);
      };
      sock.once("error", fail);
      sock.bind(this.o.port, "0.0.0.0", () => {
        sock.off("error", fail);
        // after binding, an error is logged; the socket carries on where it can
        sock.on("error", (e) => this.o.log.warn({ err: e.message }, "discovery socket error"));
        this.port = sock.address().port;
        resolve(this);
      });
    });
  }

  close(): Promise<void> {
    return new Promise<void>((done) => {
      if (this.closed) return done();
      this.closed = true;
      this.sock.close(() => done());
    });
  }

  private onMessage(msg: Buffer, r: RemoteInfo): void {
    const { o, stats } = this;
    try {
      stats.received++;
      const q = parseQuery(msg);
      if (!q) {
        stats.garbage++;
        return;
      }
      if (q.table !== o.table) {
        stats.otherTable++;
        return;
      }
      if (o.answers && !o.answers(q.gun)) {
        stats.notOurs++;
        return;
      }
      stats.queries++;
      if (!this.rate.allow(r.address)) {
        stats.limited++;
        return;
      }
      this.answer(q, r).catch((e) => o.log.warn({ err: (e as Error).message }, "discovery answer failed"));
    } catch (e) {
      o.log.warn({ err: (e as Error).message }, "discovery: bad datagram");
    }
  }

  private async answer(q: DiscoveryQuery, r: RemoteInfo): Promise<void> {
    const { o, stats } = this;
    const b = o.broker();
    if (!b) {
      stats.unreachable++;
      return;
    }
    let host = hostFor(b.host, r.address);
    if (host === null && isUnspecified(b.host)) host = await routeSource(r.address);
    if (host === null) {
      stats.unreachable++;
      o.log.debug({ from: r.address }, "discovery: no broker address this asker can reach");
      return;
    }
    stats.replies++;
    const keyHash = q.gun && q.nonce ? o.keyHash?.(q.gun) : undefined;
    if (keyHash) stats.proven++;
    this.send(formatReply(o.table, host, b.port, keyHash ? { keyHash, nonce: q.nonce! } : undefined), r);
    const key = `${q.gun ?? "?"}@${r.address}`;
    const fields = { gun: q.gun, from: r.address, host, port: b.port };
    // info once per gun and address (a bounded set: past it, debug only, so a flood of new names floods no log)
    if (this.told.has(key) || this.told.size >= 1024) o.log.debug(fields, "a gun looked for the hub: told it where");
    else {
      this.told.add(key);
      o.log.info(fields, "a gun looked for the hub: told it where");
    }
  }

  private send(text: string, r: RemoteInfo): void {
    if (this.closed) return;
    this.sock.send(text, r.port, r.address, (e) => {
      if (e) this.o.log.debug({ err: e.message, to: r.address }, "discovery reply not sent");
    });
  }
}

/**
 * The hub's responder, as its settings say: off, or on the configured port. Never stops the hub from starting:
 * a port it cannot bind, or a broker guns cannot speak to, is a warning.
 */
export async function answerDiscovery(
  setting: number | "off",
  table: string,
  broker: BrokerAddress | null,
  log: Logger,
  answers?: (gun: string | undefined) => boolean,
  keyHash?: (gun: string) => string | undefined,
): Promise<DiscoveryResponder | undefined> {
  if (setting === "off") return undefined;
  if (!broker) {
    log.warn("guns cannot find this hub by discovery: its broker is not plain mqtt://HOST:PORT, which guns need");
    return undefined;
  }
  try {
    return await startDiscovery({ port: setting, table, broker: () => broker, log, answers, keyHash });
  } catch (e) {
    log.warn(
      { err: (e as Error).message, port: setting },
      "guns cannot find this hub by discovery: the UDP port is not free (--discovery PORT, or off)",
    );
    return undefined;
  }
}
