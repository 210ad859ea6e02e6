// `cng replay LOG`: re-runs a game log through the rules engine and prints the result.
import { existsSync, statSync } from "node:fs";
import type { Command } from "commander";
import { rulesEngine } from "../../game/engine.js";
import { replay } from "../../game/replay.js";
import { dbPath, openDb } from "../../store/db.js";
import { GameLog } from "../../store/game-log.js";

const HELP = `
LOG is a hub database (DATA/<table>.sqlite) or a data folder (then --table picks the file).
The latest game is replayed unless --game names one; --list shows the games in the log.
The result is printed as JSON in the shape of \`cng rules play\` (docs/scenarios.md).
A log that does not replay prints {"error": {...}} and exits with status 2.

Examples:
  cng replay data/main.sqlite
  cng replay data --table t2 --game 3`;

export function registerReplay(program: Command): void {
  program
    .command("replay")
    .description("re-run a game log through the rules engine and print the result")
    .argument("<log>", "hub database file, or a data folder")
    .option("-t, --table <name>", "table, when LOG is a folder", "main")
    .option("-g, --game <id>", "game id (default: the latest)")
    .option("--list", "list the games in the log instead", false)
    .option("--compact", "print the JSON on one line", false)
    .addHelpText("after", HELP)
    .action((log: string, opts: { table: string; game?: string; list: boolean; compact: boolean }) => {
      const print = (x: unknown) => process.stdout.write(`${JSON.stringify(x, null, opts.compact ? 0 : 2)}\n`);
      const file = existsSync(log) && statSync(log).isDirectory() ? dbPath(log, opts.table) : log;
      if (!existsSync(file)) {
        process.stderr.write(`cng replay: no game log at ${file}\n`);
        process.exitCode = 1;
        return;
      }
      const db = openDb(file, { readonly: true });
      try {
        const games = new GameLog(db);
        if (opts.list) {
          print(games.games());
          return;
        }
        const game = opts.game === undefined ? games.latest() : games.game(Number(opts.game));
        if (!game) {
          process.stderr.write(
            `cng replay: ${opts.game === undefined ? "the log has no game" : `no game ${opts.game}`}\n`,
          );
          process.exitCode = 1;
          return;
        }
        const r = replay(rulesEngine, game.setup, games.decisions(game.id));
        if (r.ok) print(rulesEngine.output(r.value.state));
        else {
          print({ error: { game: game.id, decision: r.error.seq, code: r.error.code, message: r.error.message } });
          process.exitCode = 2;
        }
      } finally {
        db.close();
      }
    });
}
