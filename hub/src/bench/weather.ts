// `cng bench weather`: whole games behind the WiFi relay (sim/weather), per weather and table size over many seeds,
// on time the bench drives (vm guns: a game in a few seconds, several side by side in worker threads), plus a row
// on the real interpreter in real time. Per row: hold-up aims the table read right, as nobody though the player was
// steady by "3" (the table's or the network's fault), as nobody because the player was late (a slow player: right),
// wrong; courage verdicts that differ from a player in time; how far apart the guns played each beat and how far from
// the hub's time; beats a gun dropped; a pull → its light; the game's length; what the relay did.
import { Worker } from "node:worker_threads";
import type { WeatherName } from "../sim/weather/profiles.js";
import { WEATHER_NAMES, WEATHERS } from "../sim/weather/profiles.js";
import type { Bench, BenchOptions } from "./index.js";
import { type Spread, spread } from "./load/stats.js";
import { type Tally, tally } from "./verdicts.js";
import { type WeatherGameFigures, type WeatherGameOptions, weatherGame } from "./weather-game.js";

export interface WeatherRow extends Omit<Tally, "latePct"> {
  weather: WeatherName;
  players: number;
  runtime: "vm" | "espruino";
  beatSpread: Spread;
  /** |played − hub time| per gun and beat */
  beatOffset: Spread;
  beatsMissed: number;
  beats: number;
  trigToCue: Spread;
  gameSeconds: number;
  up: Spread;
  down: Spread;
  dropouts: number;
  reconnects: number;
}

function row(
  weather: WeatherName,
  players: number,
  runtime: "vm" | "espruino",
  every: readonly (WeatherGameFigures | Error)[],
): WeatherRow {
  const g = every.filter((x): x is WeatherGameFigures => !(x instanceof Error));
  const all = (f: (x: WeatherGameFigures) => number[]) => g.flatMap(f);
  const { latePct: _late, ...t } = tally(every);
  return {
    weather,
    players,
    runtime,
    ...t,
    beatSpread: spread(all((x) => x.spreads)),
    beatOffset: spread(all((x) => x.offsets.map(Math.abs))),
    beatsMissed: g.reduce((n, x) => n + x.beatsMissed, 0),
    beats: g.reduce((n, x) => n + x.beats, 0),
    trigToCue: spread(all((x) => x.trigToCue)),
    gameSeconds: g.reduce((n, x) => n + x.gameMs, 0) / 1000 / Math.max(1, g.length),
    up: spread(all((x) => x.up)),
    down: spread(all((x) => x.down)),
    dropouts: g.reduce((n, x) => n + x.dropouts, 0),
    reconnects: g.reduce((n, x) => n + x.reconnects, 0),
  };
}

/** Plays the games `workers` at a time, each in a worker thread of its own; a game that fails is told and skipped. */
export async function playAll(
  games: WeatherGameOptions[],
  workers: number,
  done: (i: number, f: WeatherGameFigures | Error) => void,
): Promise<void> {
  let next = 0;
  const one = async (): Promise<void> => {
    while (next < games.length) {
      const i = next++;
      const f = await new Promise<WeatherGameFigures>((resolve, reject) => {
        const w = new Worker(new URL("./weather-worker.js", import.meta.url), { workerData: games[i] });
        let got = false;
        w.once("message", (m: WeatherGameFigures) => {
          got = true;
          resolve(m);
          // whatever a library left open must not keep the thread
          void w.terminate();
        });
        w.once("error", reject);
        w.once("exit", (code) => {
          if (!got) reject(new Error(`the game of ${JSON.stringify(games[i])} stopped (exit ${code})`));
        });
      }).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
      done(i, f);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, workers) }, one));
}

/** Plays the games as `playAll` does, telling each game's aims as it ends (`name`: which game it was). */
export async function playAllTelling(
  games: WeatherGameOptions[],
  workers: number,
  say: (s: string) => void,
  name: (g: WeatherGameOptions) => string,
): Promise<(WeatherGameFigures | Error)[]> {
  const figures: (WeatherGameFigures | Error)[] = new Array(games.length);
  const t0 = Date.now();
  let finished = 0;
  await playAll(games, workers, (i, f) => {
    figures[i] = f;
    finished++;
    const head = `[${finished}/${games.length}, ${((Date.now() - t0) / 1000).toFixed(0)} s] ${name(games[i]!)}:`;
    if (f instanceof Error) return say(`${head} did not finish: ${f.message}`);
    const v = f.verdicts;
    say(`${head} ${v.right}/${v.meant} right, ${v.nobody} nobody in time, ${v.slow} late, ${v.wrong} wrong`);
  });
  return figures;
}

