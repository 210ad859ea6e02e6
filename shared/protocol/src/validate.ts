// Strict decoders for the hub: any payload becomes a value or a typed error, never a throw.
import { BAT_CAL_K } from "./battery.js";
import { type Decoded, fail } from "./errors.js";
import {
  type AimMsg,
  COMMAND_NAMES,
  type CommandMsg,
  type CueMsg,
  type GunErrorMsg,
  type ImuMsg,
  type InfoMsg,
  MAX_BYTES,
  type MessageKind,
  OTA_CHUNK,
  type OtaBeginMsg,
  type OtaStateMsg,
  type RequestMsg,
  type ResponseMsg,
  type SyncMsg,
  type TriggerMsg,
  type WillMsg,
} from "./messages.js";
import { mountAxes } from "./mount.js";
import type { GunOutLeaf } from "./topics.js";
import { PROTOCOL_VERSION } from "./version.js";
import { CUE_NAMES, IMU_KINDS } from "./vocab.js";

/** A payload as it comes off the wire: a string, or bytes that turn into UTF-8 text (a Node Buffer). */
export type Payload = string | { length: number; toString(encoding?: string): string };

/** Upper bound for gun and hub timestamps (ms): well past any real clock, below 2^53. */
const MAX_MS = 1e14;

type Rule =
  | { t: "int"; min: number; max: number }
  | { t: "num"; min: number; max: number }
  | { t: "str"; min: number; max: number; re?: RegExp }
  | { t: "enum"; of: readonly string[] }
  | { t: "bool" }
  | { t: "pairs"; max: number }
  | { t: "strs"; max: number }
  | { t: "obj" }
  | { t: "mount" }
  | { t: "vec"; n: number; min: number; max: number }
  | { t: "any" };

/** Field name → [required, rule]. Fields not listed are refused. */
type Schema = { [field: string]: [boolean, Rule] };

function int(min: number, max: number): Rule {
  return { t: "int", min: min, max: max };
}
function num(min: number, max: number): Rule {
  return { t: "num", min: min, max: max };
}
/** A string of `min`..`max` characters; `re` as Espruino runs it too: no `{n,m}`, `?` or `(?:` (firmware/README.md). */
function str(max: number, re?: RegExp, min?: number): Rule {
  return { t: "str", min: min || 1, max: max, re: re };
}
// not `of`: a reserved word to Espruino's parser (it cannot be a variable or parameter name there)
function oneOf(list: readonly string[]): Rule {
  return { t: "enum", of: list };
}

const SEQ = int(0, 4294967295);
const GUN_MS = int(0, MAX_MS);
const HUB_MS = int(0, MAX_MS);

