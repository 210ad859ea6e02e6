// `cng bench venue`: many tables on one broker, measured. N tables on one mosquitto with its dynamic-security plugin
// (started here from `cng broker init`'s config), each a real `cng hub` process with its own load guns (paired
// through the hub, so each has its broker login from the plugin) streaming aim at 50 Hz and pulling triggers. For
// N = 1, 2, 4, 6, 8, 12, 16, … it measures trigger → cue round trips, aim samples the hubs lost, mosquitto's CPU
// and the hubs' memory, until p99 exceeds 1.5× the one-table figure or a sample (or a cue) is lost; then it tries
// the N between the largest held and that one, one at a time. The one-table figure is measured twice as long as the
// others; a step whose p99 alone is over the limit is measured once more and judged on both windows together.
import type { RunRequest, RunResult } from "./load/protocol.js";
import { type Spread, spread } from "./load/stats.js";
import {
  type Broker,
  findBroker,
  hubAimCount,
  Leftovers,
  rssKb,
  sleep,
  startBroker,
  startTable,
  stopTable,
  type TableRun,
} from "./venue-tables.js";

/** The step fails when its p99 is above this many times the one-table p99. */
export const P99_LIMIT = 1.5;

export interface VenueBenchConfig {
  /** the largest N tried */
  max: number;
  /** seconds measured per step */
  seconds: number;
  /** load guns per table (1–8, one per seat) */
  guns: number;
  /** aim samples a second per gun */
  hz: number;
  /** ms between one table's trigger pulls (± half, at random; one at a time per table) */
  probeGapMs: number;
  /** how often the load generator wakes, ms */
  tickMs: number;
  /** seconds of load before each step's measure (JIT, connections) */
  warmupSeconds: number;
  /** progress lines */
  say: (line: string) => void;
  /** mosquitto and its plugin (default: found in the usual places) */
  mosquitto?: string;
  plugin?: string;
}

export const VENUE_DEFAULTS = { max: 16, seconds: 4, guns: 8, hz: 50, probeGapMs: 20, tickMs: 4, warmupSeconds: 1 };

export interface TableFigures {
  table: string;
  hubPid: number;
  aimSent: number;
  aimReceived: number;
  triggers: number;
  cues: number;
  rssKb: number;
}

export interface VenueStep {
  tables: number;
  /** trigger → cue round trip over every table's pulls, ms */
  rtt: Spread;
  /** each round trip, ms (left out of the JSON output) */
  rtts: number[];
  /** trigger pulls, and those whose cue came back (within 1 s) */
  triggers: number;
  cues: number;
  aimSent: number;
  aimReceived: number;
  /** aim samples sent that the hubs did not take */
  aimLost: number;
  /** mosquitto's CPU over the measured window, share of one core */
  brokerCpu: number;
  /** the hubs' resident memory, kB */
  hubRssMaxKb: number;
  hubRssSumKb: number;
  seconds: number;
  held: boolean;
  /** why it did not hold */
  why: string | null;
  perTable: TableFigures[];
}

export interface VenueResult {
  config: Omit<VenueBenchConfig, "say">;
  steps: VenueStep[];
  /** the one-table p99, ms, and the limit it sets */
  baseP99: number;
  limitP99: number;
  /** the largest N held (0: not even one table) */
  largest: number;
  stoppedBy: "max" | "limit";
  /** every child process the bench ran, and its folder: all gone when it returns */
  pids: { mosquitto: number; hubs: number[] };
  dir: string;
}

/** 1, 2, 4, 6, 8, then by 4. */
export function nextSize(n: number): number {
  return n < 2 ? 2 : n < 8 ? n + 2 : n + 4;
}

