// `cng bench venue`: N tables on one mosquitto, each a real `cng hub` process with load guns (venue-run.ts).
import type { Bench, BenchOptions } from "./index.js";
import { runVenueBench, VENUE_DEFAULTS, venueTable } from "./venue-run.js";

const say = (s: string) => process.stderr.write(`${s}\n`);

export const venueBench: Bench = {
  name: "venue",
  summary: "N tables on one mosquitto, each a cng hub process with load guns, until trigger → cue p99 > 1.5× one's",
  async run(opts: BenchOptions): Promise<void> {
    const f = opts.flags ?? {};
    const r = await runVenueBench({
      ...VENUE_DEFAULTS,
      ...(opts.seconds !== undefined ? { seconds: opts.seconds } : {}),
      ...(f.max !== undefined ? { max: f.max } : {}),
      ...(f.guns !== undefined ? { guns: f.guns } : {}),
      ...(f.hz !== undefined ? { hz: f.hz } : {}),
      say,
    });
    const json = () => JSON.stringify(r, (k, v) => (k === "rtts" ? undefined : v));
    process.stdout.write(opts.json ? `${json()}\n` : `${venueTable(r)}\n`);
  },
};
