// The board around the real Espruino interpreter (its Linux build), for tests and benchmarks. The harness
// (hub/src/sim/espruino/real-gun.ts) stores it as `.boot0`, next to the firmware's `.bootcde` and `gun.json`, so the
// interpreter boots it the way a flashed board boots: .boot0, then .bootcde, then E.on("init").
// It gives the firmware what a gun's board has and Linux lacks: ESP pin names (A0), the ESP32/ESP8266 objects, a
// Wifi module, an MPU-6050 on I2C1 (register level), BNO085 UART-RVC frames on the profile's serial port, the trigger
// on setWatch, the NeoPixel / PWM LED and the buzzer; `require("net")` stays the real TCP, only watched.
// ES5 for Espruino: everything is defined before it is used (no hoisting); builtin objects are replaced by plain
// assignment at the top level (the only way Espruino lets a script shadow them), builtin functions through `global`.
//
// The link to the harness is the interpreter's USB device, i.e. its stdin and stdout:
//  - reports go out as "\x01<kind><json>\n", written straight to USB wherever the console is;
//  - commands come in as "\x10<js>\n" lines: the REPL runs them while the console is on USB (\x10 = no echo), and
//    this board runs them itself once the firmware has moved the console away (the serial link).
// `__c`, written before this file by the harness, is the board: pins, IMU, battery and model settings; `adcCount`
// (hardware/tools/adc.mjs, written before it too) the count the chip's ADC gives for the volts at a pin.
var __b = {
  /** getTime() when the firmware starts: gun ms 0 */
  g0: getTime(),
  /** peak tracking on, and the peak JsVars seen at a hardware call */
  pt: 0,
  pk: 0,
  /** last command from the harness (watchdog) */
  lc: getTime(),
  /** WiFi connects left to fail */
  wf: __c.wf || 0,
};

__b.rep = function (k, v) {
  USB.write("\x01" + k + (v === undefined ? "" : JSON.stringify(v)) + "\n");
};
__b.ms = function () {
  return Math.round((getTime() - __b.g0) * 10000) / 10;
};
__b.peak = function () {
  var u;
  if (__b.pt) {
    // the object process.memory builds is counted in `usage`: one JsVar
    u = process.memory(false).usage - 1;
    if (u > __b.pk) __b.pk = u;
  }
};

// ---- pins: Linux has D0..D40 (patched build), a board has A0 too (ESP8266: GPIO17)
A0 = D17;
__b.pin = function (s) {
  return s ? eval(s) : undefined;
};
__b.TRIG = __b.pin(__c.trig.pin);
__b.BZ = __b.pin(__c.bz);
__b.BAT = __c.bat ? __b.pin(__c.bat.pin) : undefined;
__b.NP = __c.led.kind === "neopixel" ? __b.pin(__c.led.pin) : undefined;
__b.PR = __b.pin(__c.led.pr);
__b.PG = __b.pin(__c.led.pg);
__b.PB = __b.pin(__c.led.pb);

if (__c.chip === "ESP32") {
  ESP32 = {
    getState: function () {
      return { sdkVersion: "linux", freeHeap: process.memory(false).free * 16 };
    },
    setBLE_Power: function () {},
    deepSleep: function () {
      E.reboot();
    },
  };
} else if (__c.chip === "NRF52") {
  // a Puck.js v2 (Espruino's boards/PUCKJS.py): its LEDs and button by name; its coin cell in percent, as its
  // E.getBattery counts it (2.2-2.8 V of a CR2032); the Puck object and the Bluetooth device come below
  LED1 = D5;
  LED2 = D4;
  LED3 = D3;
  BTN1 = D0;
  BTN = D0;
  E.getBattery = function () {
    var v = ((((__c.bat && __c.bat.v) || 2.75) - 2.2) * 100) / 0.6;
    return v > 100 ? 100 : v < 0 ? 0 : v | 0;
  };
} else if (__c.chip === "ESP8266") {
  ESP8266 = {
    getState: function () {
      return { sdkVersion: "linux", freeHeap: process.memory(false).free * 12 };
    },
    reboot: function () {
      E.reboot();
    },
    deepSleep: function () {
      E.reboot();
    },
  };
}

