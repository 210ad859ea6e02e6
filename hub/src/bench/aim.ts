// `cng bench aim`: the highest aim rate (samples/s, all guns together) taken with no loss and p99 ≤ 10 ms,
// through the hub (decoded and handed to its aim consumer) and through the bare broker (a plain client),
// on the embedded aedes and on an external mosquitto. The load comes from a worker thread.
import type { Bench, BenchOptions } from "./index.js";
import type { LoadWorker } from "./load/driver.js";
import type { Spread } from "./load/stats.js";
import { type BrokerKind, benchBrokers, type Mode, type Target, withLoad } from "./load/targets.js";

const GUNS = 100;
const RATES = [5_000, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000, 70_000, 80_000, 100_000];
const P99_LIMIT_MS = 10;
const TARGETS: Record<BrokerKind, number> = { aedes: 30_000, mosquitto: 50_000 };

interface Step {
  rate: number;
  sent: number;
  received: number;
  /** samples per second actually written */
  achieved: number;
  latency: Spread;
  ok: boolean;
  /** every sample written arrived (and the generator kept up) */
  lossless: boolean;
  generatorBusy: number;
  mainBusy: number;
  brokerCpu: number | null;
}

interface Row {
  broker: BrokerKind;
  mode: Mode;
  /** highest passing rate, samples/s (0: none passed) */
  best: number;
  /** highest rate taken with no loss whatever the latency (the ramp goes on past a p99 miss until a loss) */
  lossless: number;
  bestStep: Step | null;
  /** the first failing step (null: every rate passed) */
  failed: Step | null;
}

const say = (s: string) => process.stderr.write(`${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function step(target: Target, load: LoadWorker, rate: number, seconds: number): Promise<Step> {
  const sink = target.sink;
  const before = sink.count;
  sink.latencyMs.clear();
  sink.recording = true;
  const cpu0 = target.brokerCpu();
  const elu0 = performance.eventLoopUtilization();
  const r = await load.run({ rate, seconds, tickMs: 5, probeGapMs: null });
  const mainBusy = performance.eventLoopUtilization(elu0).utilization;
  const cpu1 = target.brokerCpu();
  // Drain: wait until every sample is in, or nothing more arrives for half a second.
  let last = sink.count;
  let quietSince = performance.now();
  while (sink.count - before < r.sent && performance.now() - quietSince < 500) {
    await sleep(20);
    if (sink.count !== last) {
      last = sink.count;
      quietSince = performance.now();
    }
  }
  sink.recording = false;
  const received = sink.count - before;
  const latency = sink.latencyMs.spread();
  return {
    rate,
    sent: r.sent,
    received,
    achieved: r.sent / r.seconds,
    latency,
    lossless: received >= r.sent && r.sent >= rate * seconds * 0.98,
    ok: received >= r.sent && latency.p99 <= P99_LIMIT_MS && r.sent >= rate * seconds * 0.98,
    generatorBusy: r.elu,
    mainBusy,
    brokerCpu: cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / r.seconds,
  };
}

async function ramp(broker: BrokerKind, mode: Mode, seconds: number): Promise<Row> {
  const row: Row = { broker, mode, best: 0, lossless: 0, bestStep: null, failed: null };
  await withLoad(broker, mode, GUNS, false, async (target, load) => {
    await load.run({ rate: 5_000, seconds: 1, tickMs: 5, probeGapMs: null }); // warm up
    await sleep(300);
    for (const rate of RATES) {
      let s = await step(target, load, rate, seconds);
      // The machine is shared: a failure is confirmed once before it counts.
      if (!s.ok && row.failed === null) {
        await sleep(500);
        s = await step(target, load, rate, seconds);
      }
      say(
        `  ${broker} ${mode} ${rate}/s: ${s.received}/${s.sent} in, p99 ${s.latency.p99.toFixed(1)} ms → ${s.ok ? "ok" : s.lossless ? "p99 miss" : "LOSS"}`,
      );
      if (s.ok && row.failed === null) {
        row.best = rate;
        row.bestStep = s;
      } else row.failed ??= s;
      if (!s.lossless || s.latency.p99 > 1000) break;
      row.lossless = rate;
      await sleep(300);
    }
  });
  return row;
}

export const aimBench: Bench = {
  name: "aim",
  summary: "highest aim rate ingested with no loss and p99 ≤ 10 ms, hub vs bare broker (aedes, mosquitto)",
  async run(opts: BenchOptions): Promise<void> {
    const seconds = opts.seconds ?? 2;
    const rows: Row[] = [];
    for (const broker of benchBrokers(say))
      for (const mode of ["raw", "hub"] as Mode[]) {
        say(`${broker} ${mode}: ${GUNS} guns, ${seconds} s per rate…`);
        rows.push(await ramp(broker, mode, seconds));
      }
    const raw = (r: Row) => rows.find((x) => x.broker === r.broker && x.mode === "raw");
    if (opts.json) {
      process.stdout.write(
        `${JSON.stringify(rows.map((r) => ({ ...r, target: TARGETS[r.broker], vsRaw: r.mode === "hub" ? r.best / (raw(r)?.best ?? Number.NaN) : null })))}\n`,
      );
      return;
    }
    const out: string[] = [];
    out.push(
      `aim samples/s taken with no loss and p99 ≤ ${P99_LIMIT_MS} ms (${GUNS} guns, QoS 0; hub: decoded, at its consumer)`,
    );
    out.push(
      "broker     path       best  vs raw  target    p50    p99   gen  main broker | lossless to | next rate: in/sent, p99",
    );
    for (const r of rows) {
      const b = r.bestStep;
      const vs =
        r.mode === "hub" ? `${((r.best / (raw(r)?.best ?? Number.NaN)) * 100).toFixed(0)}%`.padStart(6) : "      ";
      const tgt = r.mode === "hub" ? `${TARGETS[r.broker] / 1000}k`.padStart(6) : "      ";
      const f = r.failed;
      const next = f
        ? `${f.rate / 1000}k: ${f.received}/${f.sent}, ${f.latency.p99.toFixed(1)} ms (gen ${pct(f.generatorBusy)}, main ${pct(f.mainBusy)}${f.brokerCpu === null ? "" : `, broker ${pct(f.brokerCpu)}`})`
        : "all passed";
      out.push(
        `${r.broker.padEnd(10)} ${r.mode.padEnd(5)} ${String(r.best).padStart(9)}  ${vs}  ${tgt} ${num(b?.latency.p50)} ${num(b?.latency.p99)} ${b ? pct(b.generatorBusy) : "   -"} ${b ? pct(b.mainBusy) : "   -"} ${b?.brokerCpu != null ? pct(b.brokerCpu) : "   - "} | ${String(r.lossless).padStart(11)} | ${next}`,
      );
    }
    out.push("gen/main = event-loop use of the load worker and of this process (hub + embedded broker, or hub alone);");
    out.push("broker = mosquitto's CPU, share of one core. The machine has 2 cores for all of it.");
    process.stdout.write(`${out.join("\n")}\n`);
  },
};

function pct(x: number): string {
  return `${Math.round(x * 100)}%`.padStart(4);
}
function num(x: number | undefined): string {
  return x === undefined ? "     -" : x.toFixed(1).padStart(6);
}
