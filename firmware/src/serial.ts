// The USB serial link (hardware/SERIAL.md): the same protocol as over MQTT, as `<leaf> <json>`
// lines on the board's USB serial port, which the hub bridges onto the broker. It stands in for
// WiFi + MQTT: `mq.up`, `mq.onup` and `mq.onmsg` keep their meaning, `slPub` replaces `pub`.
// Only in the bundles of boards whose profile lists the "serial" link (LINK_SERIAL); a Puck.js's only link, over
// Bluetooth, where anyone in range may connect: so a paired gun hands its key to nobody. Its `hello` carries a fresh
// nonce instead, and it takes `cue`, `cmd` and `link` lines, and sends anything but `hello`, only once the link has
// answered `auth` with the HMAC of "link <nonce>" keyed by its key's hash, which only its hub can make (mac.ts). A gun
// not yet paired holds nothing its hub knows: it says its flashed secret (which only asks to pair) and takes any link.
import type { Cfg } from "./config";
import { mac, nonce, sha } from "./mac";
import { mq } from "./mqtt";

/** longest line, bytes */
var MAX = 1024;
/** the USB serial port, once the console has moved away */
var D: EspSerial | undefined;
var B = "";
var skip = false;
var I: string;
var K: string;
/** the hash of the key a hub gave (paired), "" before: what proves a link */
var H = "";
/** the nonce of the last hello, until a link proves itself over it */
var N = "";
/** the link has proved itself (always, before pairing) */
var A = true;
/** topic root `cng/v1/<table>/gun/<id>/`, for mq.onmsg */
var R: string;

function w(l: string, m: string): void {
  if (D && A) D.write(l + " " + m + "\n");
}

/** Who this gun is; paired, with a new nonce the link must prove itself over (until then it takes nothing more). */
function hello(): void {
  if (H) {
    N = nonce(H);
    A = false;
  }
  D!.write("hello " + JSON.stringify(H ? { v: 1, id: I, n: N, fw: FW } : { v: 1, id: I, k: K, fw: FW }) + "\n");
}

function up(u: boolean): void {
  mq.up = u;
  if (u) mq.onup();
}

function js(p: string): any {
  try {
    return JSON.parse(p) || 0;
  } catch (_e) {
    return 0;
  }
}

function line(s: string): void {
  var i = s.indexOf(" ");
  var l = s.substr(0, i);
  var p = s.substr(i + 1);
  var j: any;
  if (l === "who") hello();
  else if (l === "auth") {
    // over this hello's nonce only, once: an answer heard on the air before proves nothing
    if (N && js(p).m === mac(H, "link " + N)) {
      A = true;
      N = "";
      // (re)announced: the bridge may be on the broker already (a restarted gun, a `who` again)
      if (mq.up) mq.onup();
    }
  } else if (!A) return;
  else if (l === "cue" || l === "cmd") mq.onmsg(R + l, p);
  else if (l === "link") {
    j = js(p);
    // like a WiFi drop: no aim while the bridge is off the broker; info and clock probes when back
    if (j) up(j.on === 1);
  } else if (CHIP !== "NRF52" && l === "repl") {
    // the console back on USB, so the gun can be reflashed; the link stays off until a reset (a cable is in hand:
    // over Bluetooth anyone in range would get it, so a Puck gives it only with its button held as it starts)
    up(false);
    D!.setConsole(true);
    D = undefined;
  }
}

function data(d: string): void {
  var i: number;
  var s: string;
  B += d;
  for (i = B.indexOf("\n"); i >= 0; i = B.indexOf("\n")) {
    s = B.substr(0, i);
    B = B.substr(i + 1);
    if (s.charAt(s.length - 1) === "\r") s = s.substr(0, s.length - 1);
    if (skip) skip = false;
    else if (s) line(s);
  }
  // a run without a line end: thrown away up to the next one
  if (B.length > MAX) {
    B = "";
    skip = true;
  }
}

/** What the gun would publish on topic `t`, as the line `<leaf> <payload>`. */
export function slPub(t: string, m: string): void {
  w(t.substr(t.lastIndexOf("/") + 1), m);
}

/** The hub's pairing key: paired from now on, say hello again (a nonce now, the key never again). */
export function slKey(k: string): void {
  K = k;
  H = sha(k);
  hello();
}

/** Takes the link's device for the lines, unless the trigger is held: then the console stays. */
function take(c: Cfg): void {
  var T = BOARD.trig;
  if (!digitalRead(T.pin) === !T.pressed) {
    console.log("CNG trigger held: console stays on " + (CHIP === "NRF52" ? "Bluetooth" : "USB"));
    return;
  }
  LoopbackA.setConsole(true);
  if (CHIP === "NRF52") {
    // a passkey (gun.json `pk`): the Nordic UART then takes only a bonded, encrypted link (Espruino restarts its
    // Bluetooth to require it); Espruino's source: a static passkey needs mitm and display
    if (c.pk) NRF.setSecurity({ passkey: c.pk, mitm: 1, display: 1 });
    // the central gone: the next one proves itself again, and nothing streams to nobody meanwhile
    NRF.on("disconnect", function () {
      A = !H;
      up(false);
    });
  }
  D = BOARD.con!;
  D.on("data", data);
  hello();
  // the bridge may already be on the broker as this gun (a reset does not close the port)
  up(true);
}

/**
 * Takes the link's device: on USB after 2 s (so `cng flash` can still get in after a reset); on Bluetooth at once,
 * before any central can have Espruino's console (it moves the console to whoever connects, unless it is forced away).
 */
export function slStart(c: Cfg, root: string): void {
  I = c.id;
  K = c.secret;
  R = root;
  if (c.paired) H = sha(K);
  A = !H;
  if (CHIP === "NRF52") take(c);
  else
    setTimeout(function () {
      take(c);
    }, 2000);
}
