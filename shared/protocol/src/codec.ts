// Encoders for what a gun sends and a light decoder for what it receives.
// Bundled into the firmware: string building only, no per-sample objects.
import type { ProtocolErrorCode } from "./errors.js";
import type { CommandMsg, CueMsg, GunMs, HubMs, TriggerKind } from "./messages.js";
import type { ImuKind } from "./vocab.js";

/** Round to one decimal. */
export function r1(x: number): number {
  return Math.round(x * 10) / 10;
}

/** `{"v":1,"t":…,"y":…,"p":…,"r":…,"s":…}` */
export function encAim(t: GunMs, y: number, p: number, r: number, still: boolean): string {
  return '{"v":1,"t":' + t + ',"y":' + r1(y) + ',"p":' + r1(p) + ',"r":' + r1(r) + (still ? ',"s":1}' : "}");
}

/** `{"v":1,"n":…,"k":"p","t":…}`; `d` only when ≥ 0. */
export function encTrig(n: number, k: TriggerKind, t: GunMs, d: number): string {
  return '{"v":1,"n":' + n + ',"k":"' + k + '","t":' + t + (d >= 0 ? ',"d":' + d + "}" : "}");
}

/** `{"v":1,"t":…,"h":…,"a":…}`: the last `time` answer's hub ms `h` (0: none yet) and the gun ms `a` it arrived at. */
export function encSync(t: GunMs, h: HubMs, a: GunMs): string {
  return '{"v":1,"t":' + t + ',"h":' + h + ',"a":' + a + "}";
}

export function encWill(): string {
  return '{"v":1,"on":0}';
}

/** A gun's error report; the text is cut so the message stays small. */
export function encErr(e: string, m: string): string {
  return JSON.stringify({ v: 1, e: e, m: m.substr(0, 120) });
}

/** Fields of an info message the gun fills in; `undefined` fields are left out by JSON. */
export function encInfo(
  fw: string,
  board: string,
  imu: ImuKind,
  bat: number | undefined,
  mem: number | undefined,
  up: number,
  hz: number,
  rs: number | undefined,
  bv: number | undefined,
  bk: number | undefined,
  lc: number | undefined,
): string {
  return JSON.stringify({
    v: 1,
    fw: fw,
    b: board,
    i: imu,
    bat: bat,
    mem: mem,
    up: up,
    hz: hz,
    rs: rs,
    bv: bv,
    bk: bk,
    lc: lc,
  });
}

/** Where an update over the air stands on the gun: `{"v":1,"o":…,"n":…}`, `"ok":1` once complete and checked. */
export function encOtas(o: number, n: number, ok: boolean): string {
  return '{"v":1,"o":' + o + ',"n":' + n + (ok ? ',"ok":1}' : "}");
}

/** Round to three decimals. */
function r3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** A gun's `imu` answer: `{"v":1,"n":…,"m":"+x+z"}`, with `"g":[x,y,z],"sd":…` (g, three decimals) after `grav`. */
export function encImu(n: number, m: string, g: number[] | undefined, sd: number): string {
  return (
    '{"v":1,"n":' +
    n +
    ',"m":"' +
    m +
    (g ? '","g":[' + r3(g[0]) + "," + r3(g[1]) + "," + r3(g[2]) + '],"sd":' + r3(sd) + "}" : '"}')
  );
}

/**
 * What a gun makes of a `cue` or `cmd` payload: the message, or the error code
 * (the same codes as the hub's strict decoders). Light checks only — the hub is
 * trusted to send well-formed messages — but enough that garbage never plays.
 */
export function decIn(leaf: "cue" | "cmd", s: string): CueMsg | CommandMsg | ProtocolErrorCode {
  let o: any;
  if (s.length > (leaf === "cue" ? 512 : 256)) return "size";
  try {
    o = JSON.parse(s);
  } catch (_e) {
    return "json";
  }
  if (!o || typeof o !== "object") return "json";
  if (o.v !== 1) return "version";
  if (o.n === undefined || o.c === undefined) return "field";
  if (typeof o.n !== "number" || typeof o.c !== "string") return "type";
  if (leaf === "cue") {
    if (o.at !== undefined && typeof o.at !== "number") return "type";
    return pairs(o.l) || pairs(o.b) || o;
  }
  return o;
}

/** Checks an LED or buzzer step list: flat pairs of non-negative numbers. */
function pairs(a: any): ProtocolErrorCode | "" {
  if (a === undefined) return "";
  if (!Array.isArray(a)) return "type";
  if (a.length % 2 || a.length > 64) return "range";
  for (let i = 0; i < a.length; i++) {
    if (typeof a[i] !== "number") return "type";
    if (a[i] < 0) return "range";
  }
  return "";
}