// ---- outputs: the LED colour and the buzzer frequency, reported when they change
__b.lc0 = -1;
__b.tf = -1;
__b.r = 0;
__b.g = 0;
__b.b = 0;
__b.led = function (c) {
  if (c === __b.lc0) return;
  __b.lc0 = c;
  __b.rep("L", [__b.ms(), c]);
};
__b.tone = function (f) {
  if (f === __b.tf) return;
  __b.tf = f;
  __b.rep("T", [__b.ms(), f]);
};
__b.ch = function (v) {
  if (__c.led.inv) v = 1 - v;
  v = Math.round(v * 255);
  return v < 0 ? 0 : v > 255 ? 255 : v;
};
/** an ESP32's DAC pins (D25/D26): analogWrite there holds a DC level, no PWM, no tone (hardware/chips.json) */
__b.DAC = __c.cf.dac.map(function (g) {
  return eval("D" + g);
});
__b.dac = function (p) {
  var i;
  for (i = 0; i < __b.DAC.length; i++) if (p == __b.DAC[i]) return true;
  return false;
};
/** how bright an LED leg lights on a DC level `v` of 3.3 V written as 8 bits (1.0 wraps to 0), forward voltage `vf` */
__b.dcLed = function (v, vf) {
  var dc = (((v * 256) | 0) & 255) / 256;
  v = (dc * 3.3 - vf) / (3.3 - vf);
  return v > 0 ? v : 0;
};
__b.out = function (p, v, f) {
  __b.peak();
  if (p == __b.BZ) __b.tone(v > 0 && f ? f : 0);
  else if (__c.led.kind === "rgb") {
    if (p == __b.PR) __b.r = __b.ch(v);
    else if (p == __b.PG) __b.g = __b.ch(v);
    else if (p == __b.PB) __b.b = __b.ch(v);
    else return;
    __b.led((__b.r << 16) | (__b.g << 8) | __b.b);
  }
};
global.digitalWrite = function (p, v) {
  __b.out(p, v ? 1 : 0);
};
global.analogWrite = function (p, v, o) {
  if (!__b.dac(p)) return __b.out(p, v, o && o.freq);
  if (o && (o.soft || o.forceSoft)) console.log("ERROR: pin does not support software PWM");
  if (p == __b.BZ || __c.led.kind !== "rgb") __b.out(p, 0);
  else __b.out(p, __b.dcLed(v, __c.cf.vf[p == __b.PR ? 0 : p == __b.PG ? 1 : 2]));
};
global.pinMode = function () {};
/** The harness sets the battery's volts (a discharge). */
__b.bv = function (v) {
  __b.lc = getTime();
  __c.bat.v = v;
};
global.analogRead = function (p) {
  var b = __c.bat;
  if (__b.BAT !== undefined && p == __b.BAT) return adcCount(b.adc, (b.v || 3.9) / b.div, b.vref) / b.adc.counts;
  return Math.random() * 0.01;
};
Modules.addCached("neopixel", function () {
  exports.write = function (p, d) {
    __b.peak();
    if (p == __b.NP) __b.led(((d[1] & 255) << 16) | ((d[0] & 255) << 8) | (d[2] & 255));
  };
});

// ---- the trigger: a button on a pin, Espruino's setWatch with debounce
__b.lv = __c.trig.pressed ? 0 : 1;
__b.w = [];
__b.le = 0;
global.setWatch = function (fn, p, o) {
  __b.w.push({ f: fn, p: p, d: (o && o.debounce) || 0, h: 0 });
  return __b.w.length;
};
global.clearWatch = function (id) {
  if (id) __b.w[id - 1] = undefined;
  else __b.w = [];
};
global.digitalRead = function (p) {
  return p == __b.TRIG ? __b.lv : 0;
};
/** Arms watch `x` for level `v` seen at `edge`: it fires once the level has held for its debounce. */
__b.arm = function (x, v, edge) {
  if (x.h) clearTimeout(x.h);
  x.h = setTimeout(function () {
    x.h = 0;
    if (__b.lv !== v) return;
    var e = { state: v === 1, time: edge, lastTime: __b.le };
    __b.le = edge;
    x.f(e);
  }, x.d);
};
/** The harness presses (1) or releases (0) the trigger. */
__b.t = function (down) {
  var v = down ? (__c.trig.pressed ? 1 : 0) : __c.trig.pressed ? 0 : 1;
  var edge = getTime();
  var i;
  __b.lc = edge;
  if (v === __b.lv) return;
  __b.lv = v;
  for (i = 0; i < __b.w.length; i++) {
    if (__b.w[i] && __b.w[i].p == __b.TRIG) __b.arm(__b.w[i], v, edge);
  }
};

