// `cng sim`: virtual guns (the real firmware on simulated boards) for a running hub, paired and calibrated
// through the host like hardware, streaming until Ctrl-C; with --play, bots also play a game on them.
import { type Command, Option } from "commander";
import type { Speed } from "../../bench/demo-game.js";
import { DEFAULT_ADMIN } from "../../broker/dynsec.js";
import { admitGun } from "../../broker/dynsec-admin.js";
import type { Edition } from "../../rules/index.js";
import type { GunRuntime } from "../../sim/espruino/index.js";
import { Fleet } from "../../sim/fleet.js";
import { FAST_TEMPO, playGame } from "../../sim/game.js";
import { isStrategy, STRATEGIES, type StrategyName } from "../../sim/strategies.js";
import { resolveRuntime, runtimeOption } from "./runtime-option.js";
import { warnVisible } from "./visible.js";

interface SimFlags {
  guns: string;
  hub: string;
  pin?: string;
  table: string;
  board: string;
  runtime: GunRuntime;
  seed: string;
  calibrate: boolean;
  poses: "1" | "2" | "3";
  play?: Edition;
  speed: Speed;
  powers: boolean;
  cop: boolean;
  strategies?: string;
  dynsec: boolean;
  brokerUser?: string;
  idPrefix?: string;
}

const HELP = `
Each virtual gun runs firmware/dist/<board>/gun.js on a simulated Espruino board (register-level MPU-6050 or
BNO085 UART-RVC frames, gyro bias, noise and drift), in Node's vm or, with --runtime espruino, on the real
Espruino interpreter (built once by \`npm run espruino:build\`), held by a simulated person, and talks MQTT to the hub
exactly as hardware does. The guns are paired at seats 0..N-1 with the host PIN (pair.accept), calibrated
with the wizard (calibrate.start), and stream until Ctrl-C. The hub must run on this machine (counts are
timed on its clock). The PIN comes from --pin or CNG_PIN.

Examples:
  cng hub --pin 123456 &   cng sim --guns 6 --hub 127.0.0.1:1883 --pin 123456
  cng sim --guns 5 --hub 127.0.0.1:1883 --pin 123456 --play second --speed fast
  cng sim --guns 4 --hub 127.0.0.1:1883 --pin 123456 --runtime espruino
  CNG_BROKER_PASSWORD=… cng sim --guns 4 --hub broker.local:1883 --table t1 --pin 123456 --dynsec --play classic

On an external mosquitto with the dynamic-security plugin (the hub runs with --broker … --dynsec), --dynsec logs
the host's client and the bots in with the plugin's admin login (--broker-user, default cng-admin; password in
CNG_BROKER_PASSWORD) and lets each gun in to ask for pairing (as \`cng broker gun\` does); the hub then pairs them
as on its own broker. Gun ids are logins, one per broker: they are <table>-sim0, <table>-sim1, … (--id-prefix).`;

const POSES = { "1": 1, "2": 2, "3": 3 } as const;
export function registerSim(program: Command): void {
  program
    .command("sim")
    .description("virtual guns running the real firmware, for a running hub (and bots to play, with --play)")
    .requiredOption("-n, --guns <n>", "how many guns (seats 0..N-1)")
    .option("--hub <host:port>", "the hub's MQTT broker", "127.0.0.1:1883")
    .option("--pin <pin>", "host PIN (default: CNG_PIN)")
    .option("-t, --table <name>", "table name", "main")
    .option("--board <names>", "board profile of the guns, a list (a,b) taken in turn, or mixed", "mixed")
    .addOption(runtimeOption())
    .option("-s, --seed <n>", "seed of the people and the bots", "1")
    .option("--no-calibrate", "skip the calibration wizard")
    .addOption(new Option("--poses <n>", "calibration poses per gun").choices(["1", "2", "3"]).default("1"))
    .addOption(new Option("--play <edition>", "then play a game with bots").choices(["classic", "second"]))
    .addOption(new Option("--speed <speed>", "pace of the counts").choices(["fast", "normal"]).default("normal"))
    .option("--powers", "classic: Super Powers", false)
    .option("--cop", "classic: the cop variant", false)
    .option("--strategies <list>", `bots per seat, cycled: ${STRATEGIES.join(", ")}`)
    .option("--dynsec", "the hub's broker is mosquitto with the dynamic-security plugin (cng broker init)", false)
    .option("--broker-user <name>", "with --dynsec: the plugin's admin (default CNG_BROKER_USER, or cng-admin)")
    .option("--id-prefix <prefix>", "gun ids are PREFIX0, PREFIX1, … (default sim; with --dynsec TABLE-sim)")
    .addHelpText("after", HELP)
    .action(runSim);
}

/** `cng sim`: the guns on the running hub's broker, calibrated, and a game played with bots when asked. */
async function runSim(f: SimFlags): Promise<void> {
  const guns = Number(f.guns);
  if (!Number.isInteger(guns) || guns < 1 || guns > 16) throw new Error("--guns must be 1-16");
  if (f.pin !== undefined) warnVisible("--pin", "CNG_PIN");
  const pin = f.pin ?? process.env.CNG_PIN;
  if (!pin) throw new Error("give the host PIN: --pin or CNG_PIN");
  const strategies = (f.strategies ?? "").split(",").filter((s) => s.length > 0);
  const badName = strategies.find((s) => !isStrategy(s));
  if (badName) throw new Error(`unknown strategy ${badName}; known: ${STRATEGIES.join(", ")}`);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const url = `mqtt://${f.hub}`;
  const seed = Number(f.seed);
  const runtime = await resolveRuntime(f.runtime, say);
  const login = adminLoginOf(f);
  const idPrefix = f.idPrefix ?? (f.dynsec ? `${f.table.slice(0, 24)}-sim` : undefined);
  const fleet = await Fleet.start({
    ...(login ? { login, admit: (g) => admitGun({ ...login, url, table: f.table }, g) } : {}),
    ...(idPrefix ? { idPrefix } : {}),
    url,
    runtime,
    table: f.table,
    pin,
    guns,
    board: f.board,
    seed,
    tempo: f.speed === "fast" ? FAST_TEMPO : 1,
    log: say,
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void fleet.stop().finally(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  if (f.calibrate) await fleet.calibrate(POSES[f.poses]);
  if (f.play) {
    const r = await playGame({ url, table: f.table, pin, ...(login ? { login } : {}) }, fleet, {
      edition: f.play,
      players: guns,
      seed,
      speed: f.speed,
      powers: f.powers,
      cop: f.cop,
      strategies: strategies as StrategyName[],
      progress: say,
    });
    say(JSON.stringify(r.result, null, 2));
    stop();
    return;
  }
  say(`${guns} guns streaming to ${url}; Ctrl-C to stop.`);
}

/** On a dynamic-security broker, the plugin admin's login (the hub's client and the bots use it). */
function adminLoginOf(f: SimFlags): { username: string; password: string } | undefined {
  if (!f.dynsec) return undefined;
  const password = process.env.CNG_BROKER_PASSWORD;
  if (!password) throw new Error("--dynsec: give the plugin admin's password in CNG_BROKER_PASSWORD");
  return { username: f.brokerUser ?? process.env.CNG_BROKER_USER ?? DEFAULT_ADMIN, password };
}
