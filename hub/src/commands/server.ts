// Answers requests on cmd/<client>/req with a response on cmd/<client>/res.
// One at a time; a bad request gets an error response and changes nothing.
import { cmdTopic, decodeRequest, MAX_BYTES, ok, parseTopic, type ResponseMsg } from "@cng/protocol";
import type { Bus } from "../bus/bus.js";
import { type Logger, OncePerKey } from "../log.js";
import { isSealed, open, seal } from "../seal/index.js";
import { allowed, type RequestAuth } from "./auth.js";
import type { OpContext } from "./context.js";
import { findOp } from "./registry.js";
import { type Caller, callerName, decodeArgs } from "./types.js";

/** Requests waiting beyond this are answered `busy` at once, so a flood cannot grow memory. */
export const MAX_QUEUED = 1000;
/** Requests one source may have waiting; beyond, `busy` at once: one device cannot fill the queue. */
export const QUEUED_PER_SOURCE = 20;

/** Who a client logged in as (a host or a seat), and its session's key when it proved its secret. */
export interface CommandSession {
  caller: Caller;
  key?: Uint8Array;
}

interface Job {
  client: string;
  payload: Buffer;
  /** the source it counts against; null: the host's, which is never held back */
  from: string | null;
}

/**
 * One request at a time, in arrival order, the host's first: requests from a client logged in as the host wait in a
 * lane of their own, so a flood of anyone else's never stands between the host and the table.
 */
export class CommandServer {
  private readonly hostLane: Job[] = [];
  private readonly otherLane: Job[] = [];
  private running = false;
  private queued = 0;
  private readonly perSource = new Map<string, number>();
  private readonly refusals: OncePerKey;

  constructor(
    private readonly bus: Bus,
    private readonly ctx: OpContext,
    private readonly auth: RequestAuth,
    private readonly log: Logger,
    /** where a client's requests come from (an address), for the limiter */
    private readonly sourceOf: (client: string) => string = (c) => `client:${c}`,
    /** who a client logged in as, and its session's key (the embedded broker knows; an external one does not say) */
    private readonly sessionOf: (client: string) => CommandSession | undefined = () => undefined,
  ) {
    this.refusals = new OncePerKey(log);
  }

  async start(): Promise<void> {
    await this.bus.subscribe(cmdTopic(this.ctx.table, "+", "req"), (topic, payload) => this.enqueue(topic, payload));
  }

