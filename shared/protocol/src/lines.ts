// The serial gun line protocol (hardware/SERIAL.md): one message per line, `<leaf> <json>`, for a gun on a USB cable
// or a Puck.js's Bluetooth UART. Gun → hub: `hello {...}` first, then the gun leaves (aim, trig, info, sync, err) with
// the same JSON payloads as over MQTT. Hub → gun: `who`, `auth`, `link`, `cue`, `cmd`. A paired gun's hello names no
// key but a nonce `n`, and the gun takes nothing but `who` and `auth` until the link answers `auth {"v":1,"m":…}`
// with linkProof's HMAC over it, which only its hub can make. Used by the hub's serial bridge and by the dashboard's
// Bluetooth bridge (served to the browser from this package's build); the firmware has its own writer
// (firmware/src/serial.ts).
import { GUN_OUT_LEAVES, type GunOutLeaf, isName } from "./topics.js";
import { decodeGunMessage, type GunOutMsg } from "./validate.js";

/** Longest line accepted from a gun, bytes; longer ones are dropped. */
export const MAX_LINE = 1024;

/**
 * `hello {"v":1,"id":"g1","k":"<secret>","fw":"1.0.0"}` from a gun not yet paired: who it is and its flashed secret
 * (which only asks to pair); `hello {"v":1,"id":"g1","n":"<nonce>","fw":"1.0.0"}` from a paired one: the nonce a link
 * proves itself over (`auth`), and no key.
 */
export interface Hello {
  id: string;
  /** the gun's flashed secret (gun.json `secret`) while it is not paired; a paired gun never says its key */
  k?: string;
  /** a paired gun's nonce for this hello: 16 hex digits, new at each hello */
  n?: string;
  fw?: string;
}

/** What the link's `auth` proves: HMAC-SHA256 of this text, keyed by the gun's key hash (hex), hex. */
export function linkProofText(n: string): string {
  return "link " + n;
}

export type GunLine =
  | { kind: "hello"; hello: Hello }
  | { kind: "msg"; leaf: GunOutLeaf; payload: string; msg: GunOutMsg }
  | { kind: "bad"; code: string; why: string };

const LINE_RE = /^([a-z][a-z]+) (\{.*\})$/;
const SECRET_RE = /^[A-Za-z0-9_-]+$/;
const NONCE_RE = /^[0-9a-f]+$/;
const HELLO_KEYS = ["v", "id", "k", "n", "fw"];

function bad(code: string, why: string): GunLine {
  return { kind: "bad", code, why };
}

function parseHello(json: string): GunLine {
  let o: unknown;
  try {
    o = JSON.parse(json);
  } catch (_e) {
    return bad("json", "hello is not JSON");
  }
  if (!o || typeof o !== "object" || Array.isArray(o)) return bad("json", "hello must be a JSON object");
  const h = o as { [k: string]: unknown };
  if (h.v !== 1) return bad("version", "hello needs v: 1");
  const keys = Object.keys(h);
  for (let i = 0; i < keys.length; i++) {
    if (HELLO_KEYS.indexOf(keys[i]!) < 0) return bad("field", `hello has an unknown field ${keys[i]!.slice(0, 16)}`);
  }
  if (!isName(h.id)) return bad("field", "hello id must be 1-32 of a-z 0-9 _ - (the gun.json id)");
  if (h.k !== undefined && (typeof h.k !== "string" || h.k.length > 64 || !SECRET_RE.test(h.k))) {
    return bad("field", "hello k must be the gun's secret: 1-64 of A-Z a-z 0-9 _ -");
  }
  if (h.n !== undefined && (typeof h.n !== "string" || h.n.length !== 16 || !NONCE_RE.test(h.n))) {
    return bad("field", "hello n must be the gun's nonce: 16 hex digits");
  }
  if (h.k !== undefined && h.n !== undefined) return bad("field", "hello has k and n: a paired gun names no key");
  if (h.fw !== undefined && (typeof h.fw !== "string" || h.fw.length > 24)) return bad("field", "hello fw too long");
  const hello: Hello = { id: h.id };
  if (h.k !== undefined) hello.k = h.k as string;
  if (h.n !== undefined) hello.n = h.n as string;
  if (h.fw !== undefined) hello.fw = h.fw as string;
  return { kind: "hello", hello };
}

/** One line from a gun (without its line ending), checked with the protocol's strict decoders. */
export function parseGunLine(line: string): GunLine {
  if (line.length > MAX_LINE) return bad("size", `line is ${line.length} bytes, at most ${MAX_LINE}`);
  const m = LINE_RE.exec(line);
  if (!m || m[1]!.length > 8) return bad("shape", "not `<leaf> <json>`");
  const leaf = m[1]!;
  const json = m[2]!;
  if (leaf === "hello") return parseHello(json);
  if (leaf === "will") return bad("leaf", "a gun does not send its will; the bridge does when the gun goes");
  if ((GUN_OUT_LEAVES as readonly string[]).indexOf(leaf) < 0) return bad("leaf", `unknown leaf ${leaf}`);
  const d = decodeGunMessage(leaf as GunOutLeaf, json);
  if (!d.ok) return bad(d.error.code, `${leaf}: ${d.error.message}`);
  return { kind: "msg", leaf: leaf as GunOutLeaf, payload: json, msg: d.value };
}

/** A line for the gun: `<leaf> <json>\n`. */
export function lineForGun(leaf: "who" | "auth" | "link" | "cue" | "cmd", json: string): string {
  return `${leaf} ${json}\n`;
}

/**
 * Splits a byte stream into lines; `\r\n` and `\n` both end a line. A run of more than MAX_LINE bytes without a line
 * end is thrown away up to the next line end.
 */
export class LineSplitter {
  private buf = "";
  private skipping = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly onOverflow: () => void,
  ) {}

  push(chunk: string): void {
    let s = this.buf + chunk;
    for (let i = s.indexOf("\n"); i >= 0; i = s.indexOf("\n")) {
      const line = s.slice(0, i).replace(/\r$/, "");
      s = s.slice(i + 1);
      if (this.skipping) this.skipping = false;
      else if (line.length > 0) this.onLine(line);
    }
    if (s.length > MAX_LINE) {
      if (!this.skipping) this.onOverflow();
      this.skipping = true;
      s = "";
    }
    this.buf = s;
  }

  reset(): void {
    this.buf = "";
    this.skipping = false;
  }
}
