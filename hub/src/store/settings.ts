// The table's own settings that outlive a game and a restart: the language its people read and hear.
import type { Db } from "./db.js";

/** The languages the dashboard, the consoles and the voice speak. */
export const LANGS = ["en", "fr", "fi"] as const;
export type Lang = (typeof LANGS)[number];

export function isLang(x: unknown): x is Lang {
  return typeof x === "string" && (LANGS as readonly string[]).includes(x);
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
