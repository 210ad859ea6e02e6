// The hub's database: one SQLite file per table in the data directory.
// WAL + synchronous=FULL: a write that returned is on disk, even after kill -9 or power loss.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";

export type Db = Database.Database;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT NOT NULL);
-- A paired gun: its key's hash, and its bridge's own login (hashed too: secrets.ts bridgeToken), void at a new pairing;
-- and the counters of its last login by proof (broker/gun-proof.ts): each must be newer.
CREATE TABLE IF NOT EXISTS guns (
  id TEXT PRIMARY KEY,
  secret_hash TEXT NOT NULL,
  seat INTEGER,
  paired_at INTEGER NOT NULL,
  bridge_hash TEXT,
  login_boot INTEGER,
  login_n INTEGER
);
-- A console's token, for the player it was made for (null: made before any game, the next game's player takes it).
CREATE TABLE IF NOT EXISTS seat_tokens (seat INTEGER PRIMARY KEY, token TEXT NOT NULL, player TEXT);
-- Devices that logged in as the host once: each logs in with its token (only the hash is kept) until revoked.
CREATE TABLE IF NOT EXISTS host_devices (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  last_seen INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
  id INTEGER PRIMARY KEY,
  created_at INTEGER NOT NULL,
  setup TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS decisions (
  game INTEGER NOT NULL REFERENCES games(id),
  seq INTEGER NOT NULL,
  at INTEGER NOT NULL,
  by TEXT NOT NULL,
  decision TEXT NOT NULL,
  PRIMARY KEY (game, seq)
);
-- The game log is append-only: history cannot be rewritten, only added to.
CREATE TRIGGER IF NOT EXISTS decisions_no_update BEFORE UPDATE ON decisions
  BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS decisions_no_delete BEFORE DELETE ON decisions
  BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS games_no_update BEFORE UPDATE ON games
  BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
-- Undo entries: a decision named here is left out when the game is replayed (the decision itself stays).
CREATE TABLE IF NOT EXISTS undos (
  game INTEGER NOT NULL REFERENCES games(id),
  seq INTEGER NOT NULL,
  at INTEGER NOT NULL,
  by TEXT NOT NULL,
  PRIMARY KEY (game, seq)
);
CREATE TRIGGER IF NOT EXISTS undos_no_update BEFORE UPDATE ON undos
  BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS undos_no_delete BEFORE DELETE ON undos
  BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
-- A game run by the table: its table setup, and the table's own records (verdicts not yet in the engine).
CREATE TABLE IF NOT EXISTS table_setups (game INTEGER PRIMARY KEY REFERENCES games(id), setup TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS table_records (
  game INTEGER NOT NULL REFERENCES games(id),
  seq INTEGER NOT NULL,
  at INTEGER NOT NULL,
  record TEXT NOT NULL,
  PRIMARY KEY (game, seq)
);
CREATE TRIGGER IF NOT EXISTS table_records_no_update BEFORE UPDATE ON table_records
  BEGIN SELECT RAISE(ABORT, 'the table log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS table_records_no_delete BEFORE DELETE ON table_records
  BEGIN SELECT RAISE(ABORT, 'the table log is append-only'); END;
-- Each gun's last good calibration (yaw offset at a gun time), kept across restarts.
CREATE TABLE IF NOT EXISTS calibrations (
  gun TEXT PRIMARY KEY,
  seat INTEGER NOT NULL,
  off REAL NOT NULL,
  t INTEGER NOT NULL,
  poses INTEGER NOT NULL,
  spread REAL NOT NULL,
  at INTEGER NOT NULL
);
`;

export function dbPath(dataDir: string, table: string): string {
  return join(dataDir, `${table}.sqlite`);
}

/**
 * The data folder and the database hold the host PIN, seat tokens and gun key hashes: the folder is made 0700 and
 * the files 0600 (SQLite gives its -wal and -shm files the database's mode). A folder or file that others can read
 * is tightened, and `warn` says so.
 */
function keepPrivate(file: string, warn: (msg: string) => void): void {
  const dir = dirname(file);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tighten = (path: string, mode: number) => {
    if (!existsSync(path)) return;
    const now = statSync(path).mode & 0o777;
    if ((now & 0o077) === 0) return;
    chmodSync(path, mode);
    warn(`${path} was readable by others (mode ${now.toString(8)}): now ${mode.toString(8)}`);
  };
  tighten(dir, 0o700);
  if (!existsSync(file)) closeSync(openSync(file, "a", 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) tighten(f, 0o600);
}

export function openDb(file: string, opts: { readonly?: boolean; warn?: (msg: string) => void } = {}): Db {
  if (!opts.readonly) keepPrivate(file, opts.warn ?? (() => {}));
  const db = new Database(file, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false });
  if (!opts.readonly) {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.pragma("foreign_keys = ON");
    db.exec(SCHEMA);
    migrate(db);
  }
  return db;
}

/** Columns added since a data folder was made. */
function migrate(db: Db): void {
  const cols = db.prepare<[], { name: string }>("PRAGMA table_info(seat_tokens)").all();
  if (!cols.some((c) => c.name === "player")) db.exec("ALTER TABLE seat_tokens ADD COLUMN player TEXT");
  const gunCols = db.prepare<[], { name: string }>("PRAGMA table_info(guns)").all();
  if (!gunCols.some((c) => c.name === "bridge_hash")) db.exec("ALTER TABLE guns ADD COLUMN bridge_hash TEXT");
  if (!gunCols.some((c) => c.name === "login_boot")) {
    db.exec("ALTER TABLE guns ADD COLUMN login_boot INTEGER");
    db.exec("ALTER TABLE guns ADD COLUMN login_n INTEGER");
  }
}
