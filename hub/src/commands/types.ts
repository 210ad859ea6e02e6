// Command ops: request/response messages over MQTT, one path for the dashboard, scripts and tests. Each op is typed
// by the protocol's map (shared/protocol/src/commands.ts): its decoder yields the op's arguments, its handler answers
// with the op's result or a coded error.
import type { OpArgs, OpName, OpResult, Result } from "@cng/protocol";
import type { Seat } from "../rules/index.js";
import type { DeviceId } from "../store/devices.js";
import { only } from "./args.js";
import type { OpContext } from "./context.js";

/** Who a request is from, as proven by its `auth` (host PIN, a host device's token, or a seat token). */
export type Caller = { role: "host"; device?: DeviceId } | { role: "seat"; seat: Seat } | { role: "anyone" };

/** Where a request came from: its client id, and the address it counts against (the limiter's source). */
export interface Requester {
  client: string;
  from: string;
}

/** The least an op needs: `host` (PIN), `player` (PIN or a seat token), `anyone`. */
export type Need = "host" | "player" | "anyone";

/** Op `K`; `A` is what its decoder makes of the request's `a`: the op's arguments, unless it builds more from them. */
export interface Op<K extends OpName, A = OpArgs<K>> {
  name: K;
  need: Need;
  summary: string;
  /** the arguments it takes: any other is refused before `parse` (null: `parse` refuses them itself) */
  args: readonly string[] | null;
  /** Decodes the request's `a` strictly; nothing has happened yet. */
  parse(a: Record<string, unknown>): Result<A>;
  run(ctx: OpContext, caller: Caller, args: A, req: Requester): Promise<Result<OpResult<K>>> | Result<OpResult<K>>;
}

/** The request's `a` as op `op` takes it: no argument it does not have, each one decoded. */
export function decodeArgs<K extends OpName, A>(op: Op<K, A>, a: Record<string, unknown>): Result<A> {
  return (op.args === null ? null : only(a, op.args)) ?? op.parse(a);
}

export function callerName(c: Caller): string {
  return c.role === "seat" ? `seat-${c.seat}` : c.role;
}
