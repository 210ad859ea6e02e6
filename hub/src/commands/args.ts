// Small decoders for op arguments: each returns the value or a `bad-args` error naming the field.
import type { GunId } from "@cng/protocol";
import { type Decision, decodeDecision, isName, MAX_SEATS, ok, type Result, refuse } from "@cng/protocol";
import type { Seat } from "../rules/index.js";

export const badArgs = (message: string) => refuse("bad-args", message);

/** Refuses fields other than the listed ones. */
export function only(a: Record<string, unknown>, allowed: readonly string[]): Result<never> | null {
  for (const k of Object.keys(a)) if (!allowed.includes(k)) return badArgs(`unknown argument ${k.slice(0, 24)}`);
  return null;
}

/** No arguments (the op's `args` is empty). */
export function none(): Result<{ [k: string]: never }> {
  return ok({});
}

export function gunId(a: Record<string, unknown>, key = "gun"): Result<GunId> {
  const v = a[key];
  return isName(v) ? ok(v) : badArgs(`${key} must be a gun id (a-z, 0-9, _ -, up to 32)`);
}

export function isSeat(v: unknown): v is Seat {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v < MAX_SEATS;
}

export function seat(a: Record<string, unknown>, key: string): Result<Seat> {
  const v = a[key];
  return isSeat(v) ? ok(v) : badArgs(`${key} must be a seat number 0-${MAX_SEATS - 1}`);
}

/** A seat, or null; absent is null. */
export function seatOrNull(a: Record<string, unknown>, key: string): Result<Seat | null> {
  const v = a[key];
  return v === undefined || v === null ? ok(null) : seat(a, key);
}

/** true or false; absent is false. */
export function bool(a: Record<string, unknown>, key: string): Result<boolean> {
  const v = a[key];
  if (v === undefined) return ok(false);
  return typeof v === "boolean" ? ok(v) : badArgs(`${key} must be true or false`);
}

/** `{decision}`: one decision, decoded strictly (an object that is no decision is the engine's `bad-decision`). */
export function decision(a: Record<string, unknown>): Result<{ decision: Decision }> {
  const d = a.decision;
  if (d === null || typeof d !== "object" || Array.isArray(d)) return badArgs("decision must be an object");
  const decoded = decodeDecision(d);
  return decoded.ok ? ok({ decision: decoded.value }) : refuse("bad-decision", decoded.error.message);
}
