// The table's own settings that outlive a game and a restart: the language its people read and hear.
import { isOneOf, TABLE_LANGS, type TableLang } from "@cng/protocol";
import type { Db } from "./db.js";

/** A language the table speaks (the protocol's list). */
export type Lang = TableLang;

export function isLang(x: unknown): x is Lang {
  return isOneOf(TABLE_LANGS, x);
}

export class Settings {
  constructor(private readonly db: Db) {}

  /** The table's language, or null: each browser uses its own. */
  lang(): Lang | null {
    const row = this.db.prepare<[string], { v: string }>("SELECT v FROM kv WHERE k = ?").get("lang");
    return row && isLang(row.v) ? row.v : null;
  }

  setLang(lang: Lang | null): void {
    if (lang === null) this.db.prepare("DELETE FROM kv WHERE k = 'lang'").run();
    else this.db.prepare("INSERT OR REPLACE INTO kv (k, v) VALUES ('lang', ?)").run(lang);
  }
}
