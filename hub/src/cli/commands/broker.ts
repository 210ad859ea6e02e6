// `cng broker`: set up mosquitto with its dynamic-security plugin for hubs that provision their guns
// (`cng broker init`), and let a gun in to ask for pairing (`cng broker gun`).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { isName } from "@cng/protocol";
import { type Command, InvalidArgumentError } from "commander";
import { DEFAULT_ADMIN } from "../../broker/dynsec.js";
import { admitGun } from "../../broker/dynsec-admin.js";
import {
  CONF_FILE,
  DYNSEC_FILE,
  dynsecConfig,
  findPlugin,
  mosquittoConf,
  PLUGIN_FILE,
  pluginCandidates,
} from "../../broker/dynsec-init.js";

const INIT_HELP = `
Writes DIR/${CONF_FILE} (a listener, anonymous clients allowed as read-only viewers, the plugin) and
DIR/${DYNSEC_FILE}, the plugin's first state: an admin client for the hubs (its password is printed
once: keep it), the hubs' role (every table's topics and the plugin's control topic), and the anonymous
group whose roles let dashboards read each table's public topics. Hubs started with
\`cng hub --broker mqtt://HOST:PORT --broker-user ${DEFAULT_ADMIN} --dynsec\` (password in CNG_BROKER_PASSWORD)
make their table's roles, and each gun's login when the host accepts it (pair.accept): no file to edit.

The plugin: mosquitto 2.x ships it (Debian/Ubuntu: apt-get install mosquitto; the admin tool
mosquitto_ctrl is in mosquitto-clients). It is looked for in ${pluginCandidates()[0]} and the
usual places; --plugin PATH names it. mosquitto rewrites ${DYNSEC_FILE} on every change, so its user
must be able to write DIR (run as root, this command gives DIR to the mosquitto user when there is one).

Examples:
  cng broker init --dir /etc/mosquitto/cng --table t1 --table t2
  sudo -u mosquitto mosquitto -c /etc/mosquitto/cng/${CONF_FILE}
  cng broker init --dir ./broker --port 1884 --bind 127.0.0.1 --force`;

const GUN_HELP = `
On a dynamic-security broker a gun needs a broker login before it can even ask to be paired. This makes
one that may only say who it is (info), its will, its errors and its pulls, with the secret the gun holds
(the one \`cng flash\` printed, or the key of its last pairing). Then accept it at the hub (pair.accept):
the hub gives it a key of its own and a paired gun's rights. A gun forgotten at the hub loses its login:
let it in again the same way. Admin login: --user (default ${DEFAULT_ADMIN}) and CNG_BROKER_PASSWORD.

Examples:
  CNG_BROKER_PASSWORD=… cng broker gun g1 --secret 'flashed-secret' --table t1 --broker mqtt://broker.local:1883`;

function tableName(v: string, all: string[] = []): string[] {
  if (!isName(v)) throw new InvalidArgumentError("a table name is a-z, 0-9, _ and -, up to 32");
  return [...all, v];
}

function portOf(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new InvalidArgumentError("a port is 1-65535");
  return n;
}

/** The mosquitto user's uid/gid, when there is one (Debian's package makes it). */
function mosquittoUser(): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync("id", ["-u", "mosquitto"], { stdio: ["ignore", "pipe", "ignore"] }).toString());
    const gid = Number(execFileSync("id", ["-g", "mosquitto"], { stdio: ["ignore", "pipe", "ignore"] }).toString());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : null;
  } catch {
    return null;
  }
}

export interface InitFlags {
  dir: string;
  table: string[];
  plugin?: string;
  port: number;
  bind?: string;
  admin: string;
  force: boolean;
  /** where to look for the plugin (default pluginCandidates()) */
  candidates?: string[];
}

