// Hub settings: defaults ← config file ← environment (CNG_*) ← command-line flags.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { DISCOVERY_PORT, isName, isOneOf, TABLE_LANGS } from "@cng/protocol";

export interface HubConfig {
  /** table name: the topic namespace `cng/v1/<table>` and the database file name */
  table: string;
  /** embedded broker's MQTT/TCP port (0 = any free port) */
  mqttPort: number;
  /** HTTP port for the dashboard and MQTT over WebSocket at /mqtt (0 = any free port) */
  httpPort: number;
  /**
   * HTTPS port for the same, with a certificate from the hub's own CA (web/certs.ts), which the table's phones install
   * from `/ca.crt` (0 = any free port); absent = no HTTPS
   */
  httpsPort?: number;
  /** address the hub's servers listen on */
  bind: string;
  /** external broker URL (`mqtt://host:port`); absent = embedded broker */
  broker?: string;
  /** username/password the hub uses on an external broker */
  brokerUser?: string;
  brokerPassword?: string;
  /** external mosquitto with the dynamic-security plugin: the hub gives each gun its broker login (broker/dynsec.ts) */
  dynsec?: boolean;
  /** data directory: database with game logs, gun credentials, seat tokens, host PIN */
  data: string;
  /** host PIN; absent = the stored one, or a new random one */
  pin?: string;
  logLevel: string;
  /** battery percentage at or below which a gun gets a warning */
  lowBattery: number;
  /** the table's voice: "off", or a language (en, fr, fi) that also becomes the table's language; absent = on */
  voice?: string;
  /** UDP port where the hub answers guns looking for it (hub/src/net/discovery.ts), 0 = any free port, or "off" */
  discovery: number | "off";
}

export const DEFAULTS: HubConfig = {
  table: "main",
  mqttPort: 1883,
  httpPort: 8080,
  bind: "0.0.0.0",
  data: "data",
  logLevel: "info",
  lowBattery: 15,
  discovery: DISCOVERY_PORT,
};

/** Environment variables read, and the setting each one overrides. */
export const ENV_VARS: { [name: string]: keyof HubConfig } = {
  CNG_TABLE: "table",
  CNG_MQTT_PORT: "mqttPort",
  CNG_HTTP_PORT: "httpPort",
  CNG_HTTPS_PORT: "httpsPort",
  CNG_BIND: "bind",
  CNG_BROKER: "broker",
  CNG_BROKER_USER: "brokerUser",
  CNG_BROKER_PASSWORD: "brokerPassword",
  CNG_DYNSEC: "dynsec",
  CNG_DATA: "data",
  CNG_PIN: "pin",
  CNG_LOG_LEVEL: "logLevel",
  CNG_LOW_BATTERY: "lowBattery",
  CNG_VOICE: "voice",
  CNG_DISCOVERY: "discovery",
};

const NUMERIC: (keyof HubConfig)[] = ["mqttPort", "httpPort", "lowBattery"];
export const CONFIG_FILE_DEFAULT = "cng.config.json";

export class ConfigError extends Error {}

/** Reads a JSON config file; the default file is optional, a named one must exist. */
export function readConfigFile(path: string | undefined): Partial<HubConfig> {
  const file = path ?? (existsSync(CONFIG_FILE_DEFAULT) ? CONFIG_FILE_DEFAULT : undefined);
  if (!file) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new ConfigError(`config file ${file}: ${(e as Error).message}`);
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new ConfigError(`config file ${file}: must hold a JSON object`);
  }
  const out: Partial<HubConfig> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (!(k in DEFAULTS) && !Object.values(ENV_VARS).includes(k as keyof HubConfig)) {
      throw new ConfigError(`config file ${file}: unknown setting ${k}`);
    }
    (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

export function readEnv(env: NodeJS.ProcessEnv): Partial<HubConfig> {
  const out: Partial<HubConfig> = {};
  for (const [name, key] of Object.entries(ENV_VARS)) {
    const v = env[name];
    if (v !== undefined && v !== "") (out as Record<string, unknown>)[key] = v;
  }
  return out;
}

function port(name: string, v: unknown): number {
  const n = typeof v === "string" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > 65535) {
    throw new ConfigError(`${name} must be a port number 0-65535, got ${String(v)}`);
  }
  return n;
}

/** Merges the layers in order and checks the result. */
export function resolveConfig(...layers: Partial<HubConfig>[]): HubConfig {
  const merged: Record<string, unknown> = { ...DEFAULTS };
  for (const layer of layers) {
    for (const [k, v] of Object.entries(layer)) if (v !== undefined) merged[k] = v;
  }
  for (const k of NUMERIC) merged[k] = port(k, merged[k]);
  if (merged.httpsPort !== undefined) merged.httpsPort = port("httpsPort", merged.httpsPort);
  if (merged.discovery !== "off") merged.discovery = port("discovery (a port, or off)", merged.discovery);
  const c = merged as unknown as HubConfig;
  if (!isName(c.table)) throw new ConfigError(`table must match ${"[a-z0-9][a-z0-9_-]{0,31}"}, got ${c.table}`);
  if (c.lowBattery > 100) throw new ConfigError("lowBattery must be 0-100");
  if (c.broker !== undefined && !/^(mqtts?|wss?|tcp):\/\/[^/]+/.test(c.broker)) {
    throw new ConfigError(`broker must be a URL like mqtt://HOST:PORT, got ${c.broker}`);
  }
  if (c.dynsec !== undefined) {
    const d = String(c.dynsec);
    if (!["true", "false", "1", "0"].includes(d)) throw new ConfigError(`dynsec must be true or false, got ${d}`);
    c.dynsec = d === "true" || d === "1";
    if (c.dynsec && c.broker === undefined) {
      throw new ConfigError("dynsec needs an external broker (--broker mqtt://HOST:PORT): mosquitto's plugin");
    }
  }
  if (c.pin !== undefined && !/^[0-9A-Za-z]{4,32}$/.test(String(c.pin))) {
    throw new ConfigError("pin must be 4-32 letters or digits");
  }
  if (c.pin !== undefined) c.pin = String(c.pin);
  if (c.voice !== undefined && c.voice !== "off" && !isOneOf(TABLE_LANGS, c.voice)) {
    throw new ConfigError(`voice must be off, ${TABLE_LANGS.join(", ")}, got ${String(c.voice)}`);
  }
  c.data = resolve(c.data);
  return c;
}
