// Updates over the air: the hub sends a firmware bundle to paired guns on their `ota` topic (only the hub may
// publish there), one chunk at a time, each answered by the gun on `otas` with the offset it holds. A gun that
// drops off mid-way is asked again when it is back and says where it stopped; the update goes on from there.
// After the last chunk the gun checks the whole bundle and restarts into it; the update is done when the gun is
// online again running the new version, or failed when it comes back on the old one (firmware/src/ota.ts rolls
// back a bundle that does not come online). Firmware side and wire format: firmware/src/ota.ts, messages.ts.
// The hub vouches for each update: `begin` carries the bundle's SHA-256, the hub's time and an HMAC over all of it,
// keyed by the gun's key hash (what the hub keeps of the key), so a gun runs only what its own hub sends, and no
// earlier `begin` played again; an older version than the gun runs goes only when the host forces it.
import { createHash, createHmac } from "node:crypto";
import { crc32 } from "node:zlib";
import type { GunId, GunOta } from "@cng/protocol";
import {
  decodeGunError,
  decodeOtaState,
  gunTopic,
  OTA_CHUNK,
  OTA_LOW_BATTERY,
  type OtaBeginMsg,
  parseTopic,
} from "@cng/protocol";
import type { Bus } from "../bus/bus.js";
import type { Logger } from "../log.js";
import type { GunRegistry } from "./registry.js";

/** A firmware bundle for one board. */
export interface OtaBundle {
  board: string;
  fw: string;
  code: string;
}

/** Where one gun's update stands (in its retained status as `ota`, and in `guns.update`'s answers): the contract's. */
export type OtaProgress = GunOta;
export type OtaStage = GunOta["stage"];

export interface OtaOptions {
  /** ms without an answer before the hub asks the gun where it stands again */
  ackMs: number;
  /** ms a new firmware has to come online before the gun restarts; two misses roll it back (sent to the gun) */
  windowMs: number;
  /** questions in a row the gun may leave unanswered while online before the update fails */
  maxSilence: number;
  /** refusals of the same chunk (its CRC) before the update fails */
  maxRefusals: number;
  /** lowest battery (percent) an update starts at; the gun checks its own too */
  lowBattery: number;
  /** ms a gun may stay offline in the middle of its update before the update is given up */
  awayMs: number;
  /** fault injection for tests and `cng bench ota`: damage the chunk at this offset once (keeps its CRC) */
  corrupt?: (gun: GunId, offset: number) => boolean;
}

export const OTA_DEFAULTS: OtaOptions = {
  ackMs: 3000,
  windowMs: 60000,
  maxSilence: 3,
  maxRefusals: 3,
  lowBattery: OTA_LOW_BATTERY,
  awayMs: 600_000,
};

export function crcOf(code: string): number {
  return crc32(Buffer.from(code, "latin1")) >>> 0;
}

/** SHA-256 of a bundle, hex. */
export function shaOf(code: string): string {
  return createHash("sha256").update(code, "latin1").digest("hex");
}

/**
 * The `begin` text for `m`, vouched for: its JSON with the proof `a` last, an HMAC-SHA256 keyed by the gun's key hash
 * of the text before `,"a":"` (firmware/src/ota.ts checks it so).
 */
export function vouchedBegin(m: Omit<OtaBeginMsg, "a">, keyHash: string): string {
  const body = JSON.stringify(m).slice(0, -1);
  return `${body},"a":"${createHmac("sha256", keyHash).update(body, "latin1").digest("hex")}"}`;
}

/** `"<offset> <crc32>\n<data>"` */
export function otaChunk(offset: number, data: string): string {
  return `${offset} ${crcOf(data)}\n${data}`;
}

/** Why a bundle cannot be sent at all, or null. */
export function bundleProblem(b: OtaBundle): string | null {
  if (b.code.length === 0) return `the ${b.board} bundle is empty`;
  // erased flash reads 0xFF: the gun finds where an interrupted update stopped by the first one
  for (let i = 0; i < b.code.length; i++) {
    const c = b.code.charCodeAt(i);
    if (c > 0x7e || (c < 0x20 && c !== 10 && c !== 13 && c !== 9)) {
      return `the ${b.board} bundle has a byte 0x${c.toString(16)} at ${i}: bundles are ASCII (terser ascii_only)`;
    }
  }
  return null;
}

