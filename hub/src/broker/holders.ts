// Who may hold a client id. MQTT hands a client id to whoever connects with it last, closing the session that held
// it [MQTT-3.1.4-2]; on a table's WiFi that lets any viewer throw the hub, a gun or a waiting gun off the broker by
// reusing its id (they are no secret: the firmware's is `<table>-<gun>`). The hub departs from the spec here: a
// session is taken over only by the same login, or by a stronger one from an anonymous holder; ids of the hub and of
// the guns it knows are kept for them; and a gun waiting to be paired is bound to the device that first asked (its
// address and flashed secret), until it is paired, rejected, or gone for a while. The newcomer is refused instead,
// with "identifier rejected".
import { createHash } from "node:crypto";
import type { GunId } from "@cng/protocol";
import { isName } from "@cng/protocol";
import type { Principal } from "./principal.js";

/** The hub's own client id starts so; nobody else may use one that does. */
export const HUB_CLIENT_PREFIX = "cng-hub-";

/** A waiting gun's binding lapses after it has been gone this long (ms): a gun switched off, another flashed. */
export const PENDING_BINDING_MS = 10 * 60_000;

/** One login: the same string for the same device logging in again, another for anyone else. */
export type Holder = string;

/** How a connection logged in, as a holder. A waiting gun is its address and its flashed secret; a viewer its address. */
export function holderOf(p: Principal, source: string, secret: string | undefined): Holder {
  switch (p.role) {
    case "hub":
      return "hub";
    case "host":
      return p.device === undefined ? "host" : `host:${p.device}`;
    case "seat":
      return `seat:${p.seat}`;
    case "gun":
      return `gun:${p.gun}`;
    case "pending":
      return `pending:${p.gun}:${source}:${createHash("sha256")
        .update(secret ?? "")
        .digest("base64url")}`;
    case "viewer":
      return `viewer:${source}`;
  }
}

/** Strength of a login: a session held by a weaker one may be taken by a stronger one. */
function rank(p: Principal): number {
  switch (p.role) {
    case "hub":
      return 4;
    case "gun":
    case "pending":
      return 3;
    case "host":
      return 2;
    case "seat":
      return 1;
    case "viewer":
      return 0;
  }
}

/** The gun ids a client id names: the firmware's `<table>-<gun>`, and the bridges' bare `<gun>`. */
export function gunsNamedBy(clientId: string, table: string): GunId[] {
  const out: GunId[] = [];
  if (isName(clientId)) out.push(clientId);
  const prefix = `${table}-`;
  if (clientId.startsWith(prefix) && isName(clientId.slice(prefix.length))) out.push(clientId.slice(prefix.length));
  return out;
}

export interface Claim {
  clientId: string;
  principal: Principal;
  holder: Holder;
}

export interface HolderRules {
  table: string;
  /** a gun the hub knows: paired, or bound to a device waiting to pair it */
  known(gun: GunId): boolean;
}

/**
 * Why `claim` may not have its client id, or null when it may. `current`: the connected session that holds the id
 * now, if any.
 */
export function refuseClaim(rules: HolderRules, claim: Claim, current: Claim | undefined): string | null {
  const p = claim.principal;
  if (claim.clientId.startsWith(HUB_CLIENT_PREFIX) && p.role !== "hub") return "client id is the hub's";
  for (const g of gunsNamedBy(claim.clientId, rules.table)) {
    const own = (p.role === "gun" || p.role === "pending") && p.gun === g;
    if (!own && rules.known(g)) return `client id is gun ${g}'s`;
  }
  if (current === undefined || current.holder === claim.holder) return null;
  // an anonymous session (or any weaker one) gives way to a stronger login; an equal one is not taken
  if (rank(p) > rank(current.principal)) return null;
  return "client id is in use by another login";
}

/** Waiting guns bound to the device that first asked: gun → its holder, and since when it has been gone. */
export class PendingBindings {
  private readonly bound = new Map<GunId, { holder: Holder; goneSince: number | null }>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** The holder `gun` is bound to, if the binding still holds. */
  holderOf(gun: GunId): Holder | undefined {
    const b = this.bound.get(gun);
    if (!b) return undefined;
    if (b.goneSince !== null && this.clock() - b.goneSince > PENDING_BINDING_MS) {
      this.bound.delete(gun);
      return undefined;
    }
    return b.holder;
  }

  /** Whether `holder` may wait as `gun`: the first to ask binds it. */
  admits(gun: GunId, holder: Holder): boolean {
    const h = this.holderOf(gun);
    return h === undefined || h === holder;
  }

  connected(gun: GunId, holder: Holder): void {
    this.bound.set(gun, { holder, goneSince: null });
    // bounded: the pending door lets few new ids in a minute per address; the oldest lapsed go first
    if (this.bound.size > 1000) {
      for (const [g, b] of this.bound) {
        if (b.goneSince !== null) {
          this.bound.delete(g);
          break;
        }
      }
    }
  }

  /** Its last waiting session is gone: the binding lapses after a while. */
  gone(gun: GunId): void {
    const b = this.bound.get(gun);
    if (b) b.goneSince = this.clock();
  }

  /** Paired, rejected or forgotten: the next device to wait as this gun starts afresh. */
  release(gun: GunId): void {
    this.bound.delete(gun);
  }

  has(gun: GunId): boolean {
    return this.holderOf(gun) !== undefined;
  }
}
