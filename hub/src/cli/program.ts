// The `cng` command line: one program, one module per subcommand (see ./commands).
import { readFileSync } from "node:fs";
import { Command } from "commander";
import { commands } from "./commands/index.js";

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

export function buildProgram(): Command {
  const program = new Command("cng")
    .description("Cash'n Guns with sensor guns: the hub, the simulator, the rules and the tools around them.")
    .version(packageVersion(), "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .showHelpAfterError("(run with --help for usage)")
    .configureHelp({ sortSubcommands: true });
  for (const register of commands) register(program);
  return program;
}