interface Job {
  gun: GunId;
  bundle: OtaBundle;
  crc: number;
  /** the vouched `begin`, made once: the same text each time it is asked again */
  begin: string;
  p: OtaProgress;
  timer?: NodeJS.Timeout;
  /** questions left unanswered in a row */
  silent: number;
  /** refusals of the chunk at `refusedAt` */
  refusals: number;
  refusedAt: number;
  /** bytes of chunks sent, resends included */
  sent: number;
  /** when the gun was first seen offline since its last answer */
  awaySince?: number;
  /** offset of the chunk sent and not yet answered (-1: none): a second answer naming it is not a reason to resend */
  inflight: number;
  /** the highest offset the gun said it holds since the last question: silence counts until it moves */
  best: number;
  done: Promise<OtaProgress>;
  finish: (p: OtaProgress) => void;
}

/** What a gun is told as its update begins (before the hub vouches for it): the bundle's board, version, size and sums. */
function beginMessage(bundle: OtaBundle, windowMs: number, force: boolean): Omit<OtaBeginMsg, "a"> {
  return {
    v: 1,
    c: "begin",
    b: bundle.board,
    fw: bundle.fw,
    n: bundle.code.length,
    crc: crcOf(bundle.code),
    w: windowMs,
    h: shaOf(bundle.code),
    // wall time, not the table's clock: the gun keeps it across restarts and refuses one not later than its last
    t: Date.now(),
    ...(force ? { f: 1 as const } : {}),
  };
}

export class OtaService {
  private readonly jobs = new Map<GunId, Job>();
  private readonly last = new Map<GunId, OtaProgress>();
  private readonly listeners: ((gun: GunId, p: OtaProgress) => void)[] = [];
  readonly opts: OtaOptions;

  constructor(
    private readonly bus: Bus,
    private readonly table: string,
    private readonly registry: GunRegistry,
    private readonly log: Logger,
    opts: Partial<OtaOptions> = {},
    private readonly clock: () => number = Date.now,
    /** a paired gun's key hash (hex SHA-256, store/secrets.ts): what vouches for its updates */
    private readonly keyHash: (gun: GunId) => string | undefined = () => undefined,
  ) {
    this.opts = { ...OTA_DEFAULTS, ...opts };
  }

  async start(): Promise<void> {
    await this.bus.subscribe(gunTopic(this.table, "+", "otas"), (t, p) => this.onState(t, p));
    await this.bus.subscribe(gunTopic(this.table, "+", "err"), (t, p) => this.onError(t, p));
  }

  /** Tells `fn` each change of a gun's update. */
  onProgress(fn: (gun: GunId, p: OtaProgress) => void): void {
    this.listeners.push(fn);
  }

  /** The update under way for a gun, or its last one. */
  progress(gun: GunId): OtaProgress | undefined {
    return this.jobs.get(gun)?.p ?? this.last.get(gun);
  }

  /** Guns whose update is under way. */
  running(): GunId[] {
    return [...this.jobs.keys()].sort();
  }

  /** Bytes of chunks sent to a gun in its current or last update (resends included). */
  bytesSent(gun: GunId): number {
    return this.jobs.get(gun)?.sent ?? this.sentLast.get(gun) ?? 0;
  }
  private readonly sentLast = new Map<GunId, number>();

  /** Why this gun cannot take this bundle now, or null. */
  problem(gun: GunId, bundle: OtaBundle): string | null {
    const g = this.registry.get(gun);
    if (!g?.paired || !this.keyHash(gun)) return `${gun} is not paired`;
    if (!g.on) return `${gun} is offline`;
    if (this.jobs.has(gun)) return `${gun} is already being updated`;
    if (g.info && g.info.b !== bundle.board) return `${gun} is a ${g.info.b}, the bundle is for ${bundle.board}`;
    if (g.info?.bat !== undefined && g.info.bat < this.opts.lowBattery) {
      const v = g.info.bv !== undefined ? ` (${g.info.bv} V)` : "";
      return `${gun}'s battery is at ${g.info.bat}%${v}: charge it to ${this.opts.lowBattery}% first`;
    }
    return bundleProblem(bundle);
  }