// ---- motion: keyframes [gun ms, yaw, pitch, roll] from the harness, played back by linear interpolation
__b.N = 12;
__b.kt = new Float64Array(__b.N);
__b.ky = new Float64Array(__b.N);
__b.kp = new Float64Array(__b.N);
__b.kr = new Float64Array(__b.N);
__b.kn = 1;
__b.ky[0] = __c.pose[0];
__b.kp[0] = __c.pose[1];
__b.kr[0] = __c.pose[2];
__b.kt[0] = -1e9;
/** the pose now (degrees) and its rates (degrees per second) */
__b.Y = __c.pose[0];
__b.P = __c.pose[1];
__b.R = __c.pose[2];
__b.dY = 0;
__b.dP = 0;
__b.dR = 0;
__b.ad = function (d) {
  d = d % 360;
  if (d > 180) d -= 360;
  if (d <= -180) d += 360;
  return d;
};
/** A keyframe: the pose at gun ms `t`; keyframes come in time order. */
__b.p = function (t, y, p, r) {
  var n = __b.kn;
  var i;
  __b.lc = getTime();
  if (n === __b.N) {
    for (i = 1; i < n; i++) {
      __b.kt[i - 1] = __b.kt[i];
      __b.ky[i - 1] = __b.ky[i];
      __b.kp[i - 1] = __b.kp[i];
      __b.kr[i - 1] = __b.kr[i];
    }
    n--;
  }
  __b.kt[n] = t;
  __b.ky[n] = y;
  __b.kp[n] = p;
  __b.kr[n] = r;
  __b.kn = n + 1;
};
/** Sets the pose and rates for gun ms `t`. */
__b.at = function (t) {
  var n = __b.kn;
  var i = n - 1;
  var f;
  var d;
  while (i > 0 && __b.kt[i] > t) i--;
  if (i === n - 1 || __b.kt[i] > t) {
    // past the last keyframe (or before the first): hold still
    __b.Y = __b.ky[i];
    __b.P = __b.kp[i];
    __b.R = __b.kr[i];
    __b.dY = __b.dP = __b.dR = 0;
    return;
  }
  d = (__b.kt[i + 1] - __b.kt[i]) / 1000;
  f = (t - __b.kt[i]) / 1000;
  __b.dY = __b.ad(__b.ky[i + 1] - __b.ky[i]) / d;
  __b.dP = (__b.kp[i + 1] - __b.kp[i]) / d;
  __b.dR = __b.ad(__b.kr[i + 1] - __b.kr[i]) / d;
  __b.Y = __b.ky[i] + __b.dY * f;
  __b.P = __b.kp[i] + __b.dP * f;
  __b.R = __b.kr[i] + __b.dR * f;
};
/** gyro bias (°/s per axis), gyro noise (°/s) and accelerometer noise (g), from the harness */
__b.gb = __c.bias || [0, 0, 0];
__b.gn = __c.gn || 0;
__b.an = __c.an || 0;
/** white noise on the yaw a BNO085 reports, ° per frame (the accuracy bench's σ) */
__b.yn = __c.yn || 0;
__b.gs = function (x, y, z, gn, an) {
  __b.gb = [x, y, z];
  __b.gn = gn;
  __b.an = an;
};
__b.gauss = function () {
  var u = Math.random() || 1e-12;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * Math.random());
};

// ---- how the chip sits in the gun (`__c.imu.mount`, as gun.json names it: the chip axis along the barrel, then the
// chip axis up; shared/protocol/src/mount.ts): [i0, s0, i1, s1, i2, s2], the gun's axis k is s_k × the chip's i_k
__b.mx = (function (m) {
  var i = "xyz".indexOf(m.charAt(1));
  var j = "xyz".indexOf(m.charAt(3));
  var a = m.charAt(0) === "-" ? -1 : 1;
  var b = m.charAt(2) === "-" ? -1 : 1;
  return [i, a, 3 - i - j, ((j - i + 3) % 3 === 1 ? -1 : 1) * a * b, j, b];
})(__c.imu.mount || "+x+z");
/** a vector in the gun's frame → the chip's */
__b.chip = function (v) {
  var c = [0, 0, 0];
  var k;
  for (k = 0; k < 3; k++) c[__b.mx[2 * k]] = __b.mx[2 * k + 1] * v[k];
  return c;
};

