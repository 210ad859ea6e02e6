// Small checks that compose into strict decoders of nested JSON: each is told where in the message it stands, so an
// error names the path (e.g. `game.players[2].alive`), and none throws. The table's messages (table-decode.ts) and
// a player's decision (decision.ts) are decoded with them.
import type { ProtocolError, ProtocolErrorCode } from "./errors.js";
import { isName, MAX_SEATS } from "./topics.js";
import { isOneOf } from "./vocab.js";

/** Checks the value found at `at`: null when it fits, else why not. A field checked by it must be there. */
export interface Check {
  (x: unknown, at: string): ProtocolError | null;
  readonly optional?: false;
}
/** A check for a field that may be absent (opt). */
export interface Optional {
  (x: unknown, at: string): ProtocolError | null;
  readonly optional: true;
}
/** An object's fields: name → its check. Fields not named are refused. */
export type Fields = { [name: string]: Check | Optional };
/**
 * The checks of a type's fields, held to the type: each field checked, none else, the optional ones by `opt`.
 * `Omit` names fields checked elsewhere (a variant's tag).
 */
export type FieldsOf<T, Omit extends keyof T = never> = {
  [K in Exclude<keyof T, Omit>]-?: Pick<T, K> extends Required<Pick<T, K>> ? Check : Optional;
};
type Obj = { [k: string]: unknown };

export function no(code: ProtocolErrorCode, at: string, what: string): ProtocolError {
  return { code: code, field: at, message: at + " " + what };
}
export function own(o: object, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}
export function isObj(x: unknown): x is Obj {
  return x !== null && typeof x === "object" && !Array.isArray(x);
}
export function path(at: string, k: string | number): string {
  if (typeof k === "number") return at + "[" + k + "]";
  return at === "" ? k : at + "." + k;
}

/** A number from `min` to `max`; `whole`: an integer. */
export function numberIn(min: number, max: number, whole: boolean): Check {
  return (x, at) => {
    if (typeof x !== "number" || !isFinite(x)) return no("type", at, "must be a number");
    if (whole && Math.floor(x) !== x) return no("type", at, "must be a whole number");
    return x < min || x > max ? no("range", at, "must be between " + min + " and " + max) : null;
  };
}
export function text(max: number): Check {
  return (x, at) => {
    if (typeof x !== "string") return no("type", at, "must be a string");
    return x.length < 1 || x.length > max ? no("range", at, "must be 1 to " + max + " characters") : null;
  };
}
export const flag: Check = (x, at) => (typeof x === "boolean" ? null : no("type", at, "must be true or false"));
export const gunId: Check = (x, at) => {
  if (typeof x !== "string") return no("type", at, "must be a string");
  return isName(x) ? null : no("range", at, "must be a gun id");
};
/** One of a list of words. */
export function word(words: readonly string[]): Check {
  return (x, at) => {
    if (typeof x !== "string") return no("type", at, "must be a string");
    return isOneOf(words, x) ? null : no("range", at, "must be one of " + words.join(", "));
  };
}
/** One of a few numbers. */
export function among(values: readonly number[]): Check {
  return (x, at) => {
    if (isOneOf(values, x)) return null;
    return no(typeof x === "number" ? "range" : "type", at, "must be one of " + values.join(", "));
  };
}
export function orNull(c: Check): Check {
  return (x, at) => (x === null ? null : c(x, at));
}
/** The field may be absent; when there, `c` checks it. */
export function opt(c: Check): Optional {
  function o(x: unknown, at: string): ProtocolError | null {
    return c(x, at);
  }
  o.optional = true as const;
  return o;
}
export function listOf(c: Check, max: number): Check {
  return (x, at) => {
    if (!Array.isArray(x)) return no("type", at, "must be a list");
    if (x.length > max) return no("range", at, "must hold at most " + max + " items");
    for (let i = 0; i < x.length; i++) {
      const bad = c(x[i], path(at, i));
      if (bad) return bad;
    }
    return null;
  };
}
/** The fields of an object: those not named are refused, those not optional are required. */
export function fieldsFit(o: Obj, fields: Fields, at: string): ProtocolError | null {
  const have = Object.keys(o);
  for (let i = 0; i < have.length; i++) {
    if (!own(fields, have[i])) return no("field", path(at, have[i]), "is no field it may have");
  }
  const want = Object.keys(fields);
  for (let j = 0; j < want.length; j++) {
    const c = fields[want[j]];
    const x = o[want[j]];
    const bad =
      x === undefined ? (c.optional ? null : no("field", path(at, want[j]), "is missing")) : c(x, path(at, want[j]));
    if (bad) return bad;
  }
  return null;
}
export function shape(fields: Fields): Check {
  return (x, at) => (isObj(x) ? fieldsFit(x, fields, at) : no("type", at, "must be an object"));
}
/** An object whose `tag` field picks its fields. */
export function variant(tag: string, cases: { [t: string]: Fields }): Check {
  const check = word(Object.keys(cases));
  return (x, at) => {
    if (!isObj(x)) return no("type", at, "must be an object");
    const t = x[tag];
    if (t === undefined) return no("field", path(at, tag), "is missing");
    const bad = check(t, path(at, tag));
    if (bad) return bad;
    const fields: Fields = {};
    fields[tag] = check;
    const mine = cases[t as string];
    for (const k in mine) if (own(mine, k)) fields[k] = mine[k];
    return fieldsFit(x, fields, at);
  };
}
/** `a` for a number, else `b`. */
export function whenNumber(a: Check, b: Check): Check {
  return (x, at) => (typeof x === "number" ? a(x, at) : b(x, at));
}
/** the New Godfather token, or what `c` accepts */
export function whenGodfather(c: Check): Check {
  return (x, at) => (x === "godfather" ? null : c(x, at));
}
/** `a` when the object has field `key`, else `b`. */
export function whenHas(key: string, a: Check, b: Check): Check {
  return (x, at) => (isObj(x) && own(x, key) ? a(x, at) : b(x, at));
}

export const SEAT = numberIn(0, MAX_SEATS - 1, true);
export const SEAT_OR_NULL = orNull(SEAT);
export const SEATS = listOf(SEAT, MAX_SEATS);
