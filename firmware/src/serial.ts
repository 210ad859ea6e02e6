// The USB serial link (hardware/SERIAL.md): the same protocol as over MQTT, as `<leaf> <json>`
// lines on the board's USB serial port, which the hub bridges onto the broker. It stands in for
// WiFi + MQTT: `mq.up`, `mq.onup` and `mq.onmsg` keep their meaning, `slPub` replaces `pub`.
// Only in the bundles of boards whose profile lists the "serial" link (LINK_SERIAL).
import { mq } from "./mqtt";

/** longest line, bytes */
var MAX = 1024;
/** the USB serial port, once the console has moved away */
var D: EspSerial | undefined;
var B = "";
var skip = false;
var I: string;
var K: string;
/** topic root `cng/v1/<table>/gun/<id>/`, for mq.onmsg */
var R: string;

function w(l: string, m: string): void {
  if (D) D.write(l + " " + m + "\n");
}

function hello(): void {
  w("hello", JSON.stringify({ v: 1, id: I, k: K, fw: FW }));
}

function up(u: boolean): void {
  mq.up = u;
  if (u) mq.onup();
}

function line(s: string): void {
  var i = s.indexOf(" ");
  var l = s.substr(0, i);
  var p = s.substr(i + 1);
  var j: any;
  if (l === "who") hello();
  else if (l === "cue" || l === "cmd") mq.onmsg(R + l, p);
  else if (l === "link") {
    try {
      j = JSON.parse(p);
    } catch (_e) {
      return;
    }
    // like a WiFi drop: no aim while the bridge is off the broker; info and clock probes when back
    up(j.on === 1);
  } else if (l === "repl") {
    // the console back on USB, so the gun can be reflashed; the link stays off until a reset
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

/** The hub's pairing key: say hello again with it. */
export function slKey(k: string): void {
  K = k;
  hello();
}

/**
 * Take the USB port after 2 s (so `cng flash` can still get in after a reset), unless the trigger
 * is held: then the console stays on USB.
 */
export function slStart(id: string, k: string, root: string): void {
  I = id;
  K = k;
  R = root;
  setTimeout(function () {
    var T = BOARD.trig;
    if (!digitalRead(T.pin) === !T.pressed) {
      console.log("CNG trigger held: console stays on USB");
      return;
    }
    LoopbackA.setConsole(true);
    D = BOARD.con!;
    D.on("data", data);
    hello();
    // the bridge may already be on the broker as this gun (a reset does not close the port)
    up(true);
  }, 2000);
}
