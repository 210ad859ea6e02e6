// The table's side of a game's log: its setup (layout, secret sources, timing) and its records, appended in
// order next to the engine's decisions, so a restarted hub can rebuild the table with Table.resume.
import type { Db } from "./db.js";
import type { GameId } from "./game-log.js";

export class TableLog {
  constructor(private readonly db: Db) {}

  saveSetup(game: GameId, setup: unknown): void {
    this.db.prepare("INSERT INTO table_setups (game, setup) VALUES (?, ?)").run(game, JSON.stringify(setup));
  }

  /** The game's table setup, or null for a game played without a table. */
  setup(game: GameId): unknown | null {
    const row = this.db.prepare<[number], { setup: string }>("SELECT setup FROM table_setups WHERE game = ?").get(game);
    return row ? JSON.parse(row.setup) : null;
  }

  append(game: GameId, record: unknown, now: number): void {
    const tx = this.db.transaction(() => {
      const last = this.db
        .prepare<[number], { m: number | null }>("SELECT MAX(seq) AS m FROM table_records WHERE game = ?")
        .get(game);
      this.db
        .prepare("INSERT INTO table_records (game, seq, at, record) VALUES (?, ?, ?, ?)")
        .run(game, (last?.m ?? 0) + 1, now, JSON.stringify(record));
    });
    tx();
  }

  /** When the game's last record was appended, or null when it has none. */
  lastAt(game: GameId): number | null {
    const row = this.db
      .prepare<[number], { at: number | null }>("SELECT MAX(at) AS at FROM table_records WHERE game = ?")
      .get(game);
    return row?.at ?? null;
  }

  records(game: GameId): unknown[] {
    return this.db
      .prepare<[number], { record: string }>("SELECT record FROM table_records WHERE game = ? ORDER BY seq")
      .all(game)
      .map((r) => JSON.parse(r.record));
  }
}
