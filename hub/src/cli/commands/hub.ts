// `cng hub`: run the hub (embedded broker by default) until SIGINT/SIGTERM.
import { type Command, Option } from "commander";
import { CONFIG_FILE_DEFAULT, DEFAULTS, ENV_VARS, type HubConfig, readConfigFile, readEnv } from "../../config.js";
import { type Hub, startHub } from "../../hub.js";
import { createLogger, type Logger } from "../../log.js";
import { lanLines } from "../../net/lines.js";
import { warnVisible } from "./visible.js";

interface HubFlags {
  config?: string;
  table?: string;
  mqttPort?: string;
  httpPort?: string;
  httpsPort?: string;
  bind?: string;
  broker?: string;
  brokerUser?: string;
  brokerPassword?: string;
  dynsec?: boolean;
  data?: string;
  pin?: string;
  logLevel?: string;
  pretty?: boolean;
  timing?: string;
  tableBox?: string;
  serialGun: string[];
  voice?: string;
  discovery?: string;
}

const HELP = `
Settings come from, in order of precedence: these flags, environment variables, a JSON config
file (--config FILE, or ${CONFIG_FILE_DEFAULT} in the current folder), and the defaults.
Config file keys: ${Object.keys(DEFAULTS).join(", ")}, broker, brokerUser, brokerPassword, dynsec, pin.
Environment: ${Object.keys(ENV_VARS).join(", ")}.

Security: each gun gets its own secret when the host accepts its pairing request (pair.accept);
secrets (hashed), seat tokens and the host PIN live in the data folder. The host PIN is printed
at start (kept across restarts; --pin sets it). Browsers connect over MQTT/WebSocket at /mqtt as
read-only viewers; host actions are command requests carrying the PIN.

Broker: by default the hub runs its own MQTT broker (TCP on --mqtt-port, WebSocket at
ws://HOST:HTTP_PORT/mqtt). With --broker mqtt://HOST:PORT it uses an external broker instead
(e.g. mosquitto; see \`cng acl\` for its ACL file). With --dynsec (mosquitto's dynamic-security plugin,
set up by \`cng broker init\`) the hub logs in as the plugin's admin and makes each gun's broker login itself. --table NAME namespaces every topic
(cng/v1/NAME/...) and the database, so several hubs can share one broker.

Guns find the hub: a gun that cannot reach the address it was flashed with asks the local network
(UDP broadcast on port ${DEFAULTS.discovery}); the hub of its table answers with this machine's
address on that network (or the --broker address). --discovery PORT moves it, --discovery off
stops it. The start-up lines name this machine's LAN addresses for guns and phones.

Games: each game is an append-only log in DATA/<table>.sqlite; a restarted hub resumes the
latest game from it. \`cng replay DATA/<table>.sqlite\` re-runs a log through the rules.

Examples:
  cng hub                                   # embedded broker on 1883, dashboard on 8080
  cng hub --table t2 --mqtt-port 1884 --http-port 8081
  CNG_BROKER=mqtt://broker.local:1883 CNG_BROKER_USER=hub-t1 cng hub --table t1
  CNG_BROKER_PASSWORD=… cng hub --broker mqtt://broker.local:1883 --broker-user cng-admin --dynsec --table t1
`;

