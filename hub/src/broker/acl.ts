// Topic rights per role: pure functions used by the embedded broker's hooks, and the
// source of the mosquitto ACL file (`cng acl`). Topics are relative to `cng/v1/<table>/`.
import { GUN_OUT_LEAVES, type GunOutLeaf, MAX_BYTES, type MessageKind, parseTopic, tableRoot } from "@cng/protocol";
import type { Principal } from "./principal.js";

export type Verdict = { ok: true } | { ok: false; reason: string };
const OK: Verdict = { ok: true };
function no(reason: string): Verdict {
  return { ok: false, reason };
}

/** Gun leaves a pending (unpaired) gun's messages are forwarded for; the rest are dropped quietly. */
export const PENDING_FORWARDED: GunOutLeaf[] = ["info", "will", "err"];

/** Leaves of a pending gun forwarded to the hub alone: its pulls, so the host can pair it by pulling (pair.listen).
 * The hub hands them to the pairing listener only, never to a game. */
export const PENDING_TO_HUB: GunOutLeaf[] = ["trig"];

/** Whether a pending gun's message on `leaf` may reach `receiver` (undefined: unknown client). */
export function pendingForward(leaf: string, receiver: Principal | undefined): boolean {
  if ((PENDING_FORWARDED as string[]).includes(leaf)) return true;
  return receiver?.role === "hub" && (PENDING_TO_HUB as string[]).includes(leaf);
}

/**
 * Subscription patterns each role may use (relative, `%g` = own gun id, `%s` = own seat,
 * `%c` = own client id). A filter is allowed when one pattern covers every topic it matches.
 */
export function readPatterns(p: Principal): string[] {
  const publicRead = ["gun/+/status", "gun/+/cal", "gun/+/info", "gun/+/aim", "table/+", "cmd/%c/res"];
  switch (p.role) {
    case "hub":
      return ["#"];
    case "gun":
      return ["gun/%g/cue", "gun/%g/cmd", "gun/%g/ota", "gun/%g/cal", "gun/%g/status"];
    case "pending":
      // ota too, so the firmware's one SUBSCRIBE is granted whole; the hub updates paired guns only
      return ["gun/%g/cmd", "gun/%g/cue", "gun/%g/ota", "gun/%g/status"];
    case "seat":
      return [...publicRead, "player/%s/view"];
    case "host":
    case "viewer":
      return publicRead;
  }
}

/**
 * One level of a subscription pattern: a wildcard of the pattern itself (`+` one level, `#` the rest: MQTT 3.1.1
 * §4.7.1), or a literal (a substituted name).
 */
type Level = { wild: "+" | "#" } | { lit: string };

/**
 * The pattern's levels with `%g`, `%s` and `%c` substituted. A substituted part is a literal, whatever it holds: a
 * client id "#" must not turn `cmd/%c/res` into `cmd/#/res`. (The broker also refuses such client ids at CONNECT.)
 */
function fill(pattern: string, p: Principal, clientId: string): Level[] {
  return pattern.split("/").map((part): Level => {
    if (part === "+" || part === "#") return { wild: part };
    if (part === "%g") return { lit: p.role === "gun" || p.role === "pending" ? p.gun : "\u0000" };
    if (part === "%s") return { lit: p.role === "seat" ? String(p.seat) : "\u0000" };
    if (part === "%c") return { lit: clientId };
    return { lit: part };
  });
}

/** True when every topic `filter` matches is also matched by `pattern` (`+`/`#` are wildcards in both). */
export function covers(pattern: string | Level[], filter: string): boolean {
  const a = typeof pattern === "string" ? fill(pattern, { role: "viewer" }, "") : pattern;
  const b = filter.split("/");
  for (let i = 0; i < b.length; i++) {
    const pa = a[i];
    if (pa === undefined) return false;
    const fb = b[i];
    if ("wild" in pa) {
      if (pa.wild === "#") return true;
      if (fb === "#") return false;
      continue;
    }
    // a literal level covers only itself: never a wildcard of the filter, and compared as it is
    if (fb === "+" || fb === "#" || fb !== pa.lit) return false;
  }
  return a.length === b.length;
}

/** Client ids that could be read as part of a topic: MQTT wildcards, the level separator, control characters. */
export function clientIdProblem(id: string): string | null {
  if (id.length === 0) return null; // the broker gives one
  if (/[+#/]/.test(id)) return "client id may not hold + # or /";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (/[\u0000-\u001f\u007f]/.test(id)) return "client id may not hold control characters";
  return null;
}

export function maySubscribe(p: Principal, clientId: string, table: string, filter: string): Verdict {
  const root = tableRoot(table) + "/";
  if (p.role === "hub") return filter.startsWith(root) || filter.startsWith("$SYS/") ? OK : no("outside the table");
  if (!filter.startsWith(root)) return no(`outside ${root}#`);
  const rel = filter.slice(root.length);
  for (const pat of readPatterns(p)) if (covers(fill(pat, p, clientId), rel)) return OK;
  return no(`${p.role} may not read ${rel}`);
}

/** Where each role may publish, and how large a message may be there. */
export function mayPublish(
  p: Principal,
  clientId: string,
  table: string,
  topic: string,
  bytes: number,
  retain: boolean,
): Verdict {
  if (p.role === "hub") return topic.startsWith(tableRoot(table) + "/") ? OK : no("outside the table");
  const t = parseTopic(topic);
  if (!t || t.table !== table) return no("not a topic of this table");
  if (p.role === "gun" || p.role === "pending") {
    if (t.kind !== "gun" || t.gun !== p.gun) return no("a gun publishes only under its own topics");
    if (!(GUN_OUT_LEAVES as string[]).includes(t.leaf)) return no(`guns do not publish ${t.leaf}`);
    if (retain && t.leaf !== "info" && t.leaf !== "will") return no(`${t.leaf} is not retained`);
    return sized(t.leaf as MessageKind, bytes);
  }
  // host, viewer, seat: only their own command requests; the hub checks the PIN or token in each.
  if (t.kind === "cmd" && t.leaf === "req" && t.client === clientId) {
    return retain ? no("requests are not retained") : sized("req", bytes);
  }
  return no(`${p.role} may publish only to cmd/${clientId}/req`);
}

function sized(kind: MessageKind, bytes: number): Verdict {
  return bytes <= MAX_BYTES[kind] ? OK : no(`${kind} payload of ${bytes} bytes exceeds ${MAX_BYTES[kind]}`);
}

/** Largest payload any client other than the hub may send. */
export const MAX_CLIENT_PAYLOAD = MAX_BYTES.req;
