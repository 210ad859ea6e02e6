// The topic tree. ES5-safe: bundled into the firmware.
//
//   cng/v1/<table>/gun/<gun>/{aim,trig,info,sync,err,will,otas,imu} gun → hub
//   cng/v1/<table>/gun/<gun>/{cue,cmd,ota}                   hub → gun
//   cng/v1/<table>/gun/<gun>/{status,cal}                    hub, retained
//   cng/v1/<table>/table/{state,events,aim}                  hub → everyone
//   cng/v1/<table>/player/<seat>/{view,choice}               private per seat
//   cng/v1/<table>/cmd/<client>/{req,res}                    request/response
import { PROTOCOL_VERSION, TOPIC_ROOT } from "./version.js";

/** Leaves a gun publishes to. */
export type GunOutLeaf = "aim" | "trig" | "info" | "sync" | "err" | "will" | "otas" | "imu";
/** Leaves the hub publishes to for one gun. */
export type GunInLeaf = "cue" | "cmd" | "ota";
/** Hub-written retained leaves about one gun. */
export type GunHubLeaf = "status" | "cal";
export type GunLeaf = GunOutLeaf | GunInLeaf | GunHubLeaf;
export type TableLeaf = "state" | "events" | "aim";
export type PlayerLeaf = "view" | "choice";
export type CmdLeaf = "req" | "res";

export const GUN_OUT_LEAVES: GunOutLeaf[] = ["aim", "trig", "info", "sync", "err", "will", "otas", "imu"];
export const GUN_IN_LEAVES: GunInLeaf[] = ["cue", "cmd", "ota"];
export const GUN_HUB_LEAVES: GunHubLeaf[] = ["status", "cal"];
export const TABLE_LEAVES: TableLeaf[] = ["state", "events", "aim"];
export const PLAYER_LEAVES: PlayerLeaf[] = ["view", "choice"];

/**
 * Names used as single topic levels: gun ids, table names, client ids: 1 to 32 of a-z 0-9 _ -, not starting with
 * _ or -. The length is checked apart: Espruino's RegExp has no counted quantifiers (`{0,31}` never matches there).
 */
export const NAME_RE = /^[a-z0-9][a-z0-9_-]*$/;
export const NAME_MAX = 32;
/** Most topic levels any valid topic has; the broker refuses deeper ones. */
export const MAX_TOPIC_LEVELS = 6;

/** A gun's id: its MQTT username and its topic level (a name, `isName`). */
export type GunId = string;
/** MQTT usernames with a fixed meaning (the hub, the host, a viewer); no gun may use them as its id. */
export const RESERVED_USERNAMES = ["hub", "host", "viewer"];
/** A player's console logs in as `seat-<n>` with its seat token; no gun may use such a name either. */
export const SEAT_USER_RE = /^seat-([0-9][0-9]?)$/;
/** Seats at one table are numbered 0 to MAX_SEATS - 1 (the topic tree, the ACL, the op arguments). */
export const MAX_SEATS = 16;

export function isName(s: unknown): s is string {
  return typeof s === "string" && s.length <= NAME_MAX && NAME_RE.test(s);
}

/** `cng/v1/<table>` */
export function tableRoot(table: string): string {
  return TOPIC_ROOT + "/v" + PROTOCOL_VERSION + "/" + table;
}

export function gunTopic(table: string, gun: string, leaf: GunLeaf): string {
  return tableRoot(table) + "/gun/" + gun + "/" + leaf;
}

export function tableTopic(table: string, leaf: TableLeaf): string {
  return tableRoot(table) + "/table/" + leaf;
}

export function playerTopic(table: string, seat: number, leaf: PlayerLeaf): string {
  return tableRoot(table) + "/player/" + seat + "/" + leaf;
}

export function cmdTopic(table: string, client: string, leaf: CmdLeaf): string {
  return tableRoot(table) + "/cmd/" + client + "/" + leaf;
}

/** A topic split into what it addresses; `null` from parseTopic when it is not ours. */
export type ParsedTopic =
  | { table: string; kind: "gun"; gun: string; leaf: GunLeaf }
  | { table: string; kind: "table"; leaf: TableLeaf }
  | { table: string; kind: "player"; seat: number; leaf: PlayerLeaf }
  | { table: string; kind: "cmd"; client: string; leaf: CmdLeaf };

function has<T extends string>(list: T[], s: string): s is T {
  for (let i = 0; i < list.length; i++) if (list[i] === s) return true;
  return false;
}

export function parseTopic(topic: string): ParsedTopic | null {
  const p = topic.split("/");
  if (p[0] !== TOPIC_ROOT || p[1] !== "v" + PROTOCOL_VERSION || !isName(p[2])) return null;
  const table = p[2];
  if (p.length === 6 && p[3] === "gun" && isName(p[4])) {
    const leaf = p[5];
    if (has(GUN_OUT_LEAVES, leaf) || has(GUN_IN_LEAVES, leaf) || has(GUN_HUB_LEAVES, leaf)) {
      return { table: table, kind: "gun", gun: p[4], leaf: leaf };
    }
    return null;
  }
  if (p.length === 5 && p[3] === "table" && has(TABLE_LEAVES, p[4])) {
    return { table: table, kind: "table", leaf: p[4] };
  }
  if (p.length === 6 && p[3] === "player" && p[4].length <= 2 && /^[0-9]+$/.test(p[4]) && has(PLAYER_LEAVES, p[5])) {
    return { table: table, kind: "player", seat: parseInt(p[4], 10), leaf: p[5] };
  }
  if (p.length === 6 && p[3] === "cmd" && isName(p[4]) && (p[5] === "req" || p[5] === "res")) {
    return { table: table, kind: "cmd", client: p[4], leaf: p[5] };
  }
  return null;
}
