// Which physical gun is which shooter. Guns stay paired to their seat; a gun is named by that seat (its
// "slot"). A living player's own gun is their gun 1. When You-don't-need-it-anymore takes a dead player's gun
// (RULES decision 11), that gun, still paired to the dead seat, becomes the taker's gun 2: its slot is the
// dead seat. So sensors, aims and pulls are kept per slot, and only the engine hears (seat, gun).
import type { Bullet, Hand, Seat, State } from "../rules/index.js";

export interface Shooter {
  seat: Seat;
  gun: 1 | 2;
}

/** owner → the slot (dead seat) of the gun they took */
export type SecondGuns = Map<Seat, Seat>;

const cards = (h: Hand | null): number => (h === null ? 0 : h[0] + h[1] + h[2]);

/** Whether the engine still runs the seat's gun 2 (it has cards left). */
export function armed2(state: State, seat: Seat): boolean {
  const p = state.players[seat];
  return p?.alive === true && cards(p.gun2) > 0;
}

/** The shooter a physical gun acts as now, or null (a dead player's gun nobody took). */
export function shooterOf(state: State, guns: SecondGuns, slot: Seat): Shooter | null {
  if (state.players[slot]?.alive) return { seat: slot, gun: 1 };
  for (const [owner, from] of guns) if (from === slot && armed2(state, owner)) return { seat: owner, gun: 2 };
  return null;
}

/** The physical gun of a shooter: gun 1 is the seat's own; gun 2 the taken one (undefined: not known). */
export function slotOf(guns: SecondGuns, seat: Seat, gun: 1 | 2 = 1): Seat | undefined {
  return gun === 1 ? seat : guns.get(seat);
}

/** The unused cards behind a physical gun. */
export function handOfSlot(state: State, guns: SecondGuns, slot: Seat): Hand {
  const sh = shooterOf(state, guns, slot);
  if (sh?.gun === 2) return state.players[sh.seat]!.gun2!;
  return state.players[slot]!.hand;
}

/** The card the engine holds for a shooter this round (null: not given yet). */
export function cardOf(state: State, sh: Shooter): Bullet | null {
  return sh.gun === 2 ? state.card2[sh.seat]! : state.card[sh.seat]!;
}

/** The aim the engine holds for a shooter this round (-2: not aimed yet). */
export function aimOfShooter(state: State, sh: Shooter): number {
  return sh.gun === 2 ? state.aim2[sh.seat]! : state.aim[sh.seat]!;
}
