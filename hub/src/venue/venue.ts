// The venue: every table on one broker, from their retained public topics (`table/state`, `gun/+/status`), and a
// leaderboard of the games seen finishing (kept in a LeaderboardStore when given one, store.ts). Read-only and
// public: nothing here is a secret (no PIN, token, hand).
import { decodeGunStatus, decodeTableState, type GunStatusSeen, type TableStateMsg } from "@cng/protocol";
import type { Seat } from "../rules/index.js";
import { type LeaderboardStore, MAX_KEPT } from "./store.js";

export interface VenuePlayer {
  seat: Seat;
  name: string;
  alive: boolean;
  wounds: number;
  /** money (classic: before shame is counted; second: loot value before the end bonus) */
  money: number;
}

export interface VenueTable {
  table: string;
  game: number | null;
  edition: string | null;
  round: number;
  step: string | null;
  over: boolean;
  players: VenuePlayer[];
  /** the names ahead now (the winners once over) */
  leaders: string[];
  guns: { paired: number; online: number };
  /** hub ms of the last state seen */
  at: number;
}

export interface FinishedGame {
  table: string;
  game: number;
  edition: string;
  winners: string[];
  players: VenuePlayer[];
  at: number;
}

/** One table's line, from its retained state and its guns' statuses. */
export function summarize(
  table: string,
  s: TableStateMsg | null,
  guns: Iterable<GunStatusSeen>,
  at: number,
): VenueTable {
  let paired = 0;
  let online = 0;
  for (const g of guns) {
    if (!g.paired) continue;
    paired++;
    if (g.on) online++;
  }
  const v = s?.game ?? null;
  const players: VenuePlayer[] = (v?.players ?? []).map((p) => ({
    seat: p.seat,
    name: p.name,
    alive: p.alive,
    wounds: p.wounds,
    money: p.money,
  }));
  let leaders: string[] = [];
  if (v?.over) leaders = v.winners.map((w) => players.find((p) => p.seat === w)?.name ?? `seat ${w}`);
  else if (players.length > 0) {
    const alive = players.filter((p) => p.alive);
    const best = Math.max(...alive.map((p) => p.money));
    leaders = alive.filter((p) => p.money === best).map((p) => p.name);
  }
  return {
    table,
    game: s?.id ?? null,
    edition: v?.edition ?? null,
    round: v?.round ?? 0,
    step: v?.step ?? null,
    over: v?.over === true,
    players,
    leaders,
    guns: { paired, online },
    at,
  };
}

const STATE = /^cng\/v1\/([^/]+)\/table\/state$/;
const STATUS = /^cng\/v1\/([^/]+)\/gun\/([^/]+)\/status$/;
export const VENUE_FILTERS = ["cng/v1/+/table/state", "cng/v1/+/gun/+/status"];

/** Keeps the venue from the messages on VENUE_FILTERS. */
export class Venue {
  private readonly states = new Map<string, TableStateMsg | null>();
  private readonly guns = new Map<string, Map<string, GunStatusSeen>>();
  private readonly finished = new Map<string, FinishedGame>();
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly store?: LeaderboardStore,
  ) {
    for (const g of store?.load() ?? []) this.finished.set(`${g.table}#${g.game}`, g);
  }

  /** One message; anything malformed is skipped (the venue is read-only and must never fall over). */
  take(topic: string, payload: Buffer | string): void {
    const text = payload.toString();
    let m: RegExpExecArray | null = STATE.exec(topic);
    if (m) {
      const table = m[1]!;
      // an empty payload: the table's retained state was cleared; one that does not decode is skipped
      let s: TableStateMsg | null = null;
      if (text.length > 0) {
        const d = decodeTableState(text);
        if (!d.ok) return;
        s = d.value;
      }
      this.states.set(table, s);
      this.seen.set(table, this.clock());
      const v = s?.game;
      if (s && v?.over && typeof s.id === "number") {
        const line = summarize(table, s, [], this.clock());
        const key = `${table}#${s.id}`;
        if (!this.finished.has(key)) {
          this.finished.set(key, {
            table,
            game: s.id,
            edition: v.edition,
            winners: line.leaders,
            players: line.players,
            at: this.clock(),
          });
          // the oldest go first (the map holds them in the order seen)
          while (this.finished.size > MAX_KEPT) this.finished.delete(this.finished.keys().next().value!);
          this.store?.save([...this.finished.values()]);
        }
      }
      return;
    }
    m = STATUS.exec(topic);
    if (m) {
      const table = m[1]!;
      const gun = m[2]!;
      // an empty payload: the gun was forgotten; one that does not decode is skipped, the last good one kept
      let g: GunStatusSeen | null = null;
      if (text.length > 0) {
        const d = decodeGunStatus(text);
        if (!d.ok) return;
        g = { paired: d.value.paired, on: d.value.on };
      }
      const all = this.guns.get(table) ?? new Map<string, GunStatusSeen>();
      this.guns.set(table, all);
      if (g) all.set(gun, g);
      else all.delete(gun);
      if (!this.states.has(table)) this.states.set(table, null);
    }
  }

  tables(): VenueTable[] {
    return [...this.states.keys()]
      .sort()
      .map((t) => summarize(t, this.states.get(t) ?? null, this.guns.get(t)?.values() ?? [], this.seen.get(t) ?? 0));
  }

  /** Finished games, best winning money first. */
  leaderboard(): FinishedGame[] {
    const top = (g: FinishedGame) =>
      Math.max(0, ...g.players.filter((p) => g.winners.includes(p.name)).map((p) => p.money));
    return [...this.finished.values()].sort((a, b) => top(b) - top(a) || a.at - b.at);
  }

  snapshot(): { tables: VenueTable[]; leaderboard: FinishedGame[] } {
    return { tables: this.tables(), leaderboard: this.leaderboard() };
  }
}