// ---- MPU-6050 at 0x68 on I2C1: the registers the firmware touches, sampled from the motion when read
__b.RG = new Uint8Array(128);
// WHO_AM_I: an MPU-6050 answers 0x68, an MPU-6500 0x70, a clone 0x98 (the harness says which chip this is)
__b.RG[0x75] = __c.imu.who;
__b.RG[0x6b] = 0x40; // asleep after power-on
__b.ptr = 0;
__b.AD = (__c.imu && __c.imu.addr) || 0x68;
__b.put = function (i, v) {
  v = Math.round(v);
  if (v > 32767) v = 32767;
  if (v < -32768) v = -32768;
  __b.RG[i] = (v >> 8) & 255;
  __b.RG[i + 1] = v & 255;
};
/** the pose at the previous sample, and when: the gyro reads what turned since then */
__b.sp = [__c.pose[0], __c.pose[1], __c.pose[2], -1];
/** °/s: a pose the harness's late feed left behind is caught up no faster than this, inside every chip's range */
__b.CATCH = 1500;
/**
 * s: a sample this long after the previous one comes after this machine stalled the interpreter (a running chip
 * samples at 10 Hz or more), a gap the firmware does not integrate: the motion is held meanwhile, then caught up
 */
__b.STALL = 0.15;
/**
 * One axis's step since the last sample: what the motion did in that time (`d`), plus as much of what the played
 * pose still lags (`lag`: a feed that came late held it still meanwhile) as keeps the rate under CATCH.
 */
__b.step = function (d, lag, dt) {
  var room = __b.CATCH * dt - Math.abs(d);
  if (room <= 0 || lag === 0) return d;
  return d + (lag > room ? room : lag < -room ? -room : lag);
};
/**
 * What a chip senses at `t` (ms) of the motion since its previous sample `q` ([yaw, pitch, roll, ms], ms < 0: none
 * yet; updated here): [gravity's reaction in g, body rates in °/s], each along the chip's own axes. The rates are the
 * Euler rates of the pose played since then, so they add up to exactly where the gun went. When the harness's feed
 * came late the pose was held still meanwhile: the motion is then played late, never as a jump faster than a chip
 * can read (a simulator's stall must not clip the gyro; a real quick swing still does).
 */
