// Who is on the other end of an MQTT connection, decided once at CONNECT.
import type { GunId } from "@cng/protocol";
import type { Seat } from "../rules/index.js";
import type { DeviceId } from "../store/devices.js";

export type Principal =
  /** the hub's own client */
  | { role: "hub" }
  /** connected with the host PIN, or with a host device's token */
  | { role: "host"; device?: DeviceId }
  /** anyone else: read-only */
  | { role: "viewer" }
  /** a player's console, with its seat token */
  | { role: "seat"; seat: Seat }
  /** a paired gun, with its secret */
  | { role: "gun"; gun: GunId }
  /** an unknown gun asking to be paired */
  | { role: "pending"; gun: GunId };

export type Role = Principal["role"];

export function describe(p: Principal): string {
  switch (p.role) {
    case "seat":
      return `seat-${p.seat}`;
    case "gun":
    case "pending":
      return `${p.role} ${p.gun}`;
    default:
      return p.role;
  }
}
