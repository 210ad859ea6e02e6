// Words for people, in English, French or Finnish: t(key, params) reads the effective language's catalogue
// (i18n-en.js, i18n-fr.js, i18n-fi.js; keys are short ids), and numbers, money, lists and dates are formatted by
// the platform (Intl). The effective language: this browser's own choice (kept in localStorage) > the table's
// (table/state `lang`, set by the host) > the browser's languages > English.

import en from "./i18n-en.js";
import fi from "./i18n-fi.js";
import fr from "./i18n-fr.js";

/** @typedef {import("/protocol/index.js").TableLang} TableLang */

/** One catalogue per language the protocol lists. @type {Record<TableLang, Record<string, string | Record<string, string>>>} */
export const CATALOGUES = { en, fr, fi };
export const LANGS = Object.keys(CATALOGUES);
/** Each language's name in itself: a reader finds their own whatever the page's language. @type {Record<TableLang, string>} */
export const LANG_NAMES = { en: "English", fr: "Français", fi: "Suomi" };

const STORE_KEY = "cng-lang";
const known = (l) => (typeof l === "string" && LANGS.includes(l) ? l : null);

let own = stored();
let tableLang = null;
const listeners = new Set();
let current = resolve();
let auto = autoLang();
let fmt = formatters(current);

function stored() {
  try {
    return known(globalThis.localStorage?.getItem(STORE_KEY));
  } catch {
    return null;
  }
}

/** This browser's own choice, or null (it follows the table, then the browser). */
export function personalLang() {
  return own;
}

function browserLang() {
  for (const l of globalThis.navigator?.languages ?? []) {
    const base = known(String(l).split("-")[0].toLowerCase());
    if (base) return base;
  }
  return null;
}

/** The language without this browser's own choice: the table's, else the browser's, else English. */
export function autoLang() {
  return tableLang ?? browserLang() ?? "en";
}

function resolve() {
  return own ?? autoLang();
}

function formatters(l) {
  return {
    // narrowSymbol: "$" in every language (French would print "$US" otherwise); the game counts dollars
    money: new Intl.NumberFormat(l, {
      style: "currency",
      currency: "USD",
      currencyDisplay: "narrowSymbol",
      minimumFractionDigits: 0,
      maximumFractionDigits: 0,
    }),
    num: new Intl.NumberFormat(l),
    percent: new Intl.NumberFormat(l, { style: "percent", maximumFractionDigits: 0 }),
    plural: new Intl.PluralRules(l),
    list: new Intl.ListFormat(l, { type: "conjunction" }),
    date: new Intl.DateTimeFormat(l, { dateStyle: "medium", timeStyle: "short" }),
  };
}

function update() {
  const next = resolve();
  if (next === current && autoLang() === auto) return;
  auto = autoLang();
  if (next !== current) fmt = formatters(next);
  current = next;
  for (const fn of listeners) fn(next);
}

/** The effective language. */
export const lang = () => current;

/** This browser's own choice (null: follow the table, then the browser). */
export function setLang(l) {
  own = known(l);
  try {
    if (own) globalThis.localStorage?.setItem(STORE_KEY, own);
    else globalThis.localStorage?.removeItem(STORE_KEY);
  } catch {
    // storage off: the choice lasts as long as the page
  }
  update();
}

/** The table's language from table/state (null: none set). */
export function setTableLang(l) {
  tableLang = known(l);
  update();
}

/** Calls `fn(lang)` whenever the effective language changes, or the one "auto" would give. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * The message `key` in the effective language, its {placeholders} filled from `params` (numbers formatted: pass
 * an id as a string).
 * A plural message ({one, other, …}) is chosen by `params.n` with the language's own plural rules.
 */
export function t(key, params = {}) {
  let msg = CATALOGUES[current][key] ?? en[key];
  if (msg === undefined) return key;
  if (typeof msg === "object") msg = msg[fmt.plural.select(Number(params.n ?? 0))] ?? msg.other;
  return msg.replace(/\{(\w+)\}/g, (whole, k) => {
    const v = params[k];
    if (v === undefined || v === null) return whole;
    return typeof v === "number" ? fmt.num.format(v) : String(v);
  });
}

/** Dollars: "$25,000", "-$5,000", "25 000 $" */
export const money = (n) => fmt.money.format(Math.round(n));

/** A number as the language writes it; with `digits`, exactly that many decimals. */
export const num = (n, digits = 0) =>
  digits === 0
    ? fmt.num.format(n)
    : new Intl.NumberFormat(current, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);

/** 0–100 → "80%" / "80 %" */
export const percent = (n) => fmt.percent.format(n / 100);

/** "Ann, Bob and Cid" */
export const list = (items) => fmt.list.format(items.map(String));

/** A moment (ms since 1970), date and time. */
export const date = (ms) => fmt.date.format(new Date(ms));
