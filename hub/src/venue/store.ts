// The venue's leaderboard on disk: the finished games as one small JSON file, so a restarted `cng venue` (or hub)
// keeps the games it saw finishing. Written whole to a temporary file and renamed over the old one (never half a
// file); anything unreadable in it is skipped, not fatal.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { FinishedGame, VenuePlayer } from "./venue.js";

export interface LeaderboardStore {
  load(): FinishedGame[];
  save(games: readonly FinishedGame[]): void;
}

/** At most this many games are kept (the oldest go first). */
export const MAX_KEPT = 500;

const isStr = (x: unknown): x is string => typeof x === "string";
const isNum = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);

function player(x: unknown): VenuePlayer | null {
  const p = x as Partial<VenuePlayer> | null;
  if (!p || typeof p !== "object" || !isNum(p.seat) || !isStr(p.name) || typeof p.alive !== "boolean") return null;
  if (!isNum(p.wounds) || !isNum(p.money)) return null;
  return { seat: p.seat, name: p.name, alive: p.alive, wounds: p.wounds, money: p.money };
}

/** One stored game, checked field by field; null when it is not one. */
export function finishedGame(x: unknown): FinishedGame | null {
  const g = x as Partial<FinishedGame> | null;
  if (!g || typeof g !== "object" || !isStr(g.table) || !isNum(g.game) || !isStr(g.edition) || !isNum(g.at))
    return null;
  if (!Array.isArray(g.winners) || !g.winners.every(isStr) || !Array.isArray(g.players)) return null;
  const players = g.players.map(player);
  if (players.some((p) => p === null)) return null;
  return {
    table: g.table,
    game: g.game,
    edition: g.edition,
    winners: [...g.winners],
    players: players as VenuePlayer[],
    at: g.at,
  };
}

/** The leaderboard in `path` (its folder made 0700 when missing, the file 0600). */
export function leaderboardFile(path: string, warn: (msg: string) => void = () => {}): LeaderboardStore {
  return {
    load() {
      if (!existsSync(path)) return [];
      try {
        const raw = JSON.parse(readFileSync(path, "utf8")) as { v?: unknown; games?: unknown };
        if (raw?.v !== 1 || !Array.isArray(raw.games)) throw new Error("not a venue leaderboard");
        return raw.games.map(finishedGame).filter((g): g is FinishedGame => g !== null);
      } catch (e) {
        warn(`venue leaderboard ${path}: ${(e as Error).message}; starting an empty one`);
        return [];
      }
    },
    save(games) {
      try {
        const dir = dirname(path);
        if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
        const kept = [...games].sort((a, b) => a.at - b.at).slice(-MAX_KEPT);
        const tmp = `${path}.tmp`;
        writeFileSync(tmp, `${JSON.stringify({ v: 1, games: kept })}\n`, { mode: 0o600 });
        chmodSync(tmp, 0o600);
        renameSync(tmp, path);
      } catch (e) {
        warn(`venue leaderboard ${path}: not saved: ${(e as Error).message}`);
      }
    },
  };
}
