// The dashboard's words in English, French and Finnish: every key the pages use is in every catalogue, the
// catalogues agree on keys and placeholders, plurals follow each language's own rules, and Intl formats the money.
import { readdirSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { HOST_CHOICES, TABLE_LANGS } from "@cng/protocol";
import { describe, expect, it } from "vitest";

const DIR = new URL("../../hub/src/web/public/", import.meta.url);
const LANGS = TABLE_LANGS;
type Message = string | Record<string, string>;
type Catalogue = Record<string, Message>;

const load = async (file: string) => import(pathToFileURL(new URL(file, DIR).pathname).href);
const catalogues: Record<string, Catalogue> = {};
for (const l of LANGS) catalogues[l] = (await load(`i18n-${l}.js`)).default;
const i18n = await load("i18n.js");

/** Every t("key") call in the pages' code (not the catalogues themselves), and the host's choices' words. */
function usedKeys(): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const f of readdirSync(DIR).filter((x) => x.endsWith(".js") && !/^i18n-/.test(x))) {
    const src = readFileSync(new URL(f, DIR), "utf8");
    for (const m of src.matchAll(/(?<![\w.$])t\(\s*"([^"]*)"/g)) used.set(m[1]!, [...(used.get(m[1]!) ?? []), f]);
  }
  for (const c of Object.values(HOST_CHOICES).flat()) used.set(`host.${c.word}`, ["host.js (HOST_CHOICES)"]);
  return used;
}

/** The {placeholders} of a message, over all its plural forms. */
const placeholders = (m: Message): string[] =>
  [
    ...new Set(
      (typeof m === "string" ? [m] : Object.values(m)).flatMap((s) => [...s.matchAll(/\{(\w+)\}/g)].map((x) => x[1]!)),
    ),
  ].sort();

/** Spaces as plain spaces: ICU puts no-break or narrow no-break spaces in French and Finnish amounts. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("the dashboard's catalogues", () => {
  it("hold every key the pages use, in every language", () => {
    const used = usedKeys();
    expect(used.size).toBeGreaterThan(200);
    for (const l of LANGS) {
      const missing = [...used].filter(([k]) => !(k in catalogues[l]!)).map(([k, files]) => `${k} (${files[0]})`);
      expect(missing, l).toEqual([]);
    }
  });

  it("hold nothing the pages no longer use", () => {
    const used = usedKeys();
    expect(Object.keys(catalogues.en!).filter((k) => !used.has(k))).toEqual([]);
  });

  it("have the same keys, each with the same placeholders, and no empty text", () => {
    const keys = Object.keys(catalogues.en!).sort();
    for (const l of LANGS) {
      const cat = catalogues[l]!;
      expect(Object.keys(cat).sort(), l).toEqual(keys);
      for (const k of keys) {
        expect(placeholders(cat[k]!), `${l} ${k}`).toEqual(placeholders(catalogues.en![k]!));
        const texts = typeof cat[k] === "string" ? [cat[k] as string] : Object.values(cat[k]!);
        for (const s of texts) expect(s.trim(), `${l} ${k}`).not.toBe("");
      }
    }
  });

  it("give each plural message exactly the forms the language's plural rules choose from", () => {
    for (const l of LANGS) {
      const categories = new Intl.PluralRules(l).resolvedOptions().pluralCategories.slice().sort();
      for (const [k, m] of Object.entries(catalogues[l]!)) {
        if (typeof m === "string") continue;
        expect(Object.keys(m).sort(), `${l} ${k}`).toEqual(categories);
      }
    }
    // French and Finnish have their own rules: 0 is singular in French, and French has a form for millions
    expect(new Intl.PluralRules("fr").select(0)).toBe("one");
    expect(new Intl.PluralRules("fr").resolvedOptions().pluralCategories).toContain("many");
    expect(new Intl.PluralRules("fi").select(0)).toBe("other");
  });
});

describe("t() and the formatters", () => {
  it("fill placeholders, choose the plural form by the language's rules, and fall back to the key", () => {
    i18n.setLang("en");
    expect(i18n.lang()).toBe("en");
    expect(i18n.t("games.decisions", { n: 0 })).toBe("0 decisions");
    expect(i18n.t("games.decisions", { n: 1 })).toBe("1 decision");
    expect(i18n.t("games.decisions", { n: 1200 })).toBe("1,200 decisions");
    expect(i18n.t("event.shot", { name: "Bob", target: "Cid", card: i18n.t("bullet.bang") })).toBe("Bob → Cid: Bang!");
    expect(i18n.t("no.such.key")).toBe("no.such.key");
    i18n.setLang("fr");
    expect(i18n.t("games.decisions", { n: 0 })).toBe("0 décision");
    expect(plain(i18n.t("games.decisions", { n: 1200 }))).toBe("1 200 décisions");
    expect(plain(i18n.t("bullet.bang"))).toBe("Bang !");
    i18n.setLang("fi");
    expect(i18n.t("games.decisions", { n: 0 })).toBe("0 päätöstä");
    expect(i18n.t("games.decisions", { n: 1 })).toBe("1 päätös");
  });

  it("format money with Intl, negative amounts included", () => {
    i18n.setLang("en");
    expect(i18n.money(25000)).toBe("$25,000");
    expect(i18n.money(-5000)).toBe("-$5,000");
    expect(i18n.money(0)).toBe("$0");
    i18n.setLang("fr");
    expect(plain(i18n.money(25000))).toBe("25 000 $");
    expect(plain(i18n.money(-5000))).toBe("-5 000 $");
    i18n.setLang("fi");
    expect(plain(i18n.money(-5000))).toBe("\u22125 000 $");
    for (const l of LANGS) {
      i18n.setLang(l);
      expect(i18n.money(-5000), l).not.toMatch(/\$\s*-/);
    }
  });

  it("choose the language: this browser's own choice, else the table's, else the browser's, else English", () => {
    i18n.setLang(null);
    i18n.setTableLang("fi");
    expect(i18n.lang()).toBe("fi");
    i18n.setLang("fr");
    expect(i18n.lang()).toBe("fr");
    expect(i18n.autoLang()).toBe("fi");
    // an unknown language is no choice: the browser's (here Node's), else English
    i18n.setLang(null);
    i18n.setTableLang("xx");
    expect(i18n.lang()).toBe(i18n.autoLang());
    expect(LANGS).toContain(i18n.lang());
    // the pages redraw on each change, and only then
    i18n.setLang("en");
    i18n.setTableLang("fi");
    const seen: string[] = [];
    const off = i18n.onLangChange((l: string) => seen.push(l));
    i18n.setLang(null);
    i18n.setLang(null);
    i18n.setTableLang("fr");
    off();
    i18n.setTableLang(null);
    expect(seen).toEqual(["fi", "fr"]);
  });
});
