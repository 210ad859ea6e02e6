// Shared checks of simulated games: the game log read back, replayed through `cng replay`, and compared with
// what the bots meant to do.
import { execFileSync } from "node:child_process";
import { expect } from "vitest";
import { gameLog, wrongTargets } from "../../hub/src/bench/verdicts.js";
import type { BotPlayer } from "../../hub/src/sim/player.js";

export { gameLog, wrongTargets };

export const CLI = new URL("../../bin/cng.js", import.meta.url).pathname;

/** `cng replay DATA` as a user runs it: the result JSON. */
export function cliReplay(data: string, table = "main"): unknown {
  return JSON.parse(execFileSync(process.execPath, [CLI, "replay", data, "--table", table], { encoding: "utf8" }));
}

/**
 * What every whole simulated game must show: it is over with a winner, `cng replay` of its log gives the same
 * result, most aims name a player (the guns did the aiming), and never one the bot did not aim at.
 */
export function expectCleanGame(
  data: string,
  r: { result: unknown; players: BotPlayer[] },
): ReturnType<typeof gameLog> {
  const result = r.result as { over: boolean; winners: string[] };
  expect(result.over).toBe(true);
  expect(result.winners.length).toBeGreaterThan(0);
  expect(cliReplay(data)).toEqual(r.result);
  const log = gameLog(data);
  expect(log.aims.filter((a) => a.target !== null).length).toBeGreaterThan(log.aims.length / 2);
  expect(wrongTargets(log.aims, r.players)).toEqual([]);
  return log;
}
