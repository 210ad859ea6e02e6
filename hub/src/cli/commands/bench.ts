import { type Command, InvalidArgumentError } from "commander";
import { benches } from "../../bench/index.js";

function wholePositive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError("must be a positive whole number");
  return n;
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("must be a positive number");
  return n;
}

export function registerBench(program: Command): void {
  const bench = program.command("bench").description("measure speed and accuracy; each benchmark prints its figures");
  for (const b of benches) {
    const cmd = bench
      .command(b.name)
      .description(b.summary)
      .option("-s, --seconds <n>", "how long to measure", positive)
      .option("--json", "print JSON instead of a table", false);
    for (const f of b.flags ?? []) cmd.option(`--${f.name} <n>`, f.description, wholePositive);
    cmd.action(async (opts: { seconds?: number; json: boolean } & Record<string, unknown>) => {
      const impl = await b.load();
      const flags = Object.fromEntries((b.flags ?? []).map((f) => [f.name, opts[f.name] as number | undefined]));
      await impl.run({ seconds: opts.seconds, json: opts.json, flags });
    });
  }
}
