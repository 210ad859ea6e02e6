import { type Command, InvalidArgumentError } from "commander";
import { benches } from "../../bench/index.js";

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("must be a positive number");
  return n;
}

export function registerBench(program: Command): void {
  const bench = program.command("bench").description("measure speed and accuracy; each benchmark prints its figures");
  for (const b of benches) {
    bench
      .command(b.name)
      .description(b.summary)
      .option("-s, --seconds <n>", "how long to measure", positive)
      .option("--json", "print JSON instead of a table", false)
      .action(async (opts: { seconds?: number; json: boolean }) => {
        const impl = await b.load();
        await impl.run({ seconds: opts.seconds, json: opts.json });
      });
  }
}