export function initBroker(f: InitFlags, say: (line: string) => void): { password: string; dir: string } {
  const dir = resolve(f.dir);
  const candidates = f.candidates ?? pluginCandidates();
  const plugin = f.plugin ?? findPlugin(candidates);
  if (!plugin) {
    throw new Error(
      `mosquitto's dynamic-security plugin (${PLUGIN_FILE}) was not found; looked in:\n  ${candidates.join("\n  ")}\n` +
        "Install mosquitto 2.x (Debian/Ubuntu: apt-get install mosquitto mosquitto-clients), or name it with --plugin PATH.",
    );
  }
  if (!existsSync(plugin)) throw new Error(`--plugin ${plugin}: no such file`);
  if (!isName(f.admin)) throw new Error("--admin: a-z, 0-9, _ and -, up to 32");
  if (existsSync(dir) && readdirSync(dir).length > 0 && !f.force) {
    throw new Error(
      `${dir} is not empty: refusing to overwrite a broker's files (its ${DYNSEC_FILE} holds every gun's login). --force overwrites.`,
    );
  }
  mkdirSync(dir, { recursive: true });
  const password = randomBytes(18).toString("base64url");
  const o = { dir, plugin, port: f.port, bind: f.bind, admin: f.admin, password, tables: f.table };
  writeFileSync(resolve(dir, CONF_FILE), mosquittoConf(o), { mode: 0o644 });
  writeFileSync(resolve(dir, DYNSEC_FILE), `${JSON.stringify(dynsecConfig(o), null, 2)}\n`, { mode: 0o600 });
  const owner = process.getuid?.() === 0 ? mosquittoUser() : null;
  if (owner) {
    chmodSync(dir, 0o750);
    for (const p of [dir, resolve(dir, CONF_FILE), resolve(dir, DYNSEC_FILE)]) chownSync(p, owner.uid, owner.gid);
  }
  say(`wrote ${resolve(dir, CONF_FILE)} and ${resolve(dir, DYNSEC_FILE)} (plugin ${plugin})`);
  if (owner) say(`gave ${dir} to the mosquitto user (it rewrites ${DYNSEC_FILE})`);
  say("");
  say(`hubs' admin login: ${f.admin} / ${password}`);
  say("  (printed once; only its hash is stored. Keep it: every hub of this broker logs in with it.)");
  say("");
  say(`start the broker:  mosquitto -c ${resolve(dir, CONF_FILE)}`);
  say(
    `start a hub:       CNG_BROKER_PASSWORD='${password}' cng hub --broker mqtt://HOST:${f.port} --broker-user ${f.admin} --dynsec --table NAME`,
  );
  return { password, dir };
}

export function registerBroker(program: Command): void {
  const broker = program
    .command("broker")
    .description("set up mosquitto's dynamic-security plugin for hubs that provision their guns");
  broker
    .command("init")
    .description("write a mosquitto config and the dynamic-security plugin's first file (admin for the hubs)")
    .requiredOption("--dir <dir>", "folder for mosquitto.conf and dynamic-security.json")
    .option(
      "-t, --table <name>",
      "a table whose viewer role to make now (repeat; hubs make theirs anyway)",
      tableName,
      [],
    )
    .option("--plugin <path>", `the plugin (default: found among ${pluginCandidates()[0]} and the usual places)`)
    .option("--port <port>", "the listener's port", portOf, 1883)
    .option("--bind <address>", "the listener's address (default: every address)")
    .option("--admin <name>", "the hubs' admin username", DEFAULT_ADMIN)
    .option("--force", "overwrite a folder that already holds files", false)
    .addHelpText("after", INIT_HELP)
    .action((f: InitFlags) => {
      initBroker(f, (l) => process.stdout.write(`${l}\n`));
    });
  broker
    .command("gun <id>")
    .description("let a gun in to ask for pairing on a dynamic-security broker")
    .requiredOption(
      "--secret <secret>",
      "the secret the gun holds (better: CNG_GUN_SECRET)",
      process.env.CNG_GUN_SECRET,
    )
    .option("-t, --table <name>", "the gun's table", "main")
    .option("--broker <url>", "the broker", process.env.CNG_BROKER ?? "mqtt://127.0.0.1:1883")
    .option("--user <name>", "the admin's username", process.env.CNG_BROKER_USER ?? DEFAULT_ADMIN)
    .addHelpText("after", GUN_HELP)
    .action(async (id: string, f: { secret: string; table: string; broker: string; user: string }) => {
      if (!isName(id)) throw new Error("a gun id is a-z, 0-9, _ and -, up to 32");
      const password = process.env.CNG_BROKER_PASSWORD;
      if (!password) throw new Error("give the admin's password in CNG_BROKER_PASSWORD");
      await admitGun({ url: f.broker, username: f.user, password, table: f.table }, [{ gun: id, secret: f.secret }]);
      process.stdout.write(`${id} may ask table ${f.table} to pair it; accept it at the hub (pair.accept)\n`);
    });
}