__b.sense = function (q, t) {
  var K = Math.PI / 180;
  var dt = q[3] < 0 ? 0 : (t - q[3]) / 1000;
  var y0;
  var p0;
  var r0;
  if (dt > 0) {
    // where the motion was at the last sample, as the keyframes now tell it
    __b.at(q[3]);
    y0 = __b.Y;
    p0 = __b.P;
    r0 = __b.R;
  }
  __b.at(t);
  if (dt > __b.STALL) {
    __b.Y = q[0];
    __b.P = q[1];
    __b.R = q[2];
  } else if (dt > 0) {
    __b.Y = q[0] + __b.step(__b.ad(__b.Y - y0), __b.ad(y0 - q[0]), dt);
    __b.P = q[1] + __b.step(__b.P - p0, p0 - q[1], dt);
    __b.R = q[2] + __b.step(__b.ad(__b.R - r0), __b.ad(r0 - q[2]), dt);
  }
  var dY = dt > 0 ? __b.ad(__b.Y - q[0]) / dt : 0;
  var dP = dt > 0 ? (__b.P - q[1]) / dt : 0;
  var dR = dt > 0 ? __b.ad(__b.R - q[2]) / dt : 0;
  var p = (__b.P + q[1]) * 0.5 * K;
  var r = (q[2] + __b.ad(__b.R - q[2]) * 0.5) * K;
  var cp = Math.cos(p);
  q[0] = __b.Y;
  q[1] = __b.P;
  q[2] = __b.R;
  q[3] = t;
  // Euler rates (yaw about z, pitch nose up, roll about the barrel) to body rates, °/s, at the interval's middle
  var w = [dR + dY * Math.sin(p), -dP * Math.cos(r) + dY * cp * Math.sin(r), dP * Math.sin(r) + dY * cp * Math.cos(r)];
  // gravity's reaction in the body frame (x along the barrel, y left, z up), in g, now
  p = __b.P * K;
  r = __b.R * K;
  cp = Math.cos(p);
  return [__b.chip([Math.sin(p), cp * Math.sin(r), cp * Math.cos(r)]), __b.chip(w)];
};
__b.sample = function () {
  var asleep = (__b.RG[0x6b] & 0x40) !== 0;
  var aL = 16384 / (1 << ((__b.RG[0x1c] >> 3) & 3));
  var gL = [131, 65.5, 32.8, 16.4][(__b.RG[0x1b] >> 3) & 3];
  var aw = __b.sense(__b.sp, __b.ms());
  var a = aw[0];
  var w = aw[1];
  var i;
  for (i = 0; i < 3; i++) {
    __b.put(0x3b + 2 * i, asleep ? 0 : (a[i] + __b.an * __b.gauss()) * aL);
    __b.put(0x43 + 2 * i, asleep ? 0 : (w[i] + __b.gb[i] + __b.gn * __b.gauss()) * gL);
  }
  __b.put(0x41, 0);
};
/** time spent in the model, and whether the running callback read the IMU (for the bench) */
__b.mt = 0;
__b.rd = 0;
__b.i2c = {
  setup: function () {},
  writeTo: function (a, d) {
    var i;
    var t = getTime();
    __b.peak();
    if (a !== __b.AD || __c.imu.kind !== "mpu6050") throw new Error("I2C: no ACK");
    if (typeof d === "number") __b.ptr = d & 0x7f;
    else {
      __b.ptr = d[0] & 0x7f;
      for (i = 1; i < d.length; i++) __b.RG[(__b.ptr + i - 1) & 0x7f] = d[i] & 255;
    }
    __b.mt += getTime() - t;
  },
  readFrom: function (a, n) {
    var i;
    var o;
    var t = getTime();
    __b.peak();
    if (a !== __b.AD || __c.imu.kind !== "mpu6050") throw new Error("I2C: no ACK");
    if (__b.ptr === 0x3b) {
      __b.sample();
      __b.rd = 1;
    }
    o = new Uint8Array(n);
    for (i = 0; i < n; i++) o[i] = __b.RG[(__b.ptr + i) & 0x7f];
    __b.mt += getTime() - t;
    return o;
  },
};
I2C1 = __b.i2c;

// ---- BNO085 in UART-RVC mode: 19-byte frames at 100 Hz on the profile's serial port
__b.ri = 0;
__b.frame = function () {
  var K = Math.PI / 180;
  __b.at(__b.ms());
  var y = __b.Y * K;
  var p = __b.P * K;
  var r = __b.R * K;
  var cy = Math.cos(y);
  var sy = Math.sin(y);
  var cp = Math.cos(p);
  var sp = Math.sin(p);
  var cr = Math.cos(r);
  var sr = Math.sin(r);
  // the gun's axes in the world, Rz(yaw) · Ry(−pitch) · Rx(roll), as columns; the chip's axis mx[2k] is the gun's
  // axis k times its sign: the chip's own yaw, pitch, roll and gravity are what it reports
  var g = [
    cy * cp,
    -cy * sp * sr - sy * cr,
    -cy * sp * cr + sy * sr,
    sy * cp,
    -sy * sp * sr + cy * cr,
    -sy * sp * cr - cy * sr,
    sp,
    cp * sr,
    cp * cr,
  ];
  var c = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  var k;
  var j;
  for (k = 0; k < 3; k++) for (j = 0; j < 3; j++) c[j * 3 + __b.mx[2 * k]] = __b.mx[2 * k + 1] * g[j * 3 + k];
  // the chip's pitch at ±90° (its x axis upright): yaw and roll are one turn there, told as yaw with roll 0
  var lk = c[6] > 0.999999 || c[6] < -0.999999;
  var v = [
    ((lk ? Math.atan2(-c[1], c[4]) : Math.atan2(c[3], c[0])) / K) * 100,
    (Math.asin(c[6] > 1 ? 1 : c[6] < -1 ? -1 : c[6]) / K) * 100,
    (lk ? 0 : Math.atan2(c[7], c[8]) / K) * 100,
    c[6] * 1000,
    c[7] * 1000,
    c[8] * 1000,
  ];
  if (__b.yn) {
    v[0] += __b.yn * __b.gauss() * 100;
    if (v[0] > 18000) v[0] -= 36000;
    else if (v[0] <= -18000) v[0] += 36000;
  }
  var b = [0xaa, 0xaa, __b.ri++ & 255];
  var i;
  var x;
  var s = 0;
  for (i = 0; i < 6; i++) {
    x = Math.round(v[i]);
    x = (x > 32767 ? 32767 : x < -32768 ? -32768 : x) & 0xffff;
    b.push(x & 255, x >> 8);
  }
  b.push(0, 0, 0);
  for (i = 2; i < 18; i++) s += b[i];
  b.push(s & 255);
  return String.fromCharCode.apply(null, b);
};
/** a serial port set up without a pin takes the chip's default one (ESP32 Serial2: TX on D4): a part there clashes */
__b.serDefaults = function (name, o) {
  var d = __c.cf.ser[name];
  var k;
  var at;
  if (!d) return;
  for (k in { tx: 1, rx: 1 }) {
    at = "D" + d[k];
    if ((!o || o[k] === undefined) && __c.parts[at])
      __b.rep("X", at + ": " + name + "'s default " + k.toUpperCase() + " and the " + __c.parts[at]);
  }
};
__b.rvc = {
  h: undefined,
  setup: function (_baud, o) {
    __b.serDefaults(__c.imu.ser, o);
    if (__b.rvc.t) return;
    __b.rvc.t = setInterval(function () {
      var f = __b.frame();
      var h = __b.rvc.h;
      var t;
      if (!h) return;
      t = getTime();
      // frames do not arrive whole: every third one comes in two pieces
      if (__b.ri % 3) h(f);
      else {
        h(f.substr(0, 7));
        h(f.substr(7));
      }
      if (__b.pf) {
        __b.pf.n++;
        __b.pf.s += getTime() - t;
      }
    }, 10);
  },
  on: function (ev, fn) {
    if (ev === "data") __b.rvc.h = fn;
  },
  removeAllListeners: function (ev) {
    if (!ev || ev === "data") __b.rvc.h = undefined;
  },
  write: function () {},
};
if (__c.imu.kind === "bno085") eval(__c.imu.ser + " = __b.rvc");

