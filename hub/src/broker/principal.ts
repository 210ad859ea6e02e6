// Who is on the other end of an MQTT connection, decided once at CONNECT.
import type { GunId, SeatNo } from "../guns/types.js";

export type Principal =
  /** the hub's own client */
  | { role: "hub" }
  /** connected with the host PIN */
  | { role: "host" }
  /** anyone else: read-only */
  | { role: "viewer" }
  /** a player's console, with its seat token */
  | { role: "seat"; seat: SeatNo }
  /** a paired gun, with its secret */
  | { role: "gun"; gun: GunId }
  /** an unknown gun asking to be paired */
  | { role: "pending"; gun: GunId };

export type Role = Principal["role"];

/** MQTT usernames with a fixed meaning; no gun may use them as its id. */
export const RESERVED_USERNAMES = ["hub", "host", "viewer"];
export const SEAT_USER_RE = /^seat-([0-9]{1,2})$/;

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