const AIM: Schema = {
  t: [true, GUN_MS],
  y: [true, num(-180, 180)],
  p: [true, num(-90, 90)],
  r: [true, num(-180, 180)],
  s: [false, int(0, 1)],
};
const TRIG: Schema = {
  n: [true, SEQ],
  k: [true, oneOf(["p", "r", "2", "h"])],
  t: [true, GUN_MS],
  d: [false, int(0, 3600000)],
};
/** Version and board names a gun reports: shown to people, so plain characters only (no markup). */
const LABEL = /^[A-Za-z0-9._+-]+$/;
const INFO: Schema = {
  fw: [true, str(24, LABEL)],
  b: [true, str(32, LABEL)],
  i: [true, oneOf(IMU_KINDS)],
  bat: [false, num(0, 100)],
  bv: [false, num(0, 10)],
  bk: [false, num(BAT_CAL_K[0], BAT_CAL_K[1])],
  mem: [false, int(0, 1000000)],
  up: [true, num(0, 1e9)],
  hz: [false, num(0, 200)],
  rs: [false, num(-150, 0)],
  lc: [false, int(0, 1e9)],
};
const SYNC: Schema = { t: [true, GUN_MS], h: [false, HUB_MS], a: [false, GUN_MS] };
const GUN_ERR: Schema = { e: [true, str(16, /^[a-z0-9_-]+$/)], m: [false, str(160)] };
const WILL: Schema = { on: [true, int(0, 0)] };
const CUE: Schema = {
  n: [true, SEQ],
  c: [true, oneOf(CUE_NAMES)],
  at: [false, HUB_MS],
  l: [false, { t: "pairs", max: 64 }],
  b: [false, { t: "pairs", max: 64 }],
  rp: [false, int(1, 100)],
};
const CMD: { [c: string]: Schema } = {
  rate: { n: [true, SEQ], c: [true, oneOf(["rate"])], hz: [true, num(1, 100)] },
  time: {
    n: [true, SEQ],
    c: [true, oneOf(["time"])],
    g: [true, GUN_MS],
    h: [true, HUB_MS],
    o: [false, num(-MAX_MS, MAX_MS)],
  },
  info: { n: [true, SEQ], c: [true, oneOf(["info"])] },
  still: { n: [true, SEQ], c: [true, oneOf(["still"])] },
  reboot: { n: [true, SEQ], c: [true, oneOf(["reboot"])] },
  key: {
    n: [true, SEQ],
    c: [true, oneOf(["key"])],
    k: [true, str(64, /^[A-Za-z0-9_-]+$/, 16)],
    p: [false, int(1, 1)],
  },
  grav: { n: [true, SEQ], c: [true, oneOf(["grav"])] },
  mount: { n: [true, SEQ], c: [true, oneOf(["mount"])], m: [true, { t: "mount" }] },
  bat: { n: [true, SEQ], c: [true, oneOf(["bat"])], k: [true, num(BAT_CAL_K[0], BAT_CAL_K[1])] },
};
/** A gun's answer to `grav` / `mount`: the mounting in use; for `grav` the chip-frame gravity (g) and its spread. */
const IMU: Schema = {
  n: [true, SEQ],
  m: [true, { t: "mount" }],
  g: [false, { t: "vec", n: 3, min: -4, max: 4 }],
  sd: [false, num(0, 8)],
};
/** Lower-case hex: a SHA-256 or an HMAC (64 of them) */
const HEX = /^[0-9a-f]+$/;
/** Largest bundle an update may carry: the largest board budget with room to spare. */
const OTA_MAX = 65536;
const OTA_BEGIN: Schema = {
  c: [true, oneOf(["begin"])],
  b: [true, str(32, LABEL)],
  fw: [true, str(24, LABEL)],
  n: [true, int(1, OTA_MAX)],
  crc: [true, int(0, 4294967295)],
  w: [true, int(1000, 600000)],
  h: [true, str(64, HEX, 64)],
  t: [true, HUB_MS],
  f: [false, int(1, 1)],
  a: [true, str(64, HEX, 64)],
};
const OTA_STATE: Schema = { o: [true, int(0, OTA_MAX)], n: [true, int(0, OTA_MAX)], ok: [false, int(1, 1)] };
const REQ: Schema = {
  id: [true, str(64)],
  op: [true, str(48, /^[a-z][a-zA-Z.-]*$/)],
  auth: [false, str(128)],
  a: [false, { t: "obj" }],
};
const RES: Schema = {
  id: [true, str(64)],
  ok: [true, { t: "bool" }],
  r: [false, { t: "any" }],
  e: [false, { t: "obj" }],
};