// ---- Puck.js v2: its LSM6DS3TR-C as Espruino's Puck object gives it (libs/puckjs/jswrap_puck.c): accelOn(hz) at
// 12.5-208 Hz sets CTRL1_XL to ±4 g and CTRL2_G to ±250 °/s, then emits `accel` {acc:{x,y,z}, gyro:{x,y,z}} per
// sample, raw int16 counts along the chip's axes at the ranges the registers say (accelWr changes them)
__b.odr = [12.5, 26, 52, 104, 208];
/** the `accel` handlers */
__b.ah = [];
__b.LR = new Uint8Array(128);
// WHO_AM_I of the LSM6DS3TR-C
__b.LR[0x0f] = 0x6a;
__b.lsp = [__c.pose[0], __c.pose[1], __c.pose[2], -1];
/** a count as the chip gives it: int16 (a function made per sample would be a garbage cycle, counted at the peak) */
__b.i16 = function (v) {
  v = Math.round(v);
  return v > 32767 ? 32767 : v < -32768 ? -32768 : v;
};
/** one sample of the LSM6DS3 from the motion, as the MPU-6050's (Euler rates over the interval since the last one) */
__b.lsm = function () {
  var g2 = __b.LR[0x11];
  var aL = [16384, 2048, 8192, 4096][(__b.LR[0x10] >> 2) & 3];
  // °/s per count: 4.375, or 8.75, 17.5, 35, 70 m°/s (datasheet)
  var gL = 1000 / (g2 & 2 ? 4.375 : [8.75, 17.5, 35, 70][(g2 >> 2) & 3]);
  var c = __b.i16;
  var aw = __b.sense(__b.lsp, __b.ms());
  var a = aw[0];
  var w = aw[1];
  return {
    acc: {
      x: c((a[0] + __b.an * __b.gauss()) * aL),
      y: c((a[1] + __b.an * __b.gauss()) * aL),
      z: c((a[2] + __b.an * __b.gauss()) * aL),
    },
    gyro: {
      x: c((w[0] + __b.gb[0] + __b.gn * __b.gauss()) * gL),
      y: c((w[1] + __b.gb[1] + __b.gn * __b.gauss()) * gL),
      z: c((w[2] + __b.gb[2] + __b.gn * __b.gauss()) * gL),
    },
  };
};
if (__c.chip === "NRF52") {
  Puck = {
    accelOn: function (hz) {
      var i = __b.odr.indexOf(hz === undefined ? 12.5 : hz);
      if (i < 0)
        throw new Error("Invalid sample rate " + hz + " - must be 1660, 833, 416, 208, 104, 52, 26, 12.5, 1.6 Hz");
      Puck.accelOff();
      __b.LR[0x10] = ((i + 1) << 4) | 0x0b;
      __b.LR[0x11] = (i + 1) << 4;
      __b.lsp[3] = -1;
      __b.lt = setInterval(function () {
        var t = getTime();
        var e;
        var k;
        __b.peak();
        e = __b.lsm();
        __b.mt += getTime() - t;
        __b.rd = 1;
        // called here, as the Puck's own idle loop calls them: the bench times the firmware's work per sample
        for (k = 0; k < __b.ah.length; k++) __b.ah[k](e);
      }, 1000 / __b.odr[i]);
    },
    on: function (ev, fn) {
      if (ev === "accel") __b.ah.push(fn);
    },
    accelOff: function () {
      if (__b.lt) clearInterval(__b.lt);
      __b.lt = 0;
    },
    accelWr: function (r, v) {
      __b.peak();
      __b.LR[r & 0x7f] = v & 255;
    },
    accelRd: function (r) {
      return __b.LR[r & 0x7f];
    },
    /** on a Puck: the last sample while on, else one taken now; here always one taken now */
    accel: function () {
      return __b.lsm();
    },
    getBatteryPercentage: function () {
      return E.getBattery();
    },
  };
}

