// Message shapes. Every message is a JSON object with `v` = protocol version.
// Short keys keep the aim stream small (≈ 50 bytes a sample) and the firmware cheap.

import type { CueName, ImuKind } from "./vocab.js";

export type Version = 1;

/** Gun-local time: integer milliseconds since the gun booted. */
export type GunMs = number;
/** Hub time: integer milliseconds on the hub's clock (Unix epoch). */
export type HubMs = number;

/** `gun/<id>/aim`, QoS 0: one orientation sample, degrees with one decimal. */
export interface AimMsg {
  v: Version;
  /** gun time of the sample */
  t: GunMs;
  /** yaw, −180 ≤ y ≤ 180, uncalibrated (the hub adds the gun's offset) */
  y: number;
  /** pitch, −90 ≤ p ≤ 90, up is positive */
  p: number;
  /** roll, −180 ≤ r ≤ 180 */
  r: number;
  /** 1 when the gun has been still (gyro quiet) for a moment */
  s?: 0 | 1;
}

/** Trigger event kinds: press, release, double pull, hold (still held after the hold time). */
export type TriggerKind = "p" | "r" | "2" | "h";

/** `gun/<id>/trig`, QoS 1: one trigger event; `n` makes a repeat harmless. */
export interface TriggerMsg {
  v: Version;
  /** sequence number, counts up from 1 at boot */
  n: number;
  k: TriggerKind;
  /** gun time of the edge that made the event */
  t: GunMs;
  /** ms the trigger was held (release, hold) */
  d?: number;
}

/** `gun/<id>/info`, QoS 1, retained: what the gun says about itself. */
export interface InfoMsg {
  v: Version;
  /** firmware version */
  fw: string;
  /** board profile name */
  b: string;
  /** IMU kind */
  i: ImuKind;
  /**
   * battery, percent 0–100: said by a board that gauges its own cell (a Puck.js); for a LiPo gun the hub fills it in
   * from `bv` (battery.ts). Absent with `bv`: the battery is not measured.
   */
  bat?: number;
  /** the LiPo's volts as the gun reads them (its divider, its chip's ADC transfer, its calibration) */
  bv?: number;
  /** the calibration factor in `bv` (gun.json `bat`; 1 until the host calibrated it) */
  bk?: number;
  /** free memory, in JsVars */
  mem?: number;
  /** uptime, seconds */
  up: number;
  /** current aim rate, Hz */
  hz?: number;
  /** WiFi signal, dBm */
  rs?: number;
  /** timed cues that arrived after their start and were dropped, since boot (absent: none) */
  lc?: number;
}

/**
 * `gun/<id>/sync`, QoS 0: a clock probe; the hub answers with a `time` command. After the first answer it also says
 * when the last one reached the gun, so the hub knows how long its messages take to get there.
 */
export interface SyncMsg {
  v: Version;
  t: GunMs;
  /** the last `time` answer's `h` (0: no answer yet) */
  h?: HubMs;
  /** the gun ms that answer arrived at */
  a?: GunMs;
}

/** `gun/<id>/err`, QoS 1: the gun refused something it received. */
export interface GunErrorMsg {
  v: Version;
  /** short code: `json`, `cmd`, `cue`, `cfg`, `imu`, ... */
  e: string;
  m?: string;
}

/** `gun/<id>/will`: the gun's last will, published by the broker when the gun vanishes. */
export interface WillMsg {
  v: Version;
  on: 0;
}

/** `gun/<id>/cue`, QoS 1: play an LED and buzzer pattern, optionally at a hub time. */
export interface CueMsg {
  v: Version;
  n: number;
  c: CueName;
  /** hub time to start; absent = now. The gun converts it with its clock offset. */
  at?: HubMs;
  /** LED steps, flat pairs: colour 0xRRGGBB, duration ms. The last colour stays on. */
  l?: number[];
  /** buzzer steps, flat pairs: frequency Hz (0 = silent), duration ms */
  b?: number[];
  /** play the whole pattern this many times (default 1) */
  rp?: number;
}

/** `gun/<id>/cmd`, QoS 1: a command to the gun. */
export type CommandMsg =
  | { v: Version; n: number; c: "rate"; hz: number }
  /**
   * the answer to a `sync`: `g` echoed, `h` the hub's ms when it read it; `o` (hub ms − gun ms) as the hub measures
   * it from the gun's stream (its fastest samples), once it has one: the gun plays timed cues by it
   */
  | { v: Version; n: number; c: "time"; g: GunMs; h: HubMs; o?: number }
  | { v: Version; n: number; c: "info" }
  | { v: Version; n: number; c: "still" }
  | { v: Version; n: number; c: "reboot" }
  /**
   * pairing accepted: store `k` as the gun's key (`secret` in gun.json) and reconnect with it; `p`: the broker takes a
   * proof of the key instead of the key (the embedded broker: hub/src/broker/gun-proof.ts), so a gun that can make one
   * never sends its key again
   */
  | { v: Version; n: number; c: "key"; k: string; p?: 1 }
  /** measure gravity in the IMU chip's own frame (≈ 0.5 s held still): the answer comes on `imu` with `g`, `sd` */
  | { v: Version; n: number; c: "grav" }
  /** the IMU mounting (mount.ts: "+x+z" …): stored as `mount` in gun.json and used at once; answered on `imu` */
  | { v: Version; n: number; c: "mount"; m: string }
  /** the battery reading's calibration factor `k` (the hub works it out from the true volts and the gun's `bv`, `bk`):
   * kept as `bat` in gun.json, used at once, answered with an `info`; boards with "batcal" */
  | { v: Version; n: number; c: "bat"; k: number };

