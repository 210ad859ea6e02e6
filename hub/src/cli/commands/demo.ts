// `cng demo`: the whole game on one machine — the hub with its embedded broker and dashboard, virtual guns
// running the real firmware, bot players — played to the end.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Command, Option } from "commander";
import { type DemoResult, runDemo, type Speed } from "../../bench/demo-game.js";
import { spread } from "../../bench/load/stats.js";
import type { HubOptions } from "../../hub.js";
import type { Edition } from "../../rules/index.js";
import type { GunRuntime } from "../../sim/espruino/index.js";
import type { SecretMode } from "../../sim/player.js";
import { isStrategy, STRATEGIES, type StrategyName } from "../../sim/strategies.js";
import { WEATHER_NAMES, WEATHERS, type WeatherName, weatherNamed } from "../../sim/weather/profiles.js";
import { RECENTRES, type Recentre } from "../../table/recentre.js";
import { resolveRuntime, runtimeOption } from "./runtime-option.js";

interface DemoFlags {
  players: string;
  edition: Edition;
  seed: string;
  speed: Speed;
  recentre: Recentre;
  powers: boolean;
  cop: boolean;
  strategies?: string;
  secrets: SecretMode;
  board: string;
  runtime: GunRuntime;
  json: boolean;
  keep: boolean;
  mqttPort: string;
  httpPort: string;
  bind: string;
  data?: string;
  table?: string;
  voice?: string;
  broker?: string;
  brokerUser?: string;
  dynsec: boolean;
  weather: WeatherName;
}

const HELP = `
Starts a hub on its embedded broker (with the dashboard), one virtual gun per player — each runs the real
firmware bundle (firmware/dist/<board>/gun.js) on a simulated Espruino board with an IMU model — and a bot
player per seat, then plays one whole game over real MQTT: pairing, calibration, counts, aims, lie-downs.
Open the dashboard URL it prints to watch. Progress goes round by round; the standings come at the end.

--runtime espruino runs every gun's bundle on the real Espruino interpreter (one process per gun; build it once
with \`npm run espruino:build\`); without it the guns run in Node's vm, and the demo says so.
--speed fast shortens the counts (a game takes about 20-30 s); the default pace is a real table's.
--json prints only the result on stdout, in the shape of \`cng rules play\` (progress goes to stderr).
--weather puts a WiFi between the guns and the hub: a relay that delays, jitters and stalls their TCP, makes a
sleeping radio wait for its access point's DTIM beacons (the firmware keeps its radio awake), and drops stations
for seconds (\`dropout\`). Profiles: ${WEATHER_NAMES.map((n) => `${n} (${WEATHERS[n].summary})`).join("; ")}.
The game log stays in the data folder (default: a new temporary folder): \`cng replay DATA\` replays it.

Examples:
  cng demo --seed 7 --speed fast
  cng demo --players 5 --edition second --http-port 8080
  cng demo --edition classic --powers --cop --strategies aggressive,cautious --json
  cng demo --players 4 --speed fast --runtime espruino
  cng demo --players 8 --weather party
  CNG_BROKER_PASSWORD=… cng demo --broker mqtt://127.0.0.1:1883 --broker-user cng-admin --dynsec --table t1

--broker plays on an external mosquitto set up by \`cng broker init\` (with --dynsec: the hub makes each gun's
login; the admin's password in CNG_BROKER_PASSWORD). The guns are then <table>-sim0, <table>-sim1, …: gun ids are
logins, one per broker, so tables sharing a broker need different names.`;

export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description("play a whole game on this machine: hub, dashboard, simulated guns and bots")
    .option("-p, --players <n>", "players: 4-6 in classic, 4-8 in the second edition", "6")
    .addOption(new Option("-e, --edition <edition>", "rules edition").choices(["classic", "second"]).default("classic"))
    .option("-s, --seed <n>", "seed of the deal, the people and the bots", "7")
    .addOption(new Option("--speed <speed>", "pace of the counts").choices(["fast", "normal"]).default("normal"))
    .option("--powers", "classic: Super Powers", false)
    .option("--cop", "classic: the cop variant", false)
    .option("--strategies <list>", `bots per seat, cycled: ${STRATEGIES.join(", ")}`)
    .addOption(
      new Option(
        "--secrets <mode>",
        "how bots give their secret card: console (phone page) or physical (pull to reveal)",
      )
        .choices(["console", "physical"])
        .default("console"),
    )
    .option("--board <names>", "board profile of the guns, a list (a,b) taken in turn, or mixed", "mixed")
    .addOption(runtimeOption())
    .addOption(
      new Option(
        "--recentre <how>",
        "per-round re-centre: snapshots (the pose for a gun in doubt), pose (everyone points at the Godfather), none",
      )
        .choices(RECENTRES)
        .default("snapshots"),
    )
    .option("--json", "print only the result (JSON) on stdout", false)
    .option("--keep", "keep the hub and dashboard running after the game, until Ctrl-C", false)
    .option("--mqtt-port <port>", "embedded broker port, 0 = any", "0")
    .option("--http-port <port>", "dashboard port, 0 = any", "8080")
    .option("--bind <address>", "address to listen on", "127.0.0.1")
    .option("-d, --data <dir>", "data folder (default: a new temporary folder)")
    .option("-t, --table <name>", "table name")
    .option("--voice <off|lang>", "the table's voice: off, or en, fr, fi (also the dashboard's language)")
    .option("--broker <url>", "play on an external broker (mosquitto with --dynsec) instead of the embedded one")
    .option("--broker-user <name>", "the hub's username there (with --dynsec: the plugin's admin, cng-admin)")
    .option("--dynsec", "the broker runs mosquitto's dynamic-security plugin (cng broker init)", false)
    .addOption(
      new Option("--weather <name>", "the WiFi between the guns and the hub (below)")
        .choices([...WEATHER_NAMES])
        .default("clean"),
    )
    .addHelpText("after", HELP)
    .action(runDemoCommand);
}

