// A small MQTT 3.1.1 client over Espruino's `net` (socket data arrives as strings of bytes).
// CONNECT with credentials and a last will, CONNACK check, keepalive PINGREQ, QoS 1 publish kept
// until PUBACK (resent every RT ms and after a reconnect), SUBSCRIBE, reconnect with backoff.
// The session counts as up (`onup`) once the broker has taken the subscriptions: a broker may handle a SUBSCRIBE and
// the PUBLISH behind it side by side, so a gun greeting at CONNACK could be answered before it listens.
// Strings here are byte strings: topics and payloads must be ASCII/latin1.
import { now } from "./clock";

export interface MqttOpts {
  host: string;
  port: number;
  /** client id */
  id: string;
  user: string;
  pass: string;
  /** will topic and payload (QoS 1, not retained) */
  wt: string;
  wm: string;
  /** keepalive, s */
  ka: number;
  /** topics subscribed (QoS 1) on every session */
  s: string[];
}

/** control packet types, the header byte's high nibble (MQTT 3.1.1 §2.2.1) */
var CONNACK = 2;
var PUBLISH = 3;
var PUBACK = 4;
var SUBACK = 9;

/** resend an unacknowledged QoS 1 publish after this many ms */
var RT = 3000;
/** most QoS 1 messages kept waiting; the oldest goes first */
var MAXQ = 12;

function u16(n: number): string {
  return String.fromCharCode((n >> 8) & 255, n & 255);
}
function ustr(s: string): string {
  return u16(s.length) + s;
}
/** A packet: fixed header byte `h`, the remaining length (§2.2.3: 7 bits a byte, low first), body `b`. */
function pkt(h: number, b: string): string {
  var l = b.length;
  var r = "";
  var d: number;
  do {
    d = l & 127;
    l = l >> 7;
    r += String.fromCharCode(l ? d | 128 : d);
  } while (l);
  return String.fromCharCode(h) + r + b;
}

interface Pending {
  p: string;
  t: number;
}

/** The one client of this gun: state readable from outside, callbacks set by the gun before it connects. */
export var mq = {
  /** connected and CONNACK accepted */
  up: false,
  /** why the last connection failed or ended */
  why: "",
} as {
  up: boolean;
  why: string;
  /** connects in a row that got no session (boards with "find": find.ts asks for the hub after a few) */
  fails: number;
  /** message received: topic, payload */
  onmsg: (t: string, m: string) => void;
  /** session up: connected, and subscribed to `s` */
  onup: () => void;
};

// (only a bundle that looks for its hub counts them: the ESP8266's has no byte to spare)
if (HAS_FIND) mq.fails = 0;

var O: MqttOpts;
var S: EspSocket | undefined;
var B = "";
var mid = 0;
var Q: { [id: string]: Pending } = {};
var nq = 0;
var tx = 0;
var rx = 0;
var back = 1000;
var tmo = 0;

/** boards with "find": the password of each CONNECT, made anew each time (a proof of the key: main.ts) */
var PW: (() => string) | undefined;

export function mqProof(f: () => string): void {
  PW = f;
}

export function mqInit(o: MqttOpts): void {
  O = o;
  setInterval(tick, 1000);
}

export function mqConnect(): void {
  tmo = 0;
  if (S) return;
  B = "";
  rx = now();
  var s: EspSocket | undefined;
  try {
    // biome-ignore lint/style/useNodejsImportProtocol: Espruino's built-in module, not Node's
    s = require("net").connect({ host: O.host, port: O.port }, function () {
      if (S !== s) return;
      w(
        pkt(
          0x10, // CONNECT (§3.1)
          ustr("MQTT") +
            "\x04\xce" + // level 4 = 3.1.1; flags (§3.1.2.3): user, pass, will QoS 1, will, clean session
            u16(O.ka) +
            ustr(O.id) +
            ustr(O.wt) +
            ustr(O.wm) +
            ustr(O.user) +
            ustr(HAS_FIND && PW ? PW() : O.pass),
        ),
      );
    });
  } catch (e) {
    mq.why = "net " + e;
    later();
    return;
  }
  S = s;
  s.on("data", function (d: string) {
    if (S === s) data(d);
  });
  s.on("close", function () {
    if (S === s) drop("closed");
  });
  s.on("error", function (e: any) {
    mq.why = "socket " + e;
  });
}

/** A new password (the hub's pairing key): reconnect with it at once. */
export function mqPass(p: string): void {
  O.pass = p;
  back = 1000;
  if (S) drop("new key");
}

/** Another broker address (find.ts): forget the socket or the wait, and connect there soon. */
export function mqTo(h: string, p: number): void {
  O.host = h;
  O.port = p;
  back = 500;
  if (S) drop("hub moved");
  else {
    clearTimeout(tmo);
    tmo = 0;
    later();
  }
}

