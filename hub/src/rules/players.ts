// What a player holds and can take: hands, a second gun, the wounds that kill. Plain functions of a Player, for the
// round machine, the powers and the views alike.
import type { Hand, Player } from "./types.js";

/** A player with this many wounds is dead (a power may raise it for its owner: powers.ts). */
export const DEADLY_WOUNDS = 3;

export function handSize(h: Hand | null): number {
  return h === null ? 0 : h[0] + h[1] + h[2];
}

/** a player's second gun takes part this round when it has cards */
export function hasGun2(p: Player): boolean {
  return p.gun2 !== null && handSize(p.gun2) > 0;
}
