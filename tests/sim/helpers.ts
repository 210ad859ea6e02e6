// Shared checks of simulated games: the game log read back, replayed through `cng replay`, and compared with
// what the bots meant to do.
import { execFileSync } from "node:child_process";
import { expect } from "vitest";
import { apply, type Decision, type Seat, type State, setup } from "../../hub/src/rules/index.js";
import type { BotPlayer } from "../../hub/src/sim/player.js";
import { dbPath, openDb } from "../../hub/src/store/db.js";
import { GameLog } from "../../hub/src/store/game-log.js";
import { TableLog } from "../../hub/src/store/table-log.js";

export const CLI = new URL("../../bin/cng.js", import.meta.url).pathname;

/** `cng replay DATA` as a user runs it: the result JSON. */
export function cliReplay(data: string, table = "main"): unknown {
  return JSON.parse(execFileSync(process.execPath, [CLI, "replay", data, "--table", table], { encoding: "utf8" }));
}

export interface LoggedAim {
  round: number;
  step: string;
  seat: Seat;
  target: Seat | null;
}

/**
 * The logged decisions of the latest game, every gun-1 aim with the round and step it was made in, and the
 * table's own records (recentre poses, buffered aims...).
 */
export function gameLog(
  data: string,
  table = "main",
): { decisions: Decision[]; aims: LoggedAim[]; records: { kind: string; round: number }[] } {
  const db = openDb(dbPath(data, table), { readonly: true });
  try {
    const log = new GameLog(db);
    const game = log.latest()!;
    const decisions = log.decisions(game.id).map((d) => d.decision as Decision);
    let s = setup(game.setup as never) as State;
    const aims: LoggedAim[] = [];
    for (const d of decisions) {
      if (d.type === "aim" && d.gun !== 2) aims.push({ round: s.round, step: s.step, seat: d.seat, target: d.target });
      const r = apply(s, d);
      if (!r.ok) throw new Error(r.error.message);
      s = r.state;
    }
    const records = new TableLog(db).records(game.id) as { kind: string; round: number }[];
    return { decisions, aims, records };
  } finally {
    db.close();
  }
}

/**
 * Aims the sensors gave that the player did not mean: a target other than the one the bot aimed at. "Nobody"
 * (too slow, unsteady, ambiguous to the end) is never wrong.
 */
export function wrongTargets(aims: LoggedAim[], players: BotPlayer[]): string[] {
  const out: string[] = [];
  for (const a of aims) {
    if (a.target === null) continue;
    const kind = a.step === "reaim" ? "reaim" : "aim";
    const meant = players[a.seat]!.intents.filter((i) => i.round === a.round && i.kind === kind);
    if (meant.length === 0) out.push(`round ${a.round}: seat ${a.seat} hit ${a.target} without aiming`);
    else if (!meant.some((i) => i.target === a.target))
      out.push(`round ${a.round}: seat ${a.seat} aimed at ${meant.at(-1)!.target}, the table took ${a.target}`);
  }
  return out;
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