export type CommandName = CommandMsg["c"];
export const COMMAND_NAMES: CommandName[] = ["rate", "time", "info", "still", "reboot", "key", "grav", "mount", "bat"];

/** `gun/<id>/imu`, QoS 1: the answer to a `grav` or `mount` command. */
export interface ImuMsg {
  v: Version;
  /** the command's `n` */
  n: number;
  /** the mounting in use after the command */
  m: string;
  /** `grav`: mean accelerometer reading in the chip's frame, g (gravity's reaction: the axis that points up reads +1) */
  g?: [number, number, number];
  /** `grav`: how much the reading moved meanwhile, g (standard deviation of the vector): large = not still */
  sd?: number;
}

/**
 * `gun/<id>/ota`, QoS 1, published by the hub only: an update over the air. `begin` (JSON) names the bundle; the
 * gun answers on `otas` with the offset it holds (0, or where an interrupted update stopped). Then chunks, each
 * `"<offset> <crc32 of data>\n<data>"` (text, not JSON; at most OTA_CHUNK bytes of data), each answered on `otas`.
 * Refusals (proof, board, battery, version, room, a chunk's CRC) go to `err` with `e: "ota"`.
 * `a`, the proof, is the last field: HMAC-SHA256 keyed by the hex SHA-256 of the gun's key (what the hub keeps of it)
 * over the JSON text before `,"a":"`; nothing follows it but `"}`.
 */
export interface OtaBeginMsg {
  v: Version;
  c: "begin";
  /** board profile the bundle was built for: the gun refuses another */
  b: string;
  /** firmware version of the bundle */
  fw: string;
  /** bundle length, bytes */
  n: number;
  /** CRC-32 (IEEE, as E.CRC32) of the whole bundle */
  crc: number;
  /** ms the new firmware has to come online to the hub before a restart; two misses = the old one back */
  w: number;
  /** SHA-256 of the whole bundle, hex: the gun runs it only when what it wrote has this hash */
  h: string;
  /** the hub's time (epoch ms) when it vouched: later than the gun's last update's, or the gun refuses (a replay) */
  t: number;
  /** 1: the host forced it: the gun takes a version older than the one it runs */
  f?: 1;
  /** the proof (above), hex */
  a: string;
}

/** Bytes of bundle per `ota` chunk. */
export const OTA_CHUNK = 1024;

/** Lowest battery, percent, an update over the air starts at (the hub and the gun both check). */
export const OTA_LOW_BATTERY = 30;

/**
 * Storage files of updates over the air on the gun: what runs (`ota.json`), the update being written (`ota.new`),
 * the two slots. `cng flash` erases them, so the bundle flashed by USB is what runs.
 */
export const OTA_FILES = ["ota.json", "ota.new", "gun.a", "gun.b"];

/** UDP port a gun asks on for its table's hub, and the hub answers on (outside MQTT: hub/src/net/discovery.ts). */
export const DISCOVERY_PORT = 18830;

/** `gun/<id>/otas`, QoS 1: how far an update is on the gun. */
export interface OtaStateMsg {
  v: Version;
  /** bytes the gun holds: the next chunk must start here */
  o: number;
  /** bundle length */
  n: number;
  /** 1: all in, CRC right; the gun restarts into it */
  ok?: 1;
}

/** Why the hub last changed a gun's presence. */
export const PRESENCE_REASONS = ["connect", "disconnect", "timeout", "will", "hub-start"] as const;
export type PresenceReason = (typeof PRESENCE_REASONS)[number];

/** `gun/<id>/status`, retained, written by the hub only: presence plus the last info. */
export interface GunStatusMsg {
  v: Version;
  on: boolean;
  at: HubMs;
  why: PresenceReason;
  info?: InfoMsg;
  /** human-readable warnings: low battery, old protocol, ... */
  warn?: string[];
}

/** `gun/<id>/cal`, retained, written by the hub: the gun's seat and yaw offset. */
export interface GunCalMsg {
  v: Version;
  seat: number | null;
  /** degrees added to the gun's yaw to get the table bearing */
  off: number;
  at: HubMs;
}

/** `cmd/<client>/req`: a host or player input. `auth` is the host PIN or a seat token. */
export interface RequestMsg {
  v: Version;
  /** request id, echoed in the response */
  id: string;
  op: string;
  auth?: string;
  a?: { [k: string]: unknown };
}

export interface ResponseError {
  code: string;
  msg: string;
}

/** `cmd/<client>/res`: the answer to one request. */
export interface ResponseMsg {
  v: Version;
  id: string;
  ok: boolean;
  r?: unknown;
  e?: ResponseError;
}

/** Largest payload, in bytes, accepted per message kind. */
export const MAX_BYTES = {
  aim: 96,
  trig: 96,
  info: 256,
  sync: 64,
  err: 256,
  will: 32,
  cue: 512,
  cmd: 256,
  imu: 128,
  ota: 1100,
  otas: 64,
  req: 8192,
  res: 65536,
};
export type MessageKind = keyof typeof MAX_BYTES;
