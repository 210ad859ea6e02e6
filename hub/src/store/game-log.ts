// Each game is an append-only log: its setup, then every accepted decision in order.
// A decision is on disk before anyone is told it was accepted. An undo is one more entry (in `undos`) naming
// the decision it takes back; `decisions()` leaves undone ones out, so a replay gives the state after the undo.
import type { Db } from "./db.js";

export type GameId = number;

export interface LoggedGame {
  id: GameId;
  createdAt: number;
  setup: unknown;
}

export interface LoggedDecision {
  seq: number;
  at: number;
  /** who made it: `host` or `seat-<n>` */
  by: string;
  decision: unknown;
}

export class GameLog {
  constructor(private readonly db: Db) {}

  create(setup: unknown, now: number): GameId {
    const r = this.db.prepare("INSERT INTO games (created_at, setup) VALUES (?, ?)").run(now, JSON.stringify(setup));
    return Number(r.lastInsertRowid);
  }

  latest(): LoggedGame | null {
    const row = this.db
      .prepare<[], { id: number; created_at: number; setup: string }>(
        "SELECT id, created_at, setup FROM games ORDER BY id DESC LIMIT 1",
      )
      .get();
    return row ? { id: row.id, createdAt: row.created_at, setup: JSON.parse(row.setup) } : null;
  }

  game(id: GameId): LoggedGame | null {
    const row = this.db
      .prepare<[number], { id: number; created_at: number; setup: string }>(
        "SELECT id, created_at, setup FROM games WHERE id = ?",
      )
      .get(id);
    return row ? { id: row.id, createdAt: row.created_at, setup: JSON.parse(row.setup) } : null;
  }

  games(): { id: GameId; createdAt: number; decisions: number }[] {
    return this.db
      .prepare<[], { id: number; created_at: number; n: number }>(
        `SELECT g.id, g.created_at, (SELECT COUNT(*) FROM decisions d WHERE d.game = g.id
           AND NOT EXISTS (SELECT 1 FROM undos u WHERE u.game = d.game AND u.seq = d.seq)) AS n
         FROM games g ORDER BY g.id`,
      )
      .all()
      .map((r) => ({ id: r.id, createdAt: r.created_at, decisions: r.n }));
  }

  /** Appends one decision; returns its sequence number (1, 2, ...). */
  append(game: GameId, decision: unknown, by: string, now: number): number {
    const tx = this.db.transaction((): number => {
      const last = this.db
        .prepare<[number], { m: number | null }>("SELECT MAX(seq) AS m FROM decisions WHERE game = ?")
        .get(game);
      const seq = (last?.m ?? 0) + 1;
      this.db
        .prepare("INSERT INTO decisions (game, seq, at, by, decision) VALUES (?, ?, ?, ?, ?)")
        .run(game, seq, now, by, JSON.stringify(decision));
      return seq;
    });
    return tx();
  }

  /** Records that decision `seq` is taken back (append-only: the decision stays in the log). */
  undo(game: GameId, seq: number, by: string, now: number): void {
    this.db.prepare("INSERT INTO undos (game, seq, at, by) VALUES (?, ?, ?, ?)").run(game, seq, now, by);
  }

  /** Changes whenever the game's log does (a decision, an undo): a cheap key for what is read from it. */
  revision(game: GameId): string {
    const r = this.db
      .prepare<[number, number], { d: number | null; u: number }>(
        "SELECT (SELECT MAX(seq) FROM decisions WHERE game = ?) AS d, (SELECT COUNT(*) FROM undos WHERE game = ?) AS u",
      )
      .get(game, game);
    return `${r?.d ?? 0}:${r?.u ?? 0}`;
  }

  /** The game's decisions in order, without the undone ones: what a replay applies. */
  decisions(game: GameId): LoggedDecision[] {
    return this.db
      .prepare<[number], { seq: number; at: number; by: string; decision: string }>(
        `SELECT seq, at, by, decision FROM decisions d WHERE game = ?
           AND NOT EXISTS (SELECT 1 FROM undos u WHERE u.game = d.game AND u.seq = d.seq) ORDER BY seq`,
      )
      .all(game)
      .map((r) => ({ seq: r.seq, at: r.at, by: r.by, decision: JSON.parse(r.decision) }));
  }
}
