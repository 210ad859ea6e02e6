// What the table made of the players' gestures in a simulated game, against what the bots meant: read back from the
// game's log (its decisions and the table's own records) and the bots' intents. Whole-game tests and
// `cng bench weather` count with it.
import { apply, type Decision, type Seat, type State, setup } from "../rules/index.js";
import type { BotPlayer, Intent } from "../sim/player.js";
import { dbPath, openDb } from "../store/db.js";
import { GameLog } from "../store/game-log.js";
import { TableLog } from "../store/table-log.js";
import type { TableRecord } from "../table/records.js";

export interface LoggedAim {
  round: number;
  step: string;
  seat: Seat;
  target: Seat | null;
}

export interface GameLogRead {
  decisions: Decision[];
  /** every gun-1 aim decision with the round and step it was made in */
  aims: LoggedAim[];
  /** the table's own records (sensor verdicts, re-centre poses, reveal pulls) */
  records: TableRecord[];
}

/** The latest game of a table's log. */
export function gameLog(data: string, table = "main"): GameLogRead {
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
    const records = new TableLog(db).records(game.id) as TableRecord[];
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

/** The sensors' verdicts of one game against the players' intents. */
export interface Verdicts {
  /** hold-up aims at a player, as the bots meant them */
  meant: number;
  right: number;
  /** meant a player and was steady on it in time, the table read nobody: the table's fault (or the network's) */
  nobody: number;
  /** meant a player but was still moving when the count's window closed (a slow player): rightly too slow */
  slow: number;
  /** a player other than the one meant (or one when nobody was meant) */
  wrong: number;
  /** courage verdicts, and those that differ from what a player in time chose (one still lowering at "3" aside) */
  courage: number;
  courageDiffers: number;
  courageLate: number;
  /** re-aims the table asked for (an aim between seats, counted again): the guns' `ambig` cues */
  reaims: number;
  /** one line per miss, for people looking into them */
  misses: string[];
}

export function emptyVerdicts(): Verdicts {
  return {
    meant: 0,
    right: 0,
    nobody: 0,
    slow: 0,
    wrong: 0,
    courage: 0,
    courageDiffers: 0,
    courageLate: 0,
    reaims: 0,
    misses: [],
  };
}

export function addVerdicts(a: Verdicts, b: Verdicts): Verdicts {
  return {
    meant: a.meant + b.meant,
    right: a.right + b.right,
    nobody: a.nobody + b.nobody,
    slow: a.slow + b.slow,
    wrong: a.wrong + b.wrong,
    courage: a.courage + b.courage,
    courageDiffers: a.courageDiffers + b.courageDiffers,
    courageLate: a.courageLate + b.courageLate,
    reaims: a.reaims + b.reaims,
    misses: [...a.misses, ...b.misses],
  };
}

/** The verdicts of a set of games (those that finished), each count also as a percent of the aims meant. */
export interface Tally {
  games: number;
  /** the games that did not finish, and why */
  failed: string[];
  verdicts: Omit<Verdicts, "misses">;
  rightPct: number;
  nobodyPct: number;
  latePct: number;
  wrongPct: number;
  /** re-aims asked, percent of the aims meant */
  reaimPct: number;
  /** read as nobody (in time or late) or asked to re-aim, percent of the aims meant */
  missedPct: number;
  misses: string[];
}

export function tally(all: readonly ({ verdicts: Verdicts } | Error)[]): Tally {
  let v = emptyVerdicts();
  for (const x of all) if (!(x instanceof Error)) v = addVerdicts(v, x.verdicts);
  const pct = (n: number) => (v.meant === 0 ? 0 : (100 * n) / v.meant);
  const { misses, ...counts } = v;
  return {
    games: all.filter((x) => !(x instanceof Error)).length,
    failed: all.flatMap((x) => (x instanceof Error ? [x.message] : [])),
    verdicts: counts,
    rightPct: pct(v.right),
    nobodyPct: pct(v.nobody),
    latePct: pct(v.slow),
    wrongPct: pct(v.wrong),
    reaimPct: pct(v.reaims),
    missedPct: pct(v.nobody + v.slow + v.reaims),
    misses,
  };
}

/** The player's gun had settled by "3", or within the count's reaction window after it (a slow player had not). */
function inTime(i: Intent): boolean {
  const due = i.dueAt ?? i.goAt;
  return due === undefined || i.readyAt === undefined || i.readyAt <= due;
}

/**
 * Each hold-up aim and courage verdict the table recorded from a gun, against what the bot at that seat meant
 * (its last intent of the round: a re-count keeps the target). Guns taken from a dead player are left out.
 */
export function verdicts(records: readonly TableRecord[], players: readonly BotPlayer[]): Verdicts {
  const v = emptyVerdicts();
  const taken = new Set(records.filter((r) => r.kind === "gun-taken").map((r) => (r as { from: Seat }).from));
  for (const r of records) {
    if ((r.kind !== "aim" && r.kind !== "courage") || taken.has(r.seat)) continue;
    const bot = players[r.seat];
    if (!bot) continue;
    const meant = bot.intents.filter((i) => i.round === r.round && i.kind === r.kind).at(-1);
    if (meant === undefined) continue;
    if (r.kind === "aim") {
      const want = meant.target ?? null;
      if (want !== null) v.meant++;
      if (r.target === want) {
        if (want !== null) v.right++;
      } else if (r.target === null) {
        if (inTime(meant)) v.nobody++;
        else v.slow++;
        v.misses.push(
          `round ${r.round}: seat ${r.seat} aimed at ${want}${inTime(meant) ? "" : " (late)"}, the table read nobody`,
        );
      } else {
        v.wrong++;
        v.misses.push(`round ${r.round}: seat ${r.seat} aimed at ${want}, the table took ${r.target}`);
      }
    } else {
      v.courage++;
      if (r.lieDown !== meant.lieDown) {
        if (inTime(meant)) v.courageDiffers++;
        else v.courageLate++;
        v.misses.push(
          `round ${r.round}: seat ${r.seat} ${meant.lieDown ? "lay down" : "stayed up"}${inTime(meant) ? "" : " (late)"}, read otherwise`,
        );
      }
    }
  }
  return v;
}