export function registerHub(program: Command): void {
  program
    .command("hub")
    .description("run the table hub: MQTT broker, guns, commands, game log, dashboard")
    .option("-c, --config <file>", "JSON config file")
    .option("-t, --table <name>", `table name, the topic namespace (default ${DEFAULTS.table})`)
    .option("--mqtt-port <port>", `embedded broker MQTT/TCP port, 0 = any (default ${DEFAULTS.mqttPort})`)
    .option("--http-port <port>", `dashboard + MQTT/WebSocket port, 0 = any (default ${DEFAULTS.httpPort})`)
    .option(
      "--https-port <port>",
      "also serve the dashboard over HTTPS here, with a certificate from the hub's own CA (phones install /ca.crt)",
    )
    .option("--bind <address>", `address to listen on (default ${DEFAULTS.bind})`)
    .option("--broker <url>", "use an external broker, e.g. mqtt://127.0.0.1:1883, instead of the embedded one")
    .option("--broker-user <name>", "username on the external broker")
    .addOption(
      new Option("--broker-password <secret>", "password on the external broker (better: CNG_BROKER_PASSWORD)"),
    )
    .option(
      "--dynsec",
      "the external broker is mosquitto with the dynamic-security plugin (cng broker init): the hub makes each gun's login",
    )
    .option("-d, --data <dir>", `data folder: game logs, credentials (default ./${DEFAULTS.data})`)
    .option("--pin <pin>", "host PIN to use (default: the stored one, or a new random one; better: CNG_PIN)")
    .option("--log-level <level>", "fatal, error, warn, info, debug, trace (default info)")
    .option("--no-pretty", "JSON log lines even on a terminal")
    .option(
      "--voice <off|lang>",
      "the table's voice: off, or en, fr, fi (also the table's language); default: on, in the table's language",
    )
    .option(
      "--discovery <port|off>",
      `UDP port where guns that lost the hub find it (default ${DEFAULTS.discovery}), 0 = any, off = do not answer`,
    )
    .addOption(
      new Option("--timing <preset>", "table timing when game.new names none: default or fast (tests, demos)").choices([
        "default",
        "fast",
      ]),
    )
    .option(
      "--table-box <port>",
      "Arduino with StandardFirmata beside the guns: LED + piezo for counts and results, e.g. /dev/ttyACM0",
    )
    .option(
      "--serial-gun <port>",
      "a gun on a USB cable, bridged onto the broker, e.g. /dev/ttyUSB0 (repeat for more)",
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .addHelpText("after", HELP)
    .action(runHub);
}

/** `cng hub`: the settings from a file, the environment and the flags (each over the last), then the hub. */
async function runHub(flags: HubFlags): Promise<void> {
  if (flags.pin !== undefined) warnVisible("--pin", "CNG_PIN");
  if (flags.brokerPassword !== undefined) warnVisible("--broker-password", "CNG_BROKER_PASSWORD");
  const fromFlags: Partial<HubConfig> = {
    table: flags.table,
    mqttPort: flags.mqttPort as unknown as number,
    httpPort: flags.httpPort as unknown as number,
    httpsPort: flags.httpsPort as unknown as number,
    bind: flags.bind,
    broker: flags.broker,
    brokerUser: flags.brokerUser,
    brokerPassword: flags.brokerPassword,
    dynsec: flags.dynsec,
    data: flags.data,
    pin: flags.pin,
    logLevel: flags.logLevel,
    voice: flags.voice,
    discovery: flags.discovery as HubConfig["discovery"] | undefined,
  };
  const fileLayer = readConfigFile(flags.config ?? process.env.CNG_CONFIG);
  const layers = [fileLayer, readEnv(process.env), fromFlags];
  const level = fromFlags.logLevel ?? readEnv(process.env).logLevel ?? fileLayer.logLevel ?? DEFAULTS.logLevel;
  const log = createLogger({ level, pretty: flags.pretty === false ? false : undefined });
  const merged = Object.assign({}, ...layers.map((l) => stripUndefined(l))) as Partial<HubConfig>;
  const hub = await startHub({
    ...merged,
    log,
    timing: flags.timing as "default" | "fast" | undefined,
    tableBox: flags.tableBox,
    serialGuns: flags.serialGun,
  });
  process.stdout.write(`${startLines(hub).join("\n")}\n`);
  log.info({ ports: hub.ports, table: hub.table, mode: hub.mode }, "hub ready");
  stopOnSignals(hub, log);
}

/** What the host reads when the hub is up: where the dashboard and the broker are, the PIN, the data. */
function startLines(hub: Hub): string[] {
  return [
    `Cash'n Guns hub — table "${hub.table}" (${hub.mode} broker)`,
    `  dashboard:   ${hub.urls.dashboard}`,
    hub.mode === "embedded"
      ? `  MQTT:        ${hub.urls.mqtt} (port ${hub.ports.mqtt}), WebSocket ${hub.urls.ws}`
      : `  MQTT:        external broker ${hub.urls.mqtt}`,
    ...lanLines(hub),
    `  topics:      ${hub.topicRoot}/...`,
    `  host PIN:    ${hub.pin}`,
    `  data:        ${hub.config.data}`,
    "  Ctrl-C to stop.",
  ];
}

/** Ctrl-C or SIGTERM closes the hub; a close that hangs for 5 s exits anyway. */
function stopOnSignals(hub: Hub, log: Logger): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 5000);
    force.unref();
    hub.close().then(
      () => {
        process.exitCode = 0;
        process.exit();
      },
      () => process.exit(1),
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