export async function runVenueBench(c: VenueBenchConfig): Promise<VenueResult> {
  const bin = findBroker({ mosquitto: c.mosquitto, plugin: c.plugin });
  if (!Number.isInteger(c.guns) || c.guns < 1 || c.guns > 8) throw new Error("--guns: 1 to 8 (one per seat)");
  const left = new Leftovers();
  let broker: Broker | undefined;
  const clear = () => left.clear(broker?.proc);
  const onExit = () => left.clearNow();
  const onSignal = (sig: NodeJS.Signals) => {
    c.say(`${sig}: stopping the hubs and mosquitto, removing ${left.root}`);
    void clear().finally(() => process.exit(sig === "SIGINT" ? 130 : 143));
  };
  process.once("exit", onExit);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const tables: TableRun[] = [];
  const pids = { mosquitto: 0, hubs: [] as number[] };
  const epochMs = performance.timeOrigin + performance.now();
  try {
    broker = await startBroker(left, bin, c.say);
    pids.mosquitto = broker.pid;
    const b = broker;
    const fleet: Fleet = { left, broker: b, c, tables, pids, made: 0, epochMs };
    const steps: VenueStep[] = [];
    let base = Number.NaN;
    let largest = 0;
    let ceiling = Number.POSITIVE_INFINITY;
    let stoppedBy: VenueResult["stoppedBy"] = "limit";
    for (let n = 1; ; ) {
      await resize(fleet, n);
      const s = await judgedStep(tables, b, c, n, base);
      if (n === 1) base = s.rtt.p99;
      steps.push(s);
      if (s.held) largest = Math.max(largest, n);
      else ceiling = Math.min(ceiling, n);
      if (s.held && n >= c.max) {
        stoppedBy = "max";
        break;
      }
      // going up until one fails; then one at a time from the largest held
      const next = Number.isFinite(ceiling) ? largest + 1 : Math.min(c.max, nextSize(n));
      if (next >= ceiling || (n === 1 && !s.held)) break;
      n = next;
    }
    const { say: _, ...config } = c;
    for (const s of steps) s.seconds = Math.round(s.seconds * 10) / 10;
    return { config, steps, baseP99: base, limitP99: base * P99_LIMIT, largest, stoppedBy, pids, dir: left.root };
  } finally {
    for (const t of tables) await t.load.close().catch(() => {});
    await clear();
    process.off("exit", onExit);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/** The venue's tables as they grow and shrink, on one broker. */
interface Fleet {
  left: Leftovers;
  broker: Broker;
  c: VenueBenchConfig;
  tables: TableRun[];
  pids: { mosquitto: number; hubs: number[] };
  /** tables started so far (each gets a new name) */
  made: number;
  epochMs: number;
}

/** Stops or starts tables until `n` run: one at a time (each hub's start takes a core a moment), each tried twice. */
async function resize(f: Fleet, n: number): Promise<void> {
  const { tables, c } = f;
  while (tables.length > n) await stopTable(f.left, tables.pop()!);
  const more = n - tables.length;
  if (more <= 0) return;
  c.say(`starting ${more} table${more > 1 ? "s" : ""} (${c.guns} guns each)…`);
  while (tables.length < n) {
    let t: TableRun | undefined;
    for (let attempt = 1; !t; attempt++) {
      const name = `v${++f.made}`;
      try {
        t = await startTable(f.left, f.broker, name, c.guns, f.epochMs);
      } catch (e) {
        if (attempt > 1) throw e;
        c.say(`table ${name} did not start (${(e as Error).message.split("\n")[0]}); trying once more`);
      }
    }
    tables.push(t);
    f.pids.hubs.push(t.pid);
    c.say(`table ${t.name}: hub pid ${t.pid}, web port ${t.httpPort}, ${c.guns} guns paired`);
  }
}

/**
 * N tables measured and judged against the one-table p99 `base` (N = 1: the reference, measured twice as long):
 * held when no aim sample was lost, every trigger got its cue and the p99 stayed within the limit.
 */
async function judgedStep(
  tables: TableRun[],
  b: Broker,
  c: VenueBenchConfig,
  n: number,
  base: number,
): Promise<VenueStep> {
  const seconds = n === 1 ? 2 * c.seconds : c.seconds;
  c.say(`N=${n}: ${c.warmupSeconds} s warm-up, then ${seconds} s measured…`);
  let s = await measure(tables, b, { ...c, seconds });
  const limit = (n === 1 ? s.rtt.p99 : base) * P99_LIMIT;
  // p99 alone over the limit, nothing lost: a second window, judged on both together (a p99 is noisy)
  if (n > 1 && !(s.rtt.p99 <= limit) && s.aimLost === 0 && s.triggers === s.cues) {
    c.say(`N=${n}: p99 ${s.rtt.p99.toFixed(2)} ms > ${limit.toFixed(2)} ms; measuring ${seconds} s more…`);
    s = merge(s, await measure(tables, b, { ...c, seconds }));
  }
  const why = [
    s.aimLost > 0 ? `${s.aimLost} aim samples lost` : "",
    s.triggers > s.cues ? `${s.triggers - s.cues} cues never came` : "",
    s.cues === 0 ? "no cue came back" : "",
    n > 1 && !(s.rtt.p99 <= limit) ? `p99 ${s.rtt.p99.toFixed(2)} ms > ${limit.toFixed(2)} ms` : "",
  ].filter(Boolean);
  s.held = why.length === 0;
  s.why = why.length ? why.join(", ") : null;
  c.say(
    `N=${n}: p50 ${s.rtt.p50.toFixed(2)} ms, p99 ${s.rtt.p99.toFixed(2)} ms, ${s.aimLost} of ${s.aimSent} samples lost, ` +
      `mosquitto ${(s.brokerCpu * 100).toFixed(0)}% CPU: ${s.held ? "held" : `not held (${s.why})`}`,
  );
  return s;
}

/** Two windows at the same N as one. */
function merge(a: VenueStep, b: VenueStep): VenueStep {
  const perTable = b.perTable.map((t, i) => {
    const x = a.perTable[i]!;
    return {
      ...t,
      aimSent: x.aimSent + t.aimSent,
      aimReceived: x.aimReceived + t.aimReceived,
      triggers: x.triggers + t.triggers,
      cues: x.cues + t.cues,
    };
  });
  return {
    ...b,
    rtts: [...a.rtts, ...b.rtts],
    rtt: spread([...a.rtts, ...b.rtts]),
    triggers: a.triggers + b.triggers,
    cues: a.cues + b.cues,
    aimSent: a.aimSent + b.aimSent,
    aimReceived: a.aimReceived + b.aimReceived,
    aimLost: a.aimLost + b.aimLost,
    brokerCpu: (a.brokerCpu * a.seconds + b.brokerCpu * b.seconds) / (a.seconds + b.seconds),
    seconds: a.seconds + b.seconds,
    perTable,
  };
}

/** A table's load run, or an error when its worker does not answer (it died: never wait for ever). */
function loadRun(t: TableRun, r: Omit<RunRequest, "type">): Promise<RunResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`table ${t.name}: its load worker did not finish a ${r.seconds} s run`)),
      r.seconds * 1000 + 15_000,
    );
  });
  return Promise.race([t.load.run(r), late]).finally(() => clearTimeout(timer));
}

