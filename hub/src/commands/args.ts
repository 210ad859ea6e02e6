// Small validators for op arguments: each returns the value or an error naming the field.

import type { GunId } from "@cng/protocol";
import { isName, MAX_SEATS } from "@cng/protocol";
import type { Seat } from "../rules/index.js";
import { fail, type OpError, type Parsed } from "./types.js";

type Field<T> = { ok: true; v: T } | ({ ok: false } & OpError);

/** Refuses fields other than the listed ones. */
export function only(a: Record<string, unknown>, allowed: string[]): ({ ok: false } & OpError) | null {
  for (const k of Object.keys(a))
    if (!allowed.includes(k)) return fail("bad-args", `unknown argument ${k.slice(0, 24)}`);
  return null;
}

export function gunId(a: Record<string, unknown>, key = "gun"): Field<GunId> {
  const v = a[key];
  return isName(v) ? { ok: true, v } : fail("bad-args", `${key} must be a gun id (a-z, 0-9, _ -, up to 32)`);
}

export function seat(a: Record<string, unknown>, key: string, optional: true): Field<Seat | null>;
export function seat(a: Record<string, unknown>, key: string, optional?: false): Field<Seat>;
export function seat(a: Record<string, unknown>, key: string, optional = false): Field<Seat | null> {
  const v = a[key];
  if ((v === undefined || v === null) && optional) return { ok: true, v: null };
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v < MAX_SEATS
    ? { ok: true, v }
    : fail("bad-args", `${key} must be a seat number 0-${MAX_SEATS - 1}`);
}

export function bool(a: Record<string, unknown>, key: string): Field<boolean> {
  const v = a[key];
  if (v === undefined) return { ok: true, v: false };
  return typeof v === "boolean" ? { ok: true, v } : fail("bad-args", `${key} must be true or false`);
}

export function object(a: Record<string, unknown>, key: string): Field<Record<string, unknown>> {
  const v = a[key];
  return v !== null && typeof v === "object" && !Array.isArray(v)
    ? { ok: true, v: v as Record<string, unknown> }
    : fail("bad-args", `${key} must be an object`);
}

/** Runs field checks in order; the first failure is the answer. */
export function all<A>(checks: Field<unknown>[], build: () => A): Parsed<A> {
  for (const c of checks) if (!c.ok) return c;
  return { ok: true, args: build() };
}