/** Forget the socket and try again after the backoff. */
function drop(why: string): void {
  var s = S;
  S = undefined;
  mq.up = false;
  if (why !== "closed" || !mq.why) mq.why = why;
  console.log("CNG mqtt " + mq.why);
  if (s) {
    try {
      s.end();
    } catch (_e) {}
  }
  later();
}

function later(): void {
  if (HAS_FIND) mq.fails++;
  if (tmo) return;
  tmo = setTimeout(mqConnect, back);
  // capped low: a hub that restarts mid-game has its guns back within seconds of it, and a table's few guns are no
  // storm for a broker
  back = Math.min(back * 2, 8000);
}

function w(d: string): void {
  tx = now();
  // a socket the network closed before its "close" event came throws here ("This socket is closed")
  try {
    S!.write(d);
  } catch (e) {
    drop("write " + e);
  }
}

function data(d: string): void {
  var b: string;
  var l: number;
  var m: number;
  var i: number;
  var c: number;
  B += d;
  rx = now();
  for (;;) {
    b = B;
    l = 0;
    m = 1;
    i = 1;
    do {
      if (i >= b.length) return;
      c = b.charCodeAt(i++);
      l += (c & 127) * m;
      m *= 128;
    } while (c & 128);
    if (b.length < i + l) return;
    B = b.substr(i + l);
    pk(b.charCodeAt(0), b.substr(i, l));
    if (!S) return;
  }
}

/** One packet from the broker: header byte, body. */
function pk(h: number, p: string): void {
  var k = h >> 4;
  // the first two bytes: CONNACK's flags and return code, PUBLISH's topic length, PUBACK's and SUBACK's packet id
  var n = (p.charCodeAt(0) << 8) | p.charCodeAt(1);
  var i = 2 + n;
  var id: string;
  if (k === CONNACK) {
    // a return code other than 0 refuses the session (§3.2.2.3)
    if (p.charCodeAt(1)) {
      drop("connack " + p.charCodeAt(1));
      return;
    }
    mq.up = true;
    if (HAS_FIND) mq.fails = 0;
    back = 1000;
    mq.why = "";
    for (id in Q) resend(id);
    sub(O.s);
  } else if (k === PUBLISH) {
    // QoS in the header's bits 1-2 (§3.3.1.2): at QoS 1 the packet id follows the topic, and a PUBACK answers it
    if (h & 6) {
      w("\x40\x02" + p.substr(i, 2));
      i += 2;
    }
    mq.onmsg(p.substr(2, n), p.substr(i));
  } else if (k === PUBACK) {
    if (Q[n]) {
      delete Q[n];
      nq--;
    }
  } else if (k === SUBACK) mq.onup();
  // PINGRESP (§3.13) only refreshes rx
}

function resend(id: string): void {
  var e = Q[id];
  e.t = now();
  // DUP flag on every resend (§3.3.1.1)
  w(String.fromCharCode(e.p.charCodeAt(0) | 8) + e.p.substr(1));
}

/** Publish; QoS 1 is kept (also while offline) until the broker acknowledges it. */
export function pub(t: string, m: string, qos: number, ret: boolean): void {
  var f = 0x30 | (ret ? 1 : 0);
  if (!qos) {
    if (mq.up) w(pkt(f, ustr(t) + m));
    return;
  }
  mid = (mid % 65535) + 1;
  var p = pkt(f | 2, ustr(t) + u16(mid) + m);
  var old: string;
  if (nq >= MAXQ) {
    for (old in Q) {
      delete Q[old];
      break;
    }
    nq--;
  }
  Q[mid] = { p: p, t: now() };
  nq++;
  if (mq.up) w(p);
}

function sub(ts: string[]): void {
  var b = u16(0xffff);
  var i: number;
  for (i = 0; i < ts.length; i++) b += ustr(ts[i]) + "\x01";
  // SUBSCRIBE's header has its reserved bits 0010 (§3.8.1); each topic asks for QoS 1
  w(pkt(0x82, b));
}

function tick(): void {
  if (!S) return;
  var n = now();
  var ka = O.ka * 1000;
  var id: string;
  if (n - rx > (mq.up ? ka * 1.5 : 10000)) {
    drop("timeout");
    return;
  }
  if (!mq.up) return;
  // PINGREQ (§3.12) at half the keepalive: the broker drops a client silent for 1.5 of it (§3.1.2.10)
  if (n - tx >= ka / 2) w("\xc0\x00");
  for (id in Q) if (n - Q[id].t >= RT) resend(id);
}
