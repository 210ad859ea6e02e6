// `cng bench accuracy --games N`: the hold-up accuracy in whole games instead of the hold-up model. 8 players on
// BNO085 guns whose reported yaw carries white noise σ 3° or 5°, the real firmware bundles (vm, on time the bench
// drives; one row on the real interpreter, in real time), bots at the table, the table never asking for the re-centre
// pose, on a clean network and in a party's WiFi (sim/weather). The bots play as a people set (sim/human.ts): the
// simulator's own (`ours`, who draw on "1"), and those who play as the box says (`table`, `hard`), on guns with the
// chip's own heading errors too, each with and without their reaction to the gun's colour. Per row: aims meant at a
// player, read right, read as nobody though the player was steady in time, late (a slow player: nobody is right),
// asked to re-aim, wrong.
import type { People } from "../sim/human.js";
import type { WeatherName } from "../sim/weather/profiles.js";
import { type Tally, tally } from "./verdicts.js";
import { playAllTelling } from "./weather.js";
import { type WeatherGameFigures, type WeatherGameOptions, weatherGame } from "./weather-game.js";

export interface GamesRow extends Tally {
  people: People;
  /** the people who look reacted to the gun's colour */
  feedback: boolean;
  /** white noise only, or each chip's errors too */
  imu: "white" | "chips";
  noiseDeg: number;
  weather: WeatherName;
  runtime: "vm" | "espruino";
}

const PLAYERS = 8;
const BOARD = "esp32-bno085";

type RowKey = Pick<GamesRow, "people" | "feedback" | "imu" | "noiseDeg" | "weather">;

function gameOf(r: RowKey, seed: number, runtime?: "espruino"): WeatherGameOptions {
  return {
    weather: r.weather,
    players: PLAYERS,
    seed,
    board: BOARD,
    yawNoise: r.noiseDeg,
    recentre: "none",
    probes: 0,
    ...(r.people === "ours" ? {} : { people: r.people }),
    ...(r.feedback ? {} : { feedback: false }),
    ...(r.imu === "chips" ? { imuErrors: true } : {}),
    ...(runtime ? { runtime } : {}),
  };
}

/** The rows: today's people at σ 3° and 5°; then the box's people at σ 3°, with and without their reaction. */
export function gamesRows(people: readonly People[]): RowKey[] {
  const rows: RowKey[] = [];
  for (const who of people) {
    if (who === "pessimistic") continue;
    for (const weather of ["clean", "party"] as const) {
      if (who === "ours")
        for (const noiseDeg of [3, 5]) rows.push({ people: who, feedback: true, imu: "white", noiseDeg, weather });
      else
        for (const feedback of [true, false]) rows.push({ people: who, feedback, imu: "chips", noiseDeg: 3, weather });
    }
  }
  return rows;
}

export async function runAccuracyGames(o: {
  seeds: number;
  workers: number;
  espruino: number;
  people: readonly People[];
  say: (s: string) => void;
}): Promise<GamesRow[]> {
  const rows = gamesRows(o.people);
  const plan = rows.flatMap((r) => Array.from({ length: o.seeds }, (_, i) => ({ r, g: gameOf(r, i + 1) })));
  const figures = await playAllTelling(
    plan.map((p) => p.g),
    o.workers,
    o.say,
    (g) =>
      `${g.people ?? "ours"}${g.feedback === false ? " (no reaction)" : ""} σ ${g.yawNoise}° ${g.weather} seed ${g.seed}`,
  );
  const out: GamesRow[] = rows.map((r) => ({
    ...r,
    runtime: "vm",
    ...tally(plan.flatMap((p, i) => (p.r === r ? [figures[i]!] : []))),
  }));
  if (o.espruino > 0 && o.people.includes("ours")) {
    const key: RowKey = { people: "ours", feedback: true, imu: "white", noiseDeg: 5, weather: "party" };
    const g: (WeatherGameFigures | Error)[] = [];
    for (let seed = 1; seed <= o.espruino; seed++) {
      o.say(`σ 5° party, seed ${seed}, guns on the real interpreter (real time)…`);
      g.push(
        await weatherGame(gameOf(key, seed, "espruino")).catch((e: unknown) =>
          e instanceof Error ? e : new Error(String(e)),
        ),
      );
    }
    out.push({ ...key, runtime: "espruino", ...tally(g) });
  }
  return out;
}

export function gamesTable(rows: GamesRow[]): string {
  const out = [
    "people       react  imu    σ°  weather  runtime   games   aims  right %  nobody in time %  late %  re-aim %  missed %   wrong  wrong %",
  ];
  for (const r of rows) {
    const games = r.failed.length ? `${r.games}+${r.failed.length}✗` : String(r.games);
    out.push(
      `${r.people.padEnd(11)}  ${(r.feedback ? "yes" : "no").padEnd(5)}  ${r.imu.padEnd(5)}  ${String(r.noiseDeg).padStart(2)}  ` +
        `${r.weather.padEnd(7)}  ${r.runtime.padEnd(8)} ${games.padStart(6)} ` +
        `${String(r.verdicts.meant).padStart(6)} ${r.rightPct.toFixed(2).padStart(8)} ${r.nobodyPct.toFixed(2).padStart(17)} ` +
        `${r.latePct.toFixed(2).padStart(7)} ${r.reaimPct.toFixed(2).padStart(9)} ${r.missedPct.toFixed(2).padStart(9)} ` +
        `${String(r.verdicts.wrong).padStart(7)} ${r.wrongPct.toFixed(3).padStart(8)}`,
    );
  }
  for (const r of rows) {
    const name = `${r.people}${r.feedback ? "" : " (no reaction)"} σ ${r.noiseDeg}° ${r.weather} (${r.runtime})`;
    for (const f of r.failed) out.push(`✗ ${name}: a game did not finish: ${f}`);
    for (const m of r.misses.filter((x) => x.includes("took"))) out.push(`  wrong, ${name}: ${m}`);
  }
  out.push(
    `${PLAYERS} players on ${BOARD} guns with white noise σ on their yaw (imu chips: the chip's scale factor and slow ` +
      "error too), the real firmware, bots playing as the people set says, no re-centre pose. react: the people who " +
      "watch the gun's colour correct a wrong one. aims: hold-up aims meant at a player; nobody in time: steady in " +
      "time, read as nobody; late: a slow player still moving when the count's window closed (nobody is right); " +
      "re-aim: the table asked for one; missed: nobody, late or re-aim; percent of the aims meant.",
  );
  return out.join("\n");
}
