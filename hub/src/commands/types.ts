// Command ops: request/response messages over MQTT, one path for the dashboard, scripts and tests.
import type { Seat } from "../rules/index.js";
import type { DeviceId } from "../store/devices.js";

/** Who a request is from, as proven by its `auth` (host PIN, a host device's token, or a seat token). */
export type Caller = { role: "host"; device?: DeviceId } | { role: "seat"; seat: Seat } | { role: "anyone" };

/** The least an op needs: `host` (PIN), `player` (PIN or a seat token), `anyone`. */
export type Need = "host" | "player" | "anyone";

export type OpError = { code: string; msg: string };
export type OpResult = { ok: true; r?: unknown } | ({ ok: false } & OpError);
export type Parsed<A> = { ok: true; args: A } | ({ ok: false } & OpError);

export interface Op<A, Ctx> {
  name: string;
  need: Need;
  summary: string;
  /** Checks the request's `a` object; nothing has happened yet. */
  parse(a: Record<string, unknown>): Parsed<A>;
  run(ctx: Ctx, caller: Caller, args: A): Promise<OpResult> | OpResult;
}

export function fail(code: string, msg: string): { ok: false } & OpError {
  return { ok: false, code, msg };
}

export function callerName(c: Caller): string {
  return c.role === "seat" ? `seat-${c.seat}` : c.role;
}