// ---- WiFi: connects after 100 ms (or fails `wf` times first); the radio's power save as the chip's Espruino has
// it (`ps`: the modes it takes, the first where it starts; `psr`: what its status call names them), reported
__b.ps = __c.ps ? __c.ps[0] : undefined;
if (__b.ps) __b.rep("P", __b.ps);
Modules.addCached("Wifi", function () {
  var h = {};
  exports.setConfig = function (o) {
    if (!o || o.powersave === undefined) return;
    if (!__c.ps || __c.ps.indexOf(o.powersave) < 0) throw new Error("Unknown powersave mode");
    __b.ps = o.powersave;
    __b.rep("P", __b.ps);
  };
  exports.connect = function (ssid, o, cb) {
    __b.rep("W", [ssid, o && o.password]);
    setTimeout(function () {
      cb(__b.wf-- > 0 ? "auth failed" : null);
    }, 100);
  };
  exports.on = function (ev, fn) {
    h[ev] = fn;
  };
  exports.getIP = function () {
    return { ip: "127.0.0.1" };
  };
  // the signal (dBm) where each chip's Espruino has it: ESP32 in getStatus, ESP8266 in getDetails
  exports.getStatus = function () {
    return __c.chip === "ESP32"
      ? { station: "connected", rssi: __c.rs, powersave: __c.psr[__b.ps] }
      : { station: "connected" };
  };
  exports.getDetails = function () {
    return __c.chip === "ESP8266"
      ? { status: "connected", rssi: __c.rs, powersave: __c.psr[__b.ps] }
      : { status: "connected" };
  };
  exports.save = function () {};
  exports.disconnect = function () {
    if (h.disconnected) h.disconnected({});
  };
});

// ---- the network: Espruino's own TCP, watched (connects, peak memory at each write, drops on request)
__b.net = require("net");
__b.socks = [];
Modules.addCached("net", function () {
  exports.connect = function (o, cb) {
    __b.rep("N", [o.host, o.port]);
    var s = __b.net.connect(o, cb);
    // on Linux a refused connection gives no socket at all (a board gives one, then "close")
    if (!s) return s;
    var w = s.write;
    __b.socks.push(s);
    s.on("close", function () {
      var i = __b.socks.indexOf(s);
      if (i >= 0) __b.socks.splice(i, 1);
    });
    s.write = function (d) {
      __b.peak();
      return w.call(s, d);
    };
    return s;
  };
});
/** Drop every open socket (a WiFi loss). */
__b.d = function () {
  var s = __b.socks.slice();
  var i;
  __b.lc = getTime();
  for (i = 0; i < s.length; i++) s[i].end();
};