async function measure(tables: TableRun[], broker: Broker, c: VenueBenchConfig): Promise<VenueStep> {
  const run = { rate: c.guns * c.hz, tickMs: c.tickMs, probeGapMs: c.probeGapMs };
  await Promise.all(tables.map((t) => loadRun(t, { ...run, seconds: c.warmupSeconds })));
  await sleep(300);
  const before = await Promise.all(tables.map(hubAimCount));
  const cpu0 = broker.cpu();
  const t0 = performance.now();
  const results = await Promise.all(tables.map((t) => loadRun(t, { ...run, seconds: c.seconds })));
  const cpu1 = broker.cpu();
  const wall = (performance.now() - t0) / 1000;
  await sleep(500); // the last samples land
  const after = await Promise.all(tables.map(hubAimCount));
  const perTable: TableFigures[] = tables.map((t, i) => ({
    table: t.name,
    hubPid: t.pid,
    aimSent: results[i]!.sent,
    aimReceived: after[i]! - before[i]!,
    triggers: results[i]!.rtts.length + results[i]!.probesLost,
    cues: results[i]!.rtts.length,
    rssKb: rssKb(t.pid),
  }));
  const sum = (f: (x: TableFigures) => number) => perTable.reduce((a, x) => a + f(x), 0);
  const aimSent = sum((x) => x.aimSent);
  const aimReceived = sum((x) => x.aimReceived);
  const rtts = results.flatMap((r) => r.rtts);
  return {
    tables: tables.length,
    rtts,
    rtt: spread(rtts),
    triggers: sum((x) => x.triggers),
    cues: sum((x) => x.cues),
    aimSent,
    aimReceived,
    aimLost: Math.max(0, aimSent - aimReceived),
    brokerCpu: (cpu1 - cpu0) / wall,
    hubRssMaxKb: Math.max(...perTable.map((x) => x.rssKb)),
    hubRssSumKb: sum((x) => x.rssKb),
    seconds: results.reduce((a, r) => a + r.seconds, 0) / results.length,
    held: false,
    why: null,
    perTable,
  };
}

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : "-").padStart(7);
const mb = (kb: number) => `${Number.isFinite(kb) ? Math.round(kb / 1024) : "-"} MB`.padStart(8);

/** The figures as a table for people. */
export function venueTable(r: VenueResult): string {
  const c = r.config;
  const out: string[] = [];
  out.push(
    `N tables on one mosquitto (dynamic security), each a \`cng hub\` process with ${c.guns} load guns streaming aim at ` +
      `${c.hz} Hz (QoS 0) and pulling triggers (QoS 1; one at a time per table, every ~${c.probeGapMs} ms); ` +
      `trigger → cue round trip in ms, ${c.seconds} s per N (${2 * c.seconds} s for N = 1, the reference)`,
  );
  out.push("    N     s  pulls  cues     p50     p99     max  aim lost / sent   mosquitto CPU  hub RSS max     sum  ");
  for (const s of r.steps) {
    out.push(
      `${String(s.tables).padStart(5)} ${String(s.seconds).padStart(5)} ${String(s.triggers).padStart(6)} ${String(s.cues).padStart(5)} ${ms(s.rtt.p50)} ${ms(s.rtt.p99)} ${ms(s.rtt.max)}  ${`${s.aimLost} / ${s.aimSent}`.padStart(15)}  ${`${(s.brokerCpu * 100).toFixed(1)}%`.padStart(13)}  ${mb(s.hubRssMaxKb)} ${mb(s.hubRssSumKb)}  ${s.held ? "held" : `not held: ${s.why}`}`,
    );
  }
  out.push(
    `one table: p99 ${r.baseP99.toFixed(2)} ms; limit ${P99_LIMIT}× = ${r.limitP99.toFixed(2)} ms, no aim sample or cue lost.`,
  );
  out.push(
    r.largest === 0
      ? "largest N held: none (one table already lost samples or cues)"
      : `largest N held: ${r.largest}${r.stoppedBy === "max" ? ` (--max ${c.max} reached; raise it to go on)` : ""}`,
  );
  out.push("mosquitto CPU: share of one core over the measured window; hub RSS: each hub process's VmRSS.");
  return out.join("\n");
}
