// What a chip's Espruino build does with the pins the gun's parts hang on, for both board models (ES5: the real
// interpreter's board is given this source): the buzzer's tone and the LED's colour from digitalWrite, analogWrite
// and the neopixel module; an ESP32's DAC pins, which hold a DC level instead of PWM; the serial ports' default pins
// (hardware/chips.json). Pins are whatever the runtime compares with == (Espruino's Pin values, the vm's names).

/** Forward voltage of each leg of an RGB LED at a few mA, volts (typical 5 mm common-cathode parts). */
export var LED_VF = { r: 1.9, g: 2.8, b: 2.8 };

/**
 * How bright an LED leg on a DAC pin lights, 0..1 of a digital high: the DAC holds a DC level (`v` of 3.3 V, in 8 bits
 * as Espruino writes it: 1.0 wraps to 0), and the LED conducts only above its forward voltage `vf`.
 */
export function dacLed(v, vf) {
  var dc = (((v * 256) | 0) & 255) / 256;
  v = (dc * 3.3 - vf) / (3.3 - vf);
  return v > 0 ? v : 0;
}

/**
 * The gun's outputs: `o` names the buzzer's pin (bz), the LED's kind ("rgb": legs pr, pg, pb, inverted when inv;
 * "neopixel": on pin), the chip's DAC pins (dac); `show(c)` hears each LED colour 0xRRGGBB, `sound(f)` each buzzer
 * frequency (0: silent), from the first write on; `log` says what Espruino prints.
 */
export function Outputs(o, show, sound, log) {
  this.o = o;
  this.show = show;
  this.sound = sound;
  this.log = log;
  this.rgb = [0, 0, 0];
  this.c = -1;
  this.f = -1;
}

/** A pin driven at `v` (0..1: a digital level or a PWM duty cycle), at `f` Hz. */
Outputs.prototype.write = function (p, v, f) {
  var o = this.o;
  var k = p == o.pr ? 0 : p == o.pg ? 1 : p == o.pb ? 2 : -1;
  if (p == o.bz) f = v > 0 && f ? f : 0;
  else if (o.kind === "rgb" && k >= 0) {
    if (o.inv) v = 1 - v;
    v = Math.round(v * 255);
    this.rgb[k] = v < 0 ? 0 : v > 255 ? 255 : v;
    return this.colour((this.rgb[0] << 16) | (this.rgb[1] << 8) | this.rgb[2]);
  } else return;
  if (f === this.f) return;
  this.f = f;
  this.sound(f);
};

/** analogWrite(p, v, opts): PWM, or on a DAC pin a DC level that ignores freq (no tone) and refuses soft PWM. */
Outputs.prototype.analog = function (p, v, opts) {
  var o = this.o;
  var i;
  for (i = 0; i < o.dac.length; i++) if (p == o.dac[i]) break;
  if (i === o.dac.length) return this.write(p, v, opts && opts.freq);
  if (opts && (opts.soft || opts.forceSoft)) this.log("ERROR: pin does not support software PWM");
  if (p == o.bz || o.kind !== "rgb") return this.write(p, 0);
  this.write(p, dacLed(v, p == o.pr ? LED_VF.r : p == o.pg ? LED_VF.g : LED_VF.b));
};

/** require("neopixel").write(p, [g, r, b]) */
Outputs.prototype.neopixel = function (p, d) {
  if (this.o.kind === "neopixel" && p == this.o.pin)
    this.colour(((d[1] & 255) << 16) | ((d[0] & 255) << 8) | (d[2] & 255));
};

Outputs.prototype.colour = function (c) {
  if (c === this.c) return;
  this.c = c;
  this.show(c);
};

/**
 * What a serial port set up without a pin drives: the chip's default (ESP32 Serial2: TX on D4, `defaults` from
 * hardware/chips.json), a clash where the board has a part on it (`parts`: pin name → part).
 */
export function serialClashes(name, opts, defaults, parts) {
  var d = defaults[name];
  var ks = ["tx", "rx"];
  var out = [];
  var i;
  var k;
  var at;
  if (!d) return out;
  for (i = 0; i < 2; i++) {
    k = ks[i];
    at = "D" + d[k];
    if ((!opts || opts[k] === undefined) && parts[at])
      out.push(at + ": " + name + "'s default " + k.toUpperCase() + " and the " + parts[at]);
  }
  return out;
}