// ---- the USB serial port of the board (Serial1 on the ESP chips): the interpreter's own USB device.
// Once the firmware moves the console away, the board sorts what arrives: harness commands, the rest to the firmware.
__b.fw = undefined;
__b.cmd = "";
__b.inc = false;
__b.run = function (s) {
  try {
    eval(s);
  } catch (e) {
    __b.rep("E", "" + e);
  }
};
USB.on("data", function (d) {
  var j;
  while (d.length) {
    if (__b.inc) {
      j = d.indexOf("\n");
      if (j < 0) {
        __b.cmd += d;
        return;
      }
      __b.inc = false;
      __b.run(__b.cmd + d.substr(0, j));
      __b.cmd = "";
      d = d.substr(j + 1);
    } else {
      j = d.indexOf("\x10");
      if (j !== 0 && __b.fw) __b.fw(j < 0 ? d : d.substr(0, j));
      if (j < 0) return;
      __b.inc = true;
      d = d.substr(j + 1);
    }
  }
});
__b.usb = {
  setup: function () {},
  on: function (ev, fn) {
    if (ev === "data") __b.fw = fn;
  },
  write: function (d) {
    __b.peak();
    USB.write(d);
  },
  print: function (d) {
    USB.write(d);
  },
  println: function (d) {
    USB.write(d + "\r\n");
  },
  setConsole: function (f) {
    USB.setConsole(f);
    __b.rep("K", "usb");
  },
};
if (__c.chip === "ESP32" || __c.chip === "ESP8266") Serial1 = __b.usb;
// a Puck.js has no USB: its console is Bluetooth (the Nordic UART), here the interpreter's stdin/stdout
else if (__c.chip === "NRF52") global.Bluetooth = __b.usb;
__b.LA = LoopbackA;
LoopbackA = {
  setConsole: function (f) {
    __b.LA.setConsole(f);
    __b.rep("K", "LoopbackA");
  },
  write: function (d) {
    __b.LA.write(d);
  },
  on: function (ev, fn) {
    __b.LA.on(ev, fn);
  },
};
// the console, once on LoopbackA, comes out of LoopbackB: the harness still sees every line
LoopbackB.on("data", function (d) {
  __b.rep("C", d);
});

// ---- a reboot: the harness starts the interpreter again on the same flash
E.reboot = function () {
  __b.rep("R");
  quit();
};

// ---- asked by the harness
/** memory now (after a garbage collection) and the peak seen since peak tracking started */
__b.m = function () {
  var m = process.memory();
  __b.lc = getTime();
  __b.rep("M", { u: m.usage, pk: __b.pk, f: m.free, t: m.total });
};
/** peak tracking on/off (on resets the peak) */
__b.pko = function (on) {
  __b.lc = getTime();
  __b.pt = on ? 1 : 0;
  if (on) __b.pk = 0;
};
/** a Storage file, as the firmware would read it */
/** A plain timer for gun ms `t`, answered with the gun ms it ran at: how late this interpreter's timers run now. */
__b.z = function (n, t) {
  setTimeout(function () {
    __b.rep("Z", [n, __b.ms()]);
  }, t - __b.ms());
};
__b.f = function (name) {
  __b.lc = getTime();
  __b.rep("F", [name, require("Storage").read(name)]);
};
/** keepalive, and an answer that says every command before it has run */
__b.k = function (n) {
  __b.lc = getTime();
  if (n !== undefined) __b.rep("A", n);
};

// ---- the bench: the firmware's IMU work per sample, without the model's own time
if (__c.prof) {
  __b.pf = { n: 0, s: 0 };
  __b.si = setInterval;
  global.setInterval = function (fn, ms) {
    return __b.si(function () {
      var t = getTime();
      var m0 = __b.mt;
      __b.rd = 0;
      fn();
      if (__b.rd) {
        __b.pf.n++;
        __b.pf.s += getTime() - t - (__b.mt - m0);
      }
    }, ms);
  };
  __b.pr = function () {
    __b.lc = getTime();
    __b.rep("P", { n: __b.pf.n, us: __b.pf.n ? (__b.pf.s * 1e6) / __b.pf.n : 0 });
    __b.pf.n = 0;
    __b.pf.s = 0;
  };
}

// ---- the harness gone (its pipe closed, or it was killed): stop, rather than spin on a closed stdin
setInterval(function () {
  if (getTime() - __b.lc > (__c.wd || 5)) quit();
}, 1000);

__b.g0 = getTime();
__b.rep("B", { t0: __b.g0 * 1000, u: process.memory().usage, v: process.env.VERSION });