function checkRule(name: string, x: unknown, rule: Rule): Decoded<unknown> | null {
  switch (rule.t) {
    case "int":
    case "num":
      if (typeof x !== "number" || !isFinite(x)) return fail("type", name + " must be a number", name);
      if (rule.t === "int" && Math.floor(x) !== x) return fail("type", name + " must be a whole number", name);
      if (x < rule.min || x > rule.max) {
        return fail("range", name + " must be between " + rule.min + " and " + rule.max, name);
      }
      return null;
    case "str":
      if (typeof x !== "string") return fail("type", name + " must be a string", name);
      if (x.length < rule.min || x.length > rule.max) {
        return fail("range", name + " must be " + rule.min + " to " + rule.max + " characters", name);
      }
      if (rule.re && !rule.re.test(x)) return fail("range", name + " has characters it may not have", name);
      return null;
    case "enum":
      for (let i = 0; i < rule.of.length; i++) if (rule.of[i] === x) return null;
      return fail(typeof x === "string" ? "range" : "type", name + " must be one of " + rule.of.join(", "), name);
    case "bool":
      return typeof x === "boolean" ? null : fail("type", name + " must be true or false", name);
    case "pairs":
      if (!Array.isArray(x)) return fail("type", name + " must be an array", name);
      if (x.length % 2 !== 0 || x.length > rule.max) {
        return fail("range", name + " must hold pairs, at most " + rule.max + " numbers", name);
      }
      for (let j = 0; j < x.length; j++) {
        const e = x[j];
        if (typeof e !== "number" || !isFinite(e) || Math.floor(e) !== e) {
          return fail("type", name + " must hold whole numbers", name);
        }
        if (e < 0 || e > 0xffffff) return fail("range", name + " values must be between 0 and 16777215", name);
      }
      return null;
    case "strs":
      if (!Array.isArray(x) || x.length > rule.max) return fail("type", name + " must be a short list", name);
      for (let k = 0; k < x.length; k++)
        if (typeof x[k] !== "string") return fail("type", name + " must hold strings", name);
      return null;
    case "obj":
      return x !== null && typeof x === "object" && !Array.isArray(x)
        ? null
        : fail("type", name + " must be an object", name);
    case "mount":
      return typeof x !== "string"
        ? fail("type", name + " must be a string", name)
        : mountAxes(x)
          ? null
          : fail("range", name + " must name a mounting: forward axis then up axis, e.g. +x+z", name);
    case "vec":
      if (!Array.isArray(x) || x.length !== rule.n) return fail("type", name + " must be " + rule.n + " numbers", name);
      for (let q = 0; q < x.length; q++) {
        const e = x[q];
        if (typeof e !== "number" || !isFinite(e)) return fail("type", name + " must hold numbers", name);
        if (e < rule.min || e > rule.max) {
          return fail("range", name + " values must be between " + rule.min + " and " + rule.max, name);
        }
      }
      return null;
    case "any":
      return null;
  }
}

/** Parse the payload and check size, JSON, version; then the fields against the schema. */
function decodeWith<T>(kind: MessageKind, payload: Payload, schema: Schema): Decoded<T> {
  const parsed = parseObject(kind, payload);
  if (!parsed.ok) return parsed as Decoded<T>;
  const o = parsed.value as { [k: string]: unknown };
  return checkSchema<T>(o, schema);
}

function parseObject(kind: MessageKind, payload: Payload): Decoded<object> {
  if (payload === null || payload === undefined || typeof payload.length !== "number") {
    return fail("json", "payload is empty");
  }
  if (payload.length > MAX_BYTES[kind]) {
    return fail("size", kind + " payload is " + payload.length + " bytes, at most " + MAX_BYTES[kind] + " allowed");
  }
  const text = typeof payload === "string" ? payload : payload.toString("utf8");
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch (_e) {
    return fail("json", kind + " payload is not JSON");
  }
  if (o === null || typeof o !== "object" || Array.isArray(o))
    return fail("json", kind + " payload must be a JSON object");
  const v = (o as { v?: unknown }).v;
  if (v === undefined) return fail("version", "missing protocol version v", "v");
  if (v !== PROTOCOL_VERSION) return fail("version", "unknown protocol version " + String(v).substr(0, 16), "v");
  return { ok: true, value: o as object };
}

function checkSchema<T>(o: { [k: string]: unknown }, schema: Schema): Decoded<T> {
  for (const key in o) {
    if (!Object.prototype.hasOwnProperty.call(o, key) || key === "v") continue;
    if (!Object.prototype.hasOwnProperty.call(schema, key))
      return fail("field", "unknown field " + key.substr(0, 24), key.substr(0, 24));
  }
  for (const name in schema) {
    if (!Object.prototype.hasOwnProperty.call(schema, name)) continue;
    const spec = schema[name];
    const x = o[name];
    if (x === undefined) {
      if (spec[0]) return fail("field", "missing field " + name, name);
      continue;
    }
    const bad = checkRule(name, x, spec[1]);
    if (bad) return bad as Decoded<T>;
  }
  return { ok: true, value: o as T };
}

