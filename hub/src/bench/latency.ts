// `cng bench latency`: trigger → cue round trip while 8 and 100 guns stream aim at 50 Hz, through the hub
// (embedded aedes, and an external mosquitto), each beside the bare broker with a plain echo client.
import type { Bench, BenchOptions } from "./index.js";
import { type Spread, spread } from "./load/stats.js";
import { type BrokerKind, benchBrokers, type Mode, withLoad } from "./load/targets.js";

const GUN_COUNTS = [8, 100];
const HZ = 50;
/** target: the hub's p99 at most this many times the bare broker's */
const TARGET_RATIO = 1.5;

interface Row {
  broker: BrokerKind;
  guns: number;
  mode: Mode;
  rtt: Spread;
  probesLost: number;
  aimSent: number;
  aimReceived: number;
  /** load worker event-loop use, 0–1 */
  generatorBusy: number;
  /** this process (broker when embedded, hub, echo client) event-loop use, 0–1 */
  mainBusy: number;
  /** external broker CPU, fraction of one core */
  brokerCpu: number | null;
}

const say = (s: string) => process.stderr.write(`${s}\n`);
const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(2).padStart(7) : "     - ");

async function measure(broker: BrokerKind, mode: Mode, guns: number, seconds: number): Promise<Row> {
  return withLoad(broker, mode, guns, true, async (target, load) => {
    // Warm up (JIT, connections), then measure.
    await load.run({ rate: guns * HZ, seconds: 1, tickMs: 2, probeGapMs: 10 });
    await new Promise((res) => setTimeout(res, 200));
    const before = target.sink.count;
    const cpu0 = target.brokerCpu();
    const elu0 = performance.eventLoopUtilization();
    const r = await load.run({ rate: guns * HZ, seconds, tickMs: 2, probeGapMs: 10 });
    const mainBusy = performance.eventLoopUtilization(elu0).utilization;
    await new Promise((res) => setTimeout(res, 300));
    const cpu1 = target.brokerCpu();
    return {
      broker,
      guns,
      mode,
      rtt: spread(r.rtts),
      probesLost: r.probesLost,
      aimSent: r.sent,
      aimReceived: target.sink.count - before,
      generatorBusy: r.elu,
      mainBusy,
      brokerCpu: cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / r.seconds,
    };
  });
}

export const latencyBench: Bench = {
  name: "latency",
  summary: "trigger → cue round trip (p50/p99/max) with 8 and 100 guns streaming aim at 50 Hz, hub vs bare broker",
  async run(opts: BenchOptions): Promise<void> {
    const seconds = opts.seconds ?? 8;
    const brokers = benchBrokers(say);
    const rows: Row[] = [];
    for (const broker of brokers)
      for (const guns of GUN_COUNTS)
        for (const mode of ["raw", "hub"] as Mode[]) {
          say(`${broker} ${mode} ${guns} guns × ${HZ} Hz: ${seconds} s…`);
          rows.push(await measure(broker, mode, guns, seconds));
        }
    const ratio = (r: Row) => {
      const raw = rows.find((x) => x.broker === r.broker && x.guns === r.guns && x.mode === "raw");
      return raw ? r.rtt.p99 / raw.rtt.p99 : Number.NaN;
    };
    if (opts.json) {
      process.stdout.write(
        `${JSON.stringify(rows.map((r) => ({ ...r, p99VsRaw: r.mode === "hub" ? ratio(r) : null })))}\n`,
      );
      return;
    }
    const out: string[] = [];
    out.push("trigger (QoS 1) → cue (QoS 1) round trip, ms, while the guns stream aim at 50 Hz (QoS 0)");
    out.push("broker     guns  path   probes     p50     p99     max  p99/raw  aim in/sent     gen  main  broker");
    for (const r of rows) {
      const rat = r.mode === "hub" ? `${ratio(r).toFixed(2)}×`.padStart(7) : "       ";
      const lost = r.probesLost ? ` (${r.probesLost} lost)` : "";
      out.push(
        `${r.broker.padEnd(10)} ${String(r.guns).padStart(4)}  ${r.mode.padEnd(5)} ${String(r.rtt.n).padStart(6)} ${ms(r.rtt.p50)} ${ms(r.rtt.p99)} ${ms(r.rtt.max)}  ${rat}  ${`${r.aimReceived}/${r.aimSent}`.padStart(11)}  ${pct(r.generatorBusy)} ${pct(r.mainBusy)}  ${r.brokerCpu === null ? "  (in main)" : pct(r.brokerCpu)}${lost}`,
      );
    }
    out.push(
      `target: hub p99 ≤ ${TARGET_RATIO}× the bare broker's. gen/main = event-loop use of the load worker and of`,
    );
    out.push("this process (hub + embedded broker, or hub alone); broker = mosquitto's CPU, share of one core.");
    process.stdout.write(`${out.join("\n")}\n`);
  },
};

function pct(x: number): string {
  return `${Math.round(x * 100)}%`.padStart(5);
}
