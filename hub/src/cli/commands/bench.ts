import { type Command, InvalidArgumentError } from "commander";
import { benches } from "../../bench/index.js";

function wholePositive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError("must be a positive whole number");
  return n;
}

function whole(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("must be a whole number");
  return n;
}

/** A comma-separated list of known names. */
function listOf(value: string, choices: readonly string[]): string[] {
  const names = value.split(",").map((x) => x.trim());
  const bad = names.filter((x) => !choices.includes(x));
  if (bad.length > 0 || names.length === 0)
    throw new InvalidArgumentError(`unknown ${bad.join(", ") || "(none)"}; choose from ${choices.join(", ")}`);
  return names;
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
    for (const f of b.flags ?? []) {
      const choices = f.choices;
      if (choices)
        cmd.option(`--${f.name} <list>`, `${f.description}: ${choices.join(", ")}`, (v) => listOf(v, choices));
      else cmd.option(`--${f.name} <n>`, f.description, f.zero ? whole : wholePositive);
    }
    cmd.action(async (opts: { seconds?: number; json: boolean } & Record<string, unknown>) => {
      const impl = await b.load();
      const numbers = (b.flags ?? []).filter((f) => !f.choices);
      const flags = Object.fromEntries(numbers.map((f) => [f.name, opts[f.name] as number | undefined]));
      const lists = Object.fromEntries(
        (b.flags ?? []).filter((f) => f.choices).map((f) => [f.name, opts[f.name] as string[] | undefined]),
      );
      await impl.run({ seconds: opts.seconds, json: opts.json, flags, lists });
    });
  }
}