  private enqueue(topic: string, payload: Buffer): void {
    const t = parseTopic(topic);
    if (t?.kind !== "cmd" || t.table !== this.ctx.table) return;
    const client = t.client;
    const host = this.sessionOf(client)?.caller.role === "host";
    const from = host ? null : this.sourceOf(client);
    const waiting = from === null ? 0 : (this.perSource.get(from) ?? 0);
    if (!host && (this.queued >= MAX_QUEUED || waiting >= QUEUED_PER_SOURCE)) {
      this.refusals.warn(`busy:${from}`, { client, from }, "too many requests waiting: answered busy");
      void this.respond(client, {
        v: 1,
        id: requestId(payload),
        ok: false,
        e: { code: "busy", msg: "too many requests" },
      });
      return;
    }
    this.queued++;
    if (from !== null) this.perSource.set(from, waiting + 1);
    (host ? this.hostLane : this.otherLane).push({ client, payload, from });
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let job = this.next(); job; job = this.next()) {
        try {
          await this.handle(job.client, job.payload);
        } catch (e) {
          this.log.error({ err: e }, "request handling failed");
        } finally {
          this.queued--;
          if (job.from !== null) {
            const n = (this.perSource.get(job.from) ?? 1) - 1;
            if (n <= 0) this.perSource.delete(job.from);
            else this.perSource.set(job.from, n);
          }
        }
      }
    } finally {
      this.running = false;
    }
  }

  private next(): Job | undefined {
    return this.hostLane.shift() ?? this.otherLane.shift();
  }

  async handle(client: string, payload: Buffer): Promise<ResponseMsg> {
    const session = this.sessionOf(client);
    // a session that proved its secret seals its requests: opened with its key, answered sealed under it
    const text = payload.toString("utf8");
    if (isSealed(text)) {
      const opened = session?.key ? open(session.key, text) : null;
      if (opened === null) {
        const res: ResponseMsg = {
          v: 1,
          id: "-",
          ok: false,
          e: { code: "sealed", msg: "a sealed request this session cannot open" },
        };
        await this.respond(client, res);
        return res;
      }
      const res = await this.answer(client, Buffer.from(opened, "utf8"), session!.caller);
      await this.respond(client, res, session!.key);
      return res;
    }
    const res = await this.answer(client, payload, session?.caller);
    await this.respond(client, res);
    return res;
  }

  /** `session`: who the client logged in as; a request without `auth` acts as that. */
  private async answer(client: string, payload: Buffer, session?: Caller): Promise<ResponseMsg> {
    const d = decodeRequest(payload);
    if (!d.ok) {
      this.refusals.warn(`req:${this.sourceOf(client)}:${d.error.code}`, { client, err: d.error }, "refused request");
      return { v: 1, id: requestId(payload), ok: false, e: { code: d.error.code, msg: d.error.message } };
    }
    const req = d.value;
    const err = (code: string, msg: string): ResponseMsg => {
      this.refusals.warn(
        `op:${this.sourceOf(client)}:${req.op}:${code}`,
        { client, op: req.op, code, msg },
        "refused request",
      );
      return { v: 1, id: req.id, ok: false, e: { code, msg } };
    };
    const op = findOp(req.op);
    if (!op) return err("unknown-op", `no op ${req.op}`);
    const from = this.sourceOf(client);
    const who = req.auth === undefined && session ? ok(session) : this.auth.caller(req.auth, from);
    if (!who.ok && (who.error.code === "auth" || who.error.code === "locked")) {
      // once per source and minute: a guesser writes one line, not one per guess
      const code = who.error.code;
      this.refusals.warn(`auth:${from}`, { client, from, op: req.op, code }, "refused request: wrong secret");
      return { v: 1, id: req.id, ok: false, e: { code, msg: who.error.message } };
    }
    if (!who.ok) return err(who.error.code, who.error.message);
    if (!allowed(op.need, who.value)) {
      return err(
        "forbidden",
        `${req.op} needs ${op.need === "host" ? "the host PIN" : "the host PIN or a seat token"}`,
      );
    }
    const parsed = decodeArgs(op, req.a ?? {});
    if (!parsed.ok) return err(parsed.error.code, parsed.error.message);
    try {
      const r = await op.run(this.ctx, who.value, parsed.value, { client, from });
      if (!r.ok) return err(r.error.code, r.error.message);
      this.log.info({ client, op: req.op, by: callerName(who.value) }, "request done");
      return { v: 1, id: req.id, ok: true, r: r.value };
    } catch (e) {
      this.log.error({ err: e, op: req.op }, "op failed");
      return { v: 1, id: req.id, ok: false, e: { code: "internal", msg: "the hub failed to do this; see its log" } };
    }
  }

  private async respond(client: string, res: ResponseMsg, key?: Uint8Array): Promise<void> {
    try {
      const body = key ? seal(key, JSON.stringify(res)) : res;
      await this.bus.publish(cmdTopic(this.ctx.table, client, "res"), body, { qos: 1 });
    } catch (e) {
      this.log.warn({ client, err: (e as Error).message }, "could not send a response");
    }
  }
}

/** The id of a request that did not decode, when one can be read; "-" otherwise. */
function requestId(payload: Buffer): string {
  if (payload.length > MAX_BYTES.req) return "-";
  try {
    const o = JSON.parse(payload.toString("utf8")) as { id?: unknown };
    if (o && typeof o.id === "string" && o.id.length > 0 && o.id.length <= 64) return o.id;
  } catch {
    // not JSON
  }
  return "-";
}