  /**
   * Starts one gun's update; resolves when it is done or failed. `checked: false` skips the hub's own checks of
   * board and battery (the gun makes them too: that is how its refusals are tested). `force`: the gun takes it even
   * when it is older than the version it runs (the host's choice, vouched for in `begin`).
   */
  update(gun: GunId, bundle: OtaBundle, checked = true, force = false): Promise<OtaProgress> {
    const keyHash = this.keyHash(gun);
    const why = checked
      ? this.problem(gun, bundle)
      : this.jobs.has(gun)
        ? `${gun} is already being updated`
        : keyHash
          ? null
          : `${gun} is not paired`;
    const from = this.registry.get(gun)?.info?.fw ?? null;
    let finish!: (p: OtaProgress) => void;
    const done = new Promise<OtaProgress>((r) => {
      finish = r;
    });
    const p: OtaProgress = { stage: "sending", fw: bundle.fw, from, o: 0, n: bundle.code.length, at: this.clock() };
    if (why) {
      const failed = { ...p, stage: "failed" as const, why };
      this.last.set(gun, failed);
      this.emit(gun, failed);
      return Promise.resolve(failed);
    }
    const begin = beginMessage(bundle, this.opts.windowMs, force);
    const job: Job = {
      gun,
      bundle,
      crc: begin.crc,
      begin: vouchedBegin(begin, keyHash!),
      p,
      silent: 0,
      refusals: 0,
      refusedAt: -1,
      sent: 0,
      inflight: -1,
      best: -1,
      done,
      finish,
    };
    this.jobs.set(gun, job);
    this.log.info({ gun, fw: bundle.fw, from, bytes: p.n }, "firmware update starts");
    this.emit(gun, p);
    this.begin(job);
    return done;
  }

  /** A gun came or went: a gun back online is asked where it stands (an interrupted update goes on). */
  presence(gun: GunId, on: boolean): void {
    const job = this.jobs.get(gun);
    if (!job || !on || job.p.stage !== "sending") return;
    job.silent = 0;
    this.begin(job);
  }

  /** A gun's info arrived: after the restart, the version says whether the update took. */
  info(gun: GunId, fw: string): void {
    const job = this.jobs.get(gun);
    if (job?.p.stage !== "restarting") return;
    if (fw === job.bundle.fw) this.end(job, "done");
  }

  stop(): void {
    for (const j of this.jobs.values()) clearTimeout(j.timer);
  }

  private emit(gun: GunId, p: OtaProgress): void {
    for (const fn of this.listeners) {
      try {
        fn(gun, p);
      } catch (e) {
        this.log.error({ err: e, gun }, "ota listener failed");
      }
    }
  }

  private set(job: Job, change: Partial<OtaProgress>): void {
    job.p = { ...job.p, ...change, at: this.clock() };
    this.emit(job.gun, job.p);
  }

  private end(job: Job, stage: "done" | "failed", why?: string): void {
    clearTimeout(job.timer);
    this.jobs.delete(job.gun);
    this.set(job, why === undefined ? { stage } : { stage, why });
    this.last.set(job.gun, job.p);
    this.sentLast.set(job.gun, job.sent);
    if (stage === "done") this.log.info({ gun: job.gun, fw: job.bundle.fw }, "firmware updated");
    else this.log.warn({ gun: job.gun, fw: job.bundle.fw, why }, "firmware update failed");
    job.finish(job.p);
  }

  private topic(gun: GunId): string {
    return gunTopic(this.table, gun, "ota");
  }

  private send(job: Job, payload: string): void {
    this.bus.publish(this.topic(job.gun), payload, { qos: 1 }).catch((e: Error) => {
      this.log.warn({ gun: job.gun, err: e.message }, "could not send an update message");
    });
  }

  /** Ask where the gun stands (begin again): it answers with the offset it holds. */
  private begin(job: Job): void {
    job.inflight = -1;
    this.send(job, job.begin);
    this.wait(job);
  }

  private wait(job: Job): void {
    clearTimeout(job.timer);
    job.timer = setTimeout(() => this.silence(job), this.opts.ackMs);
  }