const n1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : "-");
const n0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : "-");

function table(rows: WeatherRow[]): string {
  const out = [
    "weather  players runtime  games  aims  right %  nobody in time %  late  wrong  courage misread  " +
      "beat spread p50/p99  |beat − hub| p99  beats dropped  trig→cue p50/p99  game s  relay up p99 / down p99  drop-outs",
  ];
  for (const r of rows) {
    const v = r.verdicts;
    const games = r.failed.length ? `${r.games}+${r.failed.length}✗` : String(r.games);
    out.push(
      `${r.weather.padEnd(8)} ${String(r.players).padStart(7)} ${r.runtime.padEnd(8)} ${games.padStart(5)} ` +
        `${String(v.meant).padStart(5)} ${r.rightPct.toFixed(2).padStart(8)} ${r.nobodyPct.toFixed(2).padStart(17)} ` +
        `${String(v.slow).padStart(5)} ${String(v.wrong).padStart(6)} ${`${v.courageDiffers}/${v.courage}`.padStart(16)}  ` +
        `${`${n1(r.beatSpread.p50)} / ${n1(r.beatSpread.p99)}`.padStart(19)}  ${n1(r.beatOffset.p99).padStart(16)}  ` +
        `${`${r.beatsMissed}/${r.beats}`.padStart(13)}  ${`${n0(r.trigToCue.p50)} / ${n0(r.trigToCue.p99)}`.padStart(16)}  ` +
        `${n0(r.gameSeconds).padStart(6)}  ${`${n0(r.up.p99)} / ${n0(r.down.p99)}`.padStart(23)}  ` +
        `${r.dropouts} (${r.reconnects} reconnected)`,
    );
  }
  for (const r of rows)
    for (const f of r.failed)
      out.push(`✗ ${r.weather}, ${r.players} players (${r.runtime}): a game did not finish: ${f}`);
  out.push(
    'aims: hold-up aims at a player, as the bots meant them; nobody in time: the player\'s gun had settled by "3" ' +
      'and the table read nobody; late: a slow player, still moving at "3" (nobody is right). Times in ms; beat spread ' +
      "over the guns that played a beat; a beat whose cue came after its time is dropped, not played late.",
  );
  for (const w of new Set(rows.map((r) => r.weather))) out.push(`  ${w}: ${WEATHERS[w].summary}`);
  return out.join("\n");
}

export async function runWeatherBench(o: {
  weathers: readonly WeatherName[];
  players: readonly number[];
  seeds: number;
  workers: number;
  espruino: number;
  say: (s: string) => void;
}): Promise<WeatherRow[]> {
  const plan: WeatherGameOptions[] = [];
  for (const weather of o.weathers)
    for (const players of o.players) for (let seed = 1; seed <= o.seeds; seed++) plan.push({ weather, players, seed });
  const figures = await playAllTelling(
    plan,
    o.workers,
    o.say,
    (g) => `${g.weather} ${g.players} players seed ${g.seed}`,
  );
  const rows: WeatherRow[] = [];
  for (const weather of o.weathers)
    for (const players of o.players)
      rows.push(
        row(
          weather,
          players,
          "vm",
          plan.flatMap((p, i) => (p.weather === weather && p.players === players ? [figures[i]!] : [])),
        ),
      );
  if (o.espruino > 0) {
    const g: (WeatherGameFigures | Error)[] = [];
    for (let seed = 1; seed <= o.espruino; seed++) {
      o.say(`party, 6 players, seed ${seed}, guns on the real interpreter (real time)…`);
      g.push(
        await weatherGame({ weather: "party", players: 6, seed, runtime: "espruino" }).catch((e: unknown) =>
          e instanceof Error ? e : new Error(String(e)),
        ),
      );
    }
    rows.push(row("party", 6, "espruino", g));
  }
  return rows;
}

export const weatherBench: Bench = {
  name: "weather",
  summary: "whole games behind a WiFi relay: verdicts, beat spread, trigger → cue, per weather",
  async run(opts: BenchOptions): Promise<void> {
    const f = opts.flags ?? {};
    const weathers = (opts.lists?.weather as WeatherName[] | undefined) ?? [...WEATHER_NAMES];
    const rows = await runWeatherBench({
      weathers,
      players: f.players !== undefined ? [f.players] : [6, 8],
      seeds: f.seeds ?? 10,
      workers: f.workers ?? 2,
      espruino: f.espruino ?? 2,
      say: (s) => process.stderr.write(`${s}\n`),
    });
    process.stdout.write(opts.json ? `${JSON.stringify(rows, null, 2)}\n` : `${table(rows)}\n`);
  },
};
