// LED and buzzer: raw outputs, and a player for hub cues (flat [value, ms, ...] step lists)
// scheduled at absolute gun times so that all guns given the same hub time play together.
import { now } from "./clock";

var L = BOARD.led;
var Z = BOARD.bz;
var lastC = -1;

/** Show a colour 0xRRGGBB. */
export function led(c: number): void {
  if (c === lastC) return;
  lastC = c;
  var m = L.max || 1;
  var r = ((c >> 16) & 255) * m;
  var g = ((c >> 8) & 255) * m;
  var b = (c & 255) * m;
  if (LED_KIND === "neopixel") {
    // WS2812 wants green, red, blue
    require("neopixel").write(L.pin, [g | 0, r | 0, b | 0]);
  } else {
    pwm(L.pr, r);
    pwm(L.pg, g);
    pwm(L.pb, b);
  }
}

function pwm(p: Pin, v: number) {
  v = v / 255;
  if (LED_INV) v = 1 - v;
  // an ESP8266's analogWrite is software PWM, at 50 Hz (a visible flicker) unless told; 0 and 1 end it there with the
  // pin low or high (Espruino's jstPinPWM)
  if (CHIP === "ESP8266") analogWrite(p, v, { freq: 200 });
  else if (v <= 0) digitalWrite(p, 0);
  else if (v >= 1) digitalWrite(p, 1);
  else analogWrite(p, v);
}

/** Buzzer at `f` Hz; 0 = silent. */
export function tone(f: number): void {
  // (an ESP8266's is software PWM whatever the options say: targets/esp8266/jshardware.c, no HARDWARE_PWM)
  if (f > 0) analogWrite(Z.pin, 0.5, { freq: f });
  else digitalWrite(Z.pin, 0);
}

/** One running step list per output; a new cue replaces what plays. */
interface Track {
  h: number;
  a: number[] | undefined;
}
var tl: Track = { h: 0, a: undefined };
var tb: Track = { h: 0, a: undefined };

/** Buzzer busy with a cue (the trigger click then keeps quiet). */
export function busy(): boolean {
  return !!tb.a;
}

function stop(k: Track) {
  if (k.h) clearTimeout(k.h);
  k.h = 0;
  k.a = undefined;
}

function run(k: Track, a: number[], rp: number, t: number, out: (v: number) => void, end: number) {
  stop(k);
  if (!a?.length) return;
  k.a = a;
  var i = 0;
  var n = rp;
  // an expression, called below: terser would move a declaration after its first call
  var go = function () {
    k.h = 0;
    if (i >= a.length) {
      i = 0;
      if (--n <= 0) {
        k.a = undefined;
        if (end >= 0) out(end);
        return;
      }
    }
    out(a[i]);
    t += a[i + 1];
    i += 2;
    k.h = setTimeout(go, Math.max(0, t - now()));
  };
  // due already (a cue's own timer brought it here): at once, not a loop turn later
  if (t - now() > 0) k.h = setTimeout(go, t - now());
  else go();
}

/** Cues waiting for their start time (a count comes as three cues at once: beat, beat, go). */
var wait: number[] = [];

function start(l: number[] | undefined, b: number[] | undefined, rp: number, t: number) {
  if (l) run(tl, l, rp, t, led, -1);
  if (b) run(tb, b, rp, t, tone, 0);
}

/**
 * Play LED steps `l` and buzzer steps `b`, `rp` times, starting at gun ms `t`. The last colour stays on. A cue
 * replaces what plays when it starts, not when it arrives: a later beat must not cancel an earlier one.
 */
export function play(l: number[] | undefined, b: number[] | undefined, rp: number, t: number): void {
  var d = t - now();
  var h: number;
  if (d <= 0) {
    start(l, b, rp, t);
    return;
  }
  h = setTimeout(function () {
    wait.splice(wait.indexOf(h), 1);
    start(l, b, rp, t);
  }, d);
  wait.push(h);
}

/** Stop everything, and what was waiting to start: LED off, buzzer silent. */
export function quiet(): void {
  while (wait.length) clearTimeout(wait.pop()!);
  stop(tl);
  stop(tb);
  led(0);
  tone(0);
}

/** The local click on a pull: short, at once, no network involved. */
export function click(): void {
  if (busy()) return;
  tone(2400);
  setTimeout(function () {
    if (!busy()) tone(0);
  }, 15);
}