  private silence(job: Job): void {
    if (job.p.stage !== "sending") return;
    // offline: wait for it to come back (presence) rather than count, up to awayMs
    if (!this.registry.get(job.gun)?.on) {
      job.awaySince ??= this.clock();
      if (this.clock() - job.awaySince >= this.opts.awayMs) {
        this.end(job, "failed", `the gun went away mid-update for ${Math.round(this.opts.awayMs / 1000)} s`);
        return;
      }
      if (job.p.why !== "waiting for the gun to come back") this.set(job, { why: "waiting for the gun to come back" });
      this.wait(job);
      return;
    }
    job.awaySince = undefined;
    if (++job.silent >= this.opts.maxSilence) {
      this.end(
        job,
        "failed",
        "the gun does not answer updates (its firmware has none, or it is on the USB serial link: use cng flash)",
      );
      return;
    }
    this.begin(job);
  }

  private jobOf(topic: string): Job | undefined {
    const t = parseTopic(topic);
    if (t?.kind !== "gun" || t.table !== this.table) return undefined;
    return this.jobs.get(t.gun);
  }

  private onState(topic: string, payload: Buffer): void {
    const job = this.jobOf(topic);
    if (job?.p.stage !== "sending") return;
    const d = decodeOtaState(payload);
    if (!d.ok || d.value.n !== job.p.n) return;
    const o = d.value.o;
    job.awaySince = undefined;
    // only progress forgives silence: a gun that answers without moving (stuck) fails after maxSilence questions
    if (o > job.best || d.value.ok) {
      job.best = o;
      job.silent = 0;
    }
    if (d.value.ok) {
      this.set(job, { stage: "restarting", o, why: undefined });
      clearTimeout(job.timer);
      // two boots on trial, each up to the window, then the old one back and online
      job.timer = setTimeout(
        () => this.end(job, "failed", "the gun did not come back after restarting"),
        this.opts.windowMs * 3 + 30_000,
      );
      return;
    }
    // the chunk at o is on its way already (two answers to two questions): one chain of chunks, not two
    if (o === job.inflight) return;
    this.set(job, { o, why: undefined });
    this.chunk(job, o);
  }

  private chunk(job: Job, o: number): void {
    const data = job.bundle.code.substr(o, OTA_CHUNK);
    // all there but not switched to (the gun stopped in between): the next question makes it finish
    if (!data) {
      this.wait(job);
      return;
    }
    let payload = otaChunk(o, data);
    if (this.opts.corrupt?.(job.gun, o)) {
      // one byte changed after the CRC was taken: what a damaged transfer looks like to the gun
      const i = payload.indexOf("\n") + 1 + Math.floor(data.length / 2);
      payload = payload.slice(0, i) + (payload[i] === "x" ? "y" : "x") + payload.slice(i + 1);
    }
    job.sent += data.length;
    job.inflight = o;
    this.send(job, payload);
    this.wait(job);
  }

  private onError(topic: string, payload: Buffer): void {
    const job = this.jobOf(topic);
    const t = parseTopic(topic);
    const d = decodeGunError(payload);
    if (!d.ok || d.value.e !== "ota") return;
    const m = d.value.m ?? "";
    if (!job) {
      if (t?.kind === "gun") this.rolledBack(t.gun, m);
      return;
    }
    if (job.p.stage === "restarting") {
      this.end(job, "failed", `rolled back: ${m}`);
      return;
    }
    // asked again after its restart's `ok` was lost: it runs this bundle already
    if (/already runs this bundle/.test(m)) {
      this.end(job, "done");
      return;
    }
    // a damaged chunk or bundle: the gun says where it stands again (otas) and the hub resends
    if (/(CRC|hash) wrong/.test(m)) {
      job.inflight = -1;
      if (job.refusedAt === job.p.o) job.refusals++;
      else {
        job.refusedAt = job.p.o;
        job.refusals = 1;
      }
      this.log.warn({ gun: job.gun, m }, "the gun refused a damaged chunk; sending it again");
      if (job.refusals >= this.opts.maxRefusals)
        this.end(job, "failed", `the gun refused it ${job.refusals} times: ${m}`);
      return;
    }
    this.end(job, "failed", m);
  }

  /** A roll back reported after the update's own wait ended. */
  private rolledBack(gun: GunId, m: string): void {
    const p = this.last.get(gun);
    if (p?.stage !== "failed" || !/did not come online/.test(m)) return;
    this.last.set(gun, { ...p, why: `rolled back: ${m}`, at: this.clock() });
    this.emit(gun, this.last.get(gun)!);
  }
}
