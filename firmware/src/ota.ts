// Updates over the air (boards whose profile has "ota"). The USB-flashed bundle in `.bootcde` is never
// touched: an update goes to Storage `gun.a` or `gun.b` (whichever is not running), chunk by chunk, each chunk
// checked by its CRC, the whole file by length and SHA-256; only then `ota.json` names it and the gun restarts.
// Only an update its hub vouches for is taken: `begin` carries an HMAC (mac.ts: keyed by what only the gun and its hub
// hold) over everything in it — board, version, length, CRC, SHA-256, the hub's time `t`, `force` — so an image from
// anyone else, or changed on the way, is refused before a byte is written and never run. `t` must be later than the
// last update's (kept in ota.json as `q`): a vouched `begin` recorded earlier cannot be replayed. A version older than
// the running one needs `force` in the vouched `begin`.
// At boot, `.bootcde` reads `ota.json` (boot()) and runs the named file instead of itself. A new file is on
// trial until it comes online to the hub (otaOk()): each boot on trial counts, a restart comes after `w` ms
// offline, and the third boot on trial goes back to the file before it. A damaged file is never run.
// Resuming: the bundle is ASCII, so the first 0xFF (erased flash) in the slot is where the last write stopped.
import { encOtas, fwOlder, OTA_LOW_BATTERY, OTA_LOW_VOLTS } from "@cng/protocol";
import type { Cfg } from "./config";
import { mac, sha } from "./mac";

/** boots on trial before going back to the previous firmware */
var TRIES = 2;
/** lowest battery (volts: the LiPo curve at OTA_LOW_BATTERY percent) an update may start at */
var LOW = OTA_LOW_VOLTS;

function crc(s: string): number {
  return E.CRC32(s) >>> 0;
}

/** The file running now: `gun.a`, `gun.b`, or "" (`.bootcde`). */
function cur(): string {
  return (global as any).CNGS || "";
}

function save(S: any, o: any): void {
  // JSON.stringify, not writeJSON (JS notation)
  S.write("ota.json", JSON.stringify(o));
}

/**
 * Still on trial after `w` ms (not online, or crashed): restart, and so count one more boot on trial. A string, not a
 * function: a closure here would keep this whole bundle's scope (≈ 700 JsVars) alive beside the one it started.
 */
function trial(w: number): void {
  setTimeout('(function(x){if(x&&x.t)E.reboot()})(require("Storage").readJSON("ota.json",1))' as any, w);
}

/**
 * Runs an updated firmware instead of this one when `ota.json` names one: true when it took over (this copy must
 * then do nothing). Only `.bootcde` decides; a firmware started by it sees CNGS set and goes on.
 */
export function boot(): boolean {
  var g: any = global;
  if (g.CNGS !== undefined) return false;
  g.CNGS = "";
  var S = require("Storage");
  var o = S.readJSON("ota.json", true);
  var c: string | undefined;
  // biome-ignore lint/complexity/useOptionalChain: ES5 for Espruino
  if (!o || !o.f) return false;
  c = S.read(o.f);
  // tried enough, or damaged (a file on trial is checked before it counts): back to the one before
  if (o.t && (o.k >= TRIES || !c || crc(c) !== o.c)) {
    console.log("CNG ota: " + o.f + " did not come online, back to " + (o.p || ".bootcde"));
    o = { f: o.p, c: o.pc, rb: o.fw, q: o.q };
    save(S, o);
    if (!o.f) return false;
    c = S.read(o.f);
  } else if (o.t) {
    o.k++;
    save(S, o);
    trial(o.w);
  }
  if (!c || crc(c) !== o.c) {
    console.log("CNG ota: " + o.f + " damaged, running .bootcde");
    return false;
  }
  g.CNGS = o.f;
  g.CNGC = o.c;
  // from the top of the next tick, not from here: Espruino's eval runs in the caller's scope, and the new
  // firmware's closures would keep this bundle's whole scope (≈ 700 JsVars) alive beside its own
  setTimeout(c as any, 0);
  return true;
}

/**
 * The gun is online to the hub: a firmware on trial is kept. Returns the version the last update fell back from
 * (once), so the gun can say so.
 */
