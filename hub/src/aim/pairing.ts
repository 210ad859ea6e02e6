// Which gun belongs to which seat. Just data: the table layer runs the pairing step (the seat lights on the
// dashboard, that player pulls) and records the result here.
import type { SeatId } from "./seats.js";

/** A gun's id, as in its topics (`gun/<id>/...`). */
export type GunId = string;

/** seat → gun; a seat has at most one gun and a gun at most one seat. */
export type Pairing = ReadonlyMap<SeatId, GunId>;

export const NO_PAIRING: Pairing = new Map();

/** Pairs `gun` to `seat`, unpairing whatever gun had that seat and whatever seat that gun had. */
export function pairGun(pairing: Pairing, gun: GunId, seat: SeatId): Pairing {
  const next = new Map<SeatId, GunId>();
  for (const [s, g] of pairing) if (s !== seat && g !== gun) next.set(s, g);
  next.set(seat, gun);
  return next;
}

export function unpairGun(pairing: Pairing, gun: GunId): Pairing {
  const next = new Map<SeatId, GunId>();
  for (const [s, g] of pairing) if (g !== gun) next.set(s, g);
  return next;
}

export function seatOf(pairing: Pairing, gun: GunId): SeatId | null {
  for (const [s, g] of pairing) if (g === gun) return s;
  return null;
}

export function gunAt(pairing: Pairing, seat: SeatId): GunId | null {
  return pairing.get(seat) ?? null;
}
