// `cng rules play FILE`: plays a scenario file through the rules engine alone and prints the result as JSON.
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { playScenario } from "../../rules/scenario.js";

const PLAY_HELP = `
The rules the engine plays: docs/rules.md (both editions, Super Powers, the cop, every decision taken).
A scenario fixes a whole game's decisions (format: docs/scenarios.md). The result goes to stdout as
JSON and nothing else: the round reached, whether the game is over, the winners, the table, and per player
alive / wounds / shame / money / score. An invalid scenario (a dead player deciding, a card already used,
a self-aim, a pick out of turn…) prints {"error": {"round", "player", "message"}} and exits with status 2.

Examples:
  cng rules play tests/rules/scenarios/classic-split-seed-example.json
  cat game.json | cng rules play -`;

export function registerRules(program: Command): void {
  const rules = program
    .command("rules")
    .description("the rules engine on its own: settle arguments, replay scenarios")
    .addHelpText("after", "\nThe rules it plays: docs/rules.md. Scenario files: docs/scenarios.md.");
  rules
    .command("play")
    .description("play a scenario file (or - for stdin) and print the result as JSON")
    .argument("<file>", "scenario JSON file, or - to read stdin")
    .option("--compact", "print the JSON on one line", false)
    .addHelpText("after", PLAY_HELP)
    .action((file: string, opts: { compact: boolean }) => {
      let text: string;
      try {
        text = readFileSync(file === "-" ? 0 : file, "utf8");
      } catch (err) {
        process.stderr.write(`cng rules play: cannot read ${file}: ${(err as Error).message}\n`);
        process.exitCode = 1;
        return;
      }
      const print = (x: unknown) => process.stdout.write(`${JSON.stringify(x, null, opts.compact ? 0 : 2)}\n`);
      let input: unknown;
      try {
        input = JSON.parse(text);
      } catch (err) {
        print({ error: { round: 0, player: null, message: `not JSON: ${(err as Error).message}` } });
        process.exitCode = 2;
        return;
      }
      const result = playScenario(input);
      if (result.ok) print(result.output);
      else {
        print({ error: result.error });
        process.exitCode = 2;
      }
    });
}