/** `cng demo`: the flags checked, the game played, its standings (and its WiFi) said. */
async function runDemoCommand(f: DemoFlags): Promise<void> {
  const players = Number(f.players);
  const seed = Number(f.seed);
  if (!Number.isInteger(players) || players < 2 || players > 12) throw new Error("--players must be 2-12");
  if (!Number.isInteger(seed)) throw new Error("--seed must be a whole number");
  const strategies = (f.strategies ?? "").split(",").filter((s) => s.length > 0);
  const badName = strategies.find((s) => !isStrategy(s));
  if (badName) throw new Error(`unknown strategy ${badName}; known: ${STRATEGIES.join(", ")}`);
  const out = f.json ? process.stderr : process.stdout;
  const say = (line: string) => out.write(`${line}\n`);
  const data = f.data ?? mkdtempSync(join(tmpdir(), "cng-demo-"));
  const runtime = await resolveRuntime(f.runtime, say);
  const t0 = Date.now();
  let stop: (() => void) | undefined;
  const r = await runDemo({
    edition: f.edition,
    players,
    seed,
    speed: f.speed,
    recentre: f.recentre,
    powers: f.powers,
    cop: f.cop,
    strategies: strategies as StrategyName[],
    secrets: f.secrets,
    board: f.board,
    runtime,
    ...(f.weather !== "clean" ? { weather: weatherNamed(f.weather) } : {}),
    hub: hubOptions(f, data),
    progress: say,
    onHub: (hub) => {
      say(`Cash'n Guns demo — dashboard: ${hub.urls.dashboard}  (host PIN ${hub.pin}, data ${hub.config.data})`);
    },
    hold: f.keep
      ? () =>
          new Promise<void>((resolve) => {
            say("Game over; the dashboard stays up. Ctrl-C to stop.");
            stop = resolve;
            process.once("SIGINT", resolve);
            process.once("SIGTERM", resolve);
          })
      : undefined,
  });
  stop?.();
  sayStandings(r, (Date.now() - t0) / 1000, say);
  if (r.weather) sayWeather(r.weather, f.weather, say);
  say(`Replay the log: cng replay ${r.hub.data}`);
  if (f.json) process.stdout.write(`${JSON.stringify(r.result, null, 2)}\n`);
  // the guns' and clients' timers are gone; leave no straggler keeping the process up
  process.exit(0);
}

/** The demo's hub: its ports and data, and an external broker when one is named. */
function hubOptions(f: DemoFlags, data: string): HubOptions {
  return {
    mqttPort: Number(f.mqttPort),
    httpPort: Number(f.httpPort),
    bind: f.bind,
    data,
    ...(f.table ? { table: f.table } : {}),
    ...(f.voice ? { voice: f.voice } : {}),
    ...(f.broker
      ? {
          broker: f.broker,
          brokerUser: f.brokerUser ?? process.env.CNG_BROKER_USER,
          brokerPassword: process.env.CNG_BROKER_PASSWORD,
          dynsec: f.dynsec,
        }
      : {}),
  };
}

function sayStandings(r: DemoResult, seconds: number, say: (line: string) => void): void {
  const res = r.result;
  const rows = Object.entries(res.players).sort((a, b) => b[1].score - a[1].score);
  say(`\nStandings after ${r.rounds} rounds (${seconds.toFixed(1)} s):`);
  for (const [name, p] of rows)
    say(
      `  ${res.winners.includes(name) ? "★" : " "} ${name.padEnd(4)} ${String(p.score).padStart(7)}` +
        `${p.alive ? "" : "  (dead)"}${p.wounds && p.alive ? `  ${p.wounds} wound${p.wounds > 1 ? "s" : ""}` : ""}`,
    );
}

function sayWeather(guns: NonNullable<DemoResult["weather"]>, name: string, say: (line: string) => void): void {
  const up = spread(guns.flatMap((g) => g.delays.up));
  const down = spread(guns.flatMap((g) => g.delays.down));
  const drops = guns.reduce((n, g) => n + g.dropouts, 0);
  say(
    `WiFi (${name}): one way to the hub p50 ${up.p50.toFixed(0)} / p99 ${up.p99.toFixed(0)} ms, from it ` +
      `p50 ${down.p50.toFixed(0)} / p99 ${down.p99.toFixed(0)} ms; ${drops} drop-outs`,
  );
}
