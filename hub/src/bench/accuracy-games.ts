// `cng bench accuracy --games N`: the hold-up accuracy in whole games instead of the hold-up model. 8 players on
// BNO085 guns whose reported yaw carries white noise σ 3° or 5°, the real firmware bundles (vm, on time the bench
// drives; one row on the real interpreter, in real time), bots at the table, the table never asking for the re-centre
// pose, on a clean network and in a party's WiFi (sim/weather). Per row: aims meant at a player, read right, read as
// nobody though the player was steady by "3", late (a slow player: nobody is right), wrong.
import type { WeatherName } from "../sim/weather/profiles.js";
import { type Tally, tally } from "./verdicts.js";
import { playAllTelling } from "./weather.js";
import { type WeatherGameFigures, type WeatherGameOptions, weatherGame } from "./weather-game.js";

export interface GamesRow extends Tally {
  noiseDeg: number;
  weather: WeatherName;
  runtime: "vm" | "espruino";
}

const PLAYERS = 8;
const BOARD = "esp32-bno085";

function gameOf(noiseDeg: number, weather: WeatherName, seed: number, runtime?: "espruino"): WeatherGameOptions {
  return {
    weather,
    players: PLAYERS,
    seed,
    board: BOARD,
    yawNoise: noiseDeg,
    recentre: "none",
    probes: 0,
    ...(runtime ? { runtime } : {}),
  };
}

export async function runAccuracyGames(o: {
  seeds: number;
  workers: number;
  espruino: number;
  say: (s: string) => void;
}): Promise<GamesRow[]> {
  const rows: { noiseDeg: number; weather: WeatherName }[] = [];
  for (const weather of ["clean", "party"] as const) for (const noiseDeg of [3, 5]) rows.push({ noiseDeg, weather });
  const plan = rows.flatMap((r) => Array.from({ length: o.seeds }, (_, i) => gameOf(r.noiseDeg, r.weather, i + 1)));
  const figures = await playAllTelling(plan, o.workers, o.say, (g) => `σ ${g.yawNoise}° ${g.weather} seed ${g.seed}`);
  const out: GamesRow[] = rows.map((r) => ({
    ...r,
    runtime: "vm",
    ...tally(plan.flatMap((p, i) => (p.yawNoise === r.noiseDeg && p.weather === r.weather ? [figures[i]!] : []))),
  }));
  if (o.espruino > 0) {
    const g: (WeatherGameFigures | Error)[] = [];
    for (let seed = 1; seed <= o.espruino; seed++) {
      o.say(`σ 5° party, seed ${seed}, guns on the real interpreter (real time)…`);
      g.push(
        await weatherGame(gameOf(5, "party", seed, "espruino")).catch((e: unknown) =>
          e instanceof Error ? e : new Error(String(e)),
        ),
      );
    }
    out.push({ noiseDeg: 5, weather: "party", runtime: "espruino", ...tally(g) });
  }
  return out;
}

export function gamesTable(rows: GamesRow[]): string {
  const out = ["σ°  weather  runtime   games   aims  right %  nobody in time %  late %   wrong  wrong %"];
  for (const r of rows) {
    const games = r.failed.length ? `${r.games}+${r.failed.length}✗` : String(r.games);
    out.push(
      `${String(r.noiseDeg).padStart(2)}  ${r.weather.padEnd(7)}  ${r.runtime.padEnd(8)} ${games.padStart(6)} ` +
        `${String(r.verdicts.meant).padStart(6)} ${r.rightPct.toFixed(2).padStart(8)} ${r.nobodyPct.toFixed(2).padStart(17)} ` +
        `${r.latePct.toFixed(2).padStart(7)} ${String(r.verdicts.wrong).padStart(7)} ${r.wrongPct.toFixed(3).padStart(8)}`,
    );
  }
  for (const r of rows) {
    for (const f of r.failed) out.push(`✗ σ ${r.noiseDeg}° ${r.weather} (${r.runtime}): a game did not finish: ${f}`);
    for (const m of r.misses.filter((x) => x.includes("took")))
      out.push(`  wrong, σ ${r.noiseDeg}° ${r.weather}: ${m}`);
  }
  out.push(
    `${PLAYERS} players on ${BOARD} guns with white noise σ on their yaw, the real firmware, bots, no re-centre ` +
      'pose. aims: hold-up aims meant at a player; nobody in time: steady by "3", read as nobody; late: a slow player ' +
      'still moving at "3" (nobody is right); percent of the aims meant.',
  );
  return out.join("\n");
}