export function otaOk(): string | undefined {
  var S = require("Storage");
  var o = S.readJSON("ota.json", true);
  var rb: string | undefined;
  if (!o || !(o.t || o.rb)) return undefined;
  rb = o.rb;
  save(S, { f: o.f, c: o.c, q: o.q });
  return rb;
}

/**
 * The `ota` topic's handler. `rep` sends a state message (otas), `err` an error; `bat` the battery's volts, or
 * undefined when not measured; `c` the gun's config (its key proves the hub's `begin`).
 * A `begin` the hub vouched for is trusted for its shape; each chunk's CRC is checked (the link may damage one), and
 * the whole bundle's SHA-256 against the vouched one.
 */
export function ota(
  rep: (m: string) => void,
  err: (e: string, m: string) => void,
  bat: () => number | undefined,
  c: Cfg,
) {
  var S = require("Storage");
  /** the slot being written, "" = no update under way */
  var f = "";
  var h = 0;
  /** the last `begin` */
  var m: any = {};
  function st(ok: boolean) {
    rep(encOtas(h, m.n, ok));
  }
  function no(why: string) {
    err("ota", why);
  }
  function begin(p: string) {
    var b = bat();
    var t = cur() === "gun.a" ? "gun.b" : "gun.a";
    // the proof is the last field: it covers all the text before it, and nothing may follow it
    var i = p.indexOf(',"a":"');
    var o: any = JSON.parse(p);
    m = {};
    f = "";
    if (i < 0 || p.length !== i + 72 || mac(sha(c.secret), p.substr(0, i)) !== o.a)
      return no("not vouched for by this gun's hub, refused");
    m = o;
    if (m.b !== BOARD.name) return no("bundle for " + m.b + ", this is " + BOARD.name);
    if (b !== undefined && b < LOW) return no("battery " + b + " V, needs " + LOW + " V (" + OTA_LOW_BATTERY + "%)");
    // asked again after a restart whose `ok` was lost: say so, nothing to write
    if (m.crc === (global as any).CNGC) return no("already runs this bundle");
    o = S.readJSON("ota.json", true);
    // vouched for before the last update was: a recorded `begin` played again
    if (o && m.t <= o.q) return no("older than the last update, refused");
    if (!m.f && fwOlder(m.fw, FW)) return no(m.fw + " is older than " + FW + ": force to go back");
    o = S.readJSON("ota.new", true);
    if (o && o.f === t && o.n === m.n && o.c === m.crc && S.read(t)) {
      // the same update again: go on from where it stopped
      o = S.read(t);
      h = o.indexOf("\xff");
      if (h < 0) h = o.length;
    } else {
      S.erase(t);
      // room counts the trash too: Storage compacts by itself when a file needs it
      o = S.getStats();
      o = o.freeBytes + o.trashBytes;
      if (o < m.n + 512) return no("no room: " + o + " bytes free");
      S.write("ota.new", JSON.stringify({ f: t, n: m.n, c: m.crc }));
      h = 0;
    }
    f = t;
    // all there already (stopped between the last chunk and the switch): finish now
    if (h >= m.n) done();
    else st(false);
  }
  function chunk(p: string) {
    var i = p.indexOf("\n");
    var k = p.substr(0, i).split(" ");
    var d = p.substr(i + 1);
    // not where we are (a resend, one lost, no update): say where we are
    if (!f || +k[0] !== h) return st(false);
    if (crc(d) !== +k[1]) {
      no("chunk at " + h + ": CRC wrong, refused");
      return st(false);
    }
    if (h) S.write(f, d, h);
    else S.write(f, d, 0, m.n);
    h += d.length;
    if (h < m.n) return st(false);
    done();
  }
  /** all bytes in: check the whole bundle, then name it in ota.json (on trial) and restart into it */
  function done() {
    // what was written is what the hub vouched for (a chunk's CRC catches damage, not a forgery)
    if (sha(S.read(f)!) !== m.h) {
      no("bundle hash wrong, starting again");
      S.erase(f);
      h = 0;
      return st(false);
    }
    save(S, { f: f, c: m.crc, t: 1, k: 0, w: m.w, fw: m.fw, p: cur(), pc: (global as any).CNGC, q: m.t });
    S.erase("ota.new");
    f = "";
    st(true);
    // let the answer leave before the restart
    setTimeout(E.reboot, 300);
  }
  return function (p: string) {
    if (p.charAt(0) === "{") begin(p);
    else chunk(p);
  };
}
