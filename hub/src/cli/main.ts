import { buildProgram } from "./program.js";

buildProgram()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    process.stderr.write(`cng: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
