// Scores and winners for both editions (docs/rules.md "End" sections and decisions 1, 2, 7, 8).
import { powerOf } from "./powers.js";
import type { Player, Seat, State } from "./types.js";

/** 2nd edition: painting value by the number held (index = count). */
export const PAINTING_VALUE: readonly number[] = [
  0, 4000, 12000, 30000, 60000, 100000, 150000, 200000, 300000, 400000, 500000,
];

export const DIAMOND_BONUS = 60000;

/** classic: what a shame marker costs its holder at the end */
export const SHAME_WORTH = -5000;

export function paintingValue(count: number): number {
  return PAINTING_VALUE[Math.min(count, PAINTING_VALUE.length - 1)]!;
}

/** second: the seat that gets the diamond bonus (most diamond cards among the living, at least one, no tie), or -1 */
export function diamondBonusSeat(players: readonly Player[]): Seat {
  let best = 0;
  let seat = -1;
  let ties = 0;
  for (let i = 0; i < players.length; i++) {
    const p = players[i]!;
    if (!p.alive || p.diamonds === 0) continue;
    if (p.diamonds > best) {
      best = p.diamonds;
      seat = i;
      ties = 1;
    } else if (p.diamonds === best) ties++;
  }
  return ties === 1 ? seat : -1;
}

/** What a player holds before end bonuses: classic cash; second cash + diamonds + paintings. Dead: 0. */
export function money(state: State, seat: Seat): number {
  const p = state.players[seat]!;
  if (!p.alive) return 0;
  if (state.edition === "classic") return p.money;
  return p.money + p.diamondValue + paintingValue(p.paintings);
}

/** Every seat's score as if the game ended now. */
export function scores(state: State): number[] {
  const players = state.players;
  if (state.edition === "second") {
    const bonus = diamondBonusSeat(players);
    return players.map((_, seat) =>
      players[seat]!.alive ? money(state, seat) + (seat === bonus ? DIAMOND_BONUS : 0) : 0,
    );
  }
  let dead = 0;
  for (const p of players) if (!p.alive) dead++;
  return players.map((p) => {
    if (!p.alive) return 0;
    const power = powerOf(p);
    let score = p.money + (power.shameWorth ?? SHAME_WORTH) * p.shame;
    if (power.deathWorth !== undefined) score += power.deathWorth * dead;
    return score;
  });
}

/** The winners of a finished game. */
export function winners(state: State): Seat[] {
  const alive: Seat[] = [];
  state.players.forEach((p, seat) => {
    if (p.alive) alive.push(seat);
  });
  if (alive.length <= 1) return alive;
  const score = scores(state);
  let candidates = alive;
  if (state.cop) {
    const cop = alive.find((s) => state.players[s]!.role === "cop");
    if (cop !== undefined && state.switchboard >= 3 && state.copDownsSinceAlert <= 1) return [cop];
    // the cop does not win on money
    candidates = alive.filter((s) => state.players[s]!.role !== "cop");
  }
  let best = -Infinity;
  for (const s of candidates) best = Math.max(best, score[s]!);
  let top = candidates.filter((s) => score[s] === best);
  if (state.edition === "second" && top.length > 1) {
    let most = -1;
    for (const s of top) most = Math.max(most, state.players[s]!.wounds);
    top = top.filter((s) => state.players[s]!.wounds === most);
  }
  return top;
}
