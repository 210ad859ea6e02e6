// Everything the hub knows about guns: paired ones (from the store) and live ones
// (presence, last info, warnings, pairing requests). No I/O: callers publish what changes.
import type { GunId, HubGunStatusMsg, HubMs, InfoMsg, PresenceReason } from "@cng/protocol";
import type { Seat } from "../rules/index.js";
import type { OtaProgress } from "./ota.js";
import { infoWarnings } from "./warnings.js";

export interface GunRecord {
  id: GunId;
  paired: boolean;
  seat: Seat | null;
  on: boolean;
  at: HubMs;
  why: PresenceReason;
  info?: InfoMsg;
  /** warnings from the last info */
  infoWarn: string[];
  /** a protocol-version warning, kept until the gun sends a message the hub understands */
  versionWarn?: string;
  /** when a second device last tried to connect as this gun while it waited for pairing */
  twinAt?: HubMs;
  ota?: OtaProgress;
}

/** Most pairing requests held at once; more unknown guns are refused at CONNECT. */
export const MAX_PENDING = 16;

export class GunRegistry {
  private readonly guns = new Map<GunId, GunRecord>();

  constructor(
    paired: { id: GunId; seat: Seat | null }[],
    private readonly lowBattery: number,
    now: HubMs,
  ) {
    for (const g of paired) {
      this.guns.set(g.id, { id: g.id, paired: true, seat: g.seat, on: false, at: now, why: "hub-start", infoWarn: [] });
    }
  }

  get(id: GunId): GunRecord | undefined {
    return this.guns.get(id);
  }

  all(): GunRecord[] {
    return [...this.guns.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  isPaired(id: GunId): boolean {
    return this.guns.get(id)?.paired === true;
  }

  pendingCount(): number {
    let n = 0;
    for (const g of this.guns.values()) if (!g.paired) n++;
    return n;
  }

  mayRequestPairing(id: GunId): boolean {
    return this.guns.has(id) || this.pendingCount() < MAX_PENDING;
  }

  /** A gun connected (embedded) or spoke (external); unknown ones become pairing requests. */
  online(id: GunId, why: PresenceReason, now: HubMs): GunRecord {
    let g = this.guns.get(id);
    if (!g) {
      g = { id, paired: false, seat: null, on: true, at: now, why, infoWarn: [] };
      this.guns.set(id, g);
    } else {
      g.on = true;
      g.at = now;
      g.why = why;
    }
    return g;
  }

  /** A gun went away. An unpaired gun's request goes with it. Returns the record, or null if dropped. */
  offline(id: GunId, why: PresenceReason, now: HubMs): GunRecord | null {
    const g = this.guns.get(id);
    if (!g) return null;
    if (!g.paired) {
      this.guns.delete(id);
      return null;
    }
    g.on = false;
    g.at = now;
    g.why = why;
    return g;
  }

  setInfo(id: GunId, info: InfoMsg): GunRecord | undefined {
    const g = this.guns.get(id);
    if (!g) return undefined;
    g.info = info;
    g.infoWarn = infoWarnings(info, this.lowBattery);
    g.versionWarn = undefined;
    return g;
  }

  /** a second device claimed this waiting gun's id */
  twin(id: GunId, now: HubMs): GunRecord | undefined {
    const g = this.guns.get(id);
    if (g) g.twinAt = now;
    return g;
  }

  setOta(id: GunId, p: OtaProgress): GunRecord | undefined {
    const g = this.guns.get(id);
    if (g) g.ota = p;
    return g;
  }

  setVersionWarning(id: GunId, warn: string): GunRecord | undefined {
    const g = this.guns.get(id);
    if (g) g.versionWarn = warn;
    return g;
  }

  paired(id: GunId, seat: Seat | null): GunRecord | undefined {
    const g = this.guns.get(id);
    if (!g) return undefined;
    g.paired = true;
    g.seat = seat;
    return g;
  }

  forget(id: GunId): boolean {
    return this.guns.delete(id);
  }

  status(g: GunRecord): HubGunStatusMsg {
    const warn = [...(g.versionWarn ? [g.versionWarn] : []), ...g.infoWarn];
    if (g.twinAt !== undefined && !g.paired) {
      warn.push("another device tried to connect with this gun id (refused): pair it by pulling its trigger");
    }
    if (!g.paired) warn.unshift("not paired: waiting for the host to accept");
    const s: HubGunStatusMsg = { v: 1, on: g.on, at: g.at, why: g.why, paired: g.paired, seat: g.seat };
    if (g.info) s.info = g.info;
    if (warn.length) s.warn = warn;
    if (g.ota) s.ota = g.ota;
    return s;
  }
}