export function decodeAim(p: Payload): Decoded<AimMsg> {
  return decodeWith<AimMsg>("aim", p, AIM);
}
export function decodeTrigger(p: Payload): Decoded<TriggerMsg> {
  return decodeWith<TriggerMsg>("trig", p, TRIG);
}
export function decodeInfo(p: Payload): Decoded<InfoMsg> {
  return decodeWith<InfoMsg>("info", p, INFO);
}
export function decodeSync(p: Payload): Decoded<SyncMsg> {
  return decodeWith<SyncMsg>("sync", p, SYNC);
}
export function decodeGunError(p: Payload): Decoded<GunErrorMsg> {
  return decodeWith<GunErrorMsg>("err", p, GUN_ERR);
}
export function decodeWill(p: Payload): Decoded<WillMsg> {
  return decodeWith<WillMsg>("will", p, WILL);
}
export function decodeCue(p: Payload): Decoded<CueMsg> {
  return decodeWith<CueMsg>("cue", p, CUE);
}
export function decodeCommand(p: Payload): Decoded<CommandMsg> {
  const parsed = parseObject("cmd", p);
  if (!parsed.ok) return parsed as Decoded<CommandMsg>;
  const o = parsed.value as { [k: string]: unknown };
  const c = o.c;
  if (typeof c !== "string" || !CMD.hasOwnProperty(c)) {
    return fail(c === undefined ? "field" : "range", "c must be one of " + COMMAND_NAMES.join(", "), "c");
  }
  return checkSchema<CommandMsg>(o, CMD[c]);
}
export function decodeOtaBegin(p: Payload): Decoded<OtaBeginMsg> {
  return decodeWith<OtaBeginMsg>("ota", p, OTA_BEGIN);
}
export function decodeOtaState(p: Payload): Decoded<OtaStateMsg> {
  const d = decodeWith<OtaStateMsg>("otas", p, OTA_STATE);
  if (d.ok && d.value.o > d.value.n) return fail("range", "o must not exceed n", "o");
  return d;
}

/** An `ota` chunk: `"<offset> <crc32>\n<data>"`. The hub builds them; this reads one back (tests, tools). */
export function decodeOtaChunk(p: string): Decoded<{ o: number; crc: number; data: string }> {
  const i = p.indexOf("\n");
  const h = i < 0 ? [] : p.substr(0, i).split(" ");
  if (h.length !== 2 || !/^[0-9]+$/.test(h[0]) || !/^[0-9]+$/.test(h[1])) {
    return fail("json", 'ota chunk must start with "<offset> <crc32>\\n"');
  }
  const data = p.substr(i + 1);
  if (data.length < 1 || data.length > OTA_CHUNK)
    return fail("size", "ota chunk data must be 1 to " + OTA_CHUNK + " bytes");
  return { ok: true, value: { o: parseInt(h[0], 10), crc: parseInt(h[1], 10), data: data } };
}
export function decodeImu(p: Payload): Decoded<ImuMsg> {
  return decodeWith<ImuMsg>("imu", p, IMU);
}
export function decodeRequest(p: Payload): Decoded<RequestMsg> {
  return decodeWith<RequestMsg>("req", p, REQ);
}
export function decodeResponse(p: Payload): Decoded<ResponseMsg> {
  return decodeWith<ResponseMsg>("res", p, RES);
}

/** Any message a gun publishes, by topic leaf. */
export type GunOutMsg =
  | { leaf: "aim"; msg: AimMsg }
  | { leaf: "trig"; msg: TriggerMsg }
  | { leaf: "info"; msg: InfoMsg }
  | { leaf: "sync"; msg: SyncMsg }
  | { leaf: "err"; msg: GunErrorMsg }
  | { leaf: "will"; msg: WillMsg }
  | { leaf: "otas"; msg: OtaStateMsg }
  | { leaf: "imu"; msg: ImuMsg };

export function decodeGunMessage(leaf: GunOutLeaf, p: Payload): Decoded<GunOutMsg> {
  let d: Decoded<unknown>;
  switch (leaf) {
    case "aim":
      d = decodeAim(p);
      break;
    case "trig":
      d = decodeTrigger(p);
      break;
    case "info":
      d = decodeInfo(p);
      break;
    case "sync":
      d = decodeSync(p);
      break;
    case "err":
      d = decodeGunError(p);
      break;
    case "will":
      d = decodeWill(p);
      break;
    case "otas":
      d = decodeOtaState(p);
      break;
    case "imu":
      d = decodeImu(p);
      break;
    default:
      return fail("topic", "guns do not publish to " + String(leaf));
  }
  if (!d.ok) return d;
  return { ok: true, value: { leaf: leaf, msg: d.value } as GunOutMsg };
}
