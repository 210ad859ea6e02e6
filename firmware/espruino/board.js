// The board around the real Espruino interpreter (its Linux build), for tests and benchmarks. The harness
// (hub/src/sim/espruino/real-gun.ts) stores it as `.boot0`, next to the firmware's `.bootcde` and `gun.json`, so the
// interpreter boots it the way a flashed board boots: .boot0, then .bootcde, then E.on("init").
// It gives the firmware what a gun's board has and Linux lacks: ESP pin names (A0), the ESP32/ESP8266 objects, a
// Wifi module, the IMU its kind names on its bus (an MPU-6050 on I2C1 at register level, BNO085 UART-RVC frames on
// the profile's serial port), a Puck.js's Puck object, the trigger on setWatch, the NeoPixel / PWM LED and the
// buzzer; `require("net")` stays the real TCP, only watched. The chips are the models the vm's board runs too (firmware/espruino/chips, written before this file
// as `__chips`: Mpu6050, Bno085Rvc, Lsm6ds3, puckObject, Outputs, Button, wifiModule…); here is what is around them:
// the pins, the motion they sense, the link to the harness.
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
  // a Puck.js v2: its LEDs and button by name, its coin cell in percent (the Puck object and the Bluetooth device
  // come below)
  LED1 = __b.pin("D" + __chips.PUCK_PINS.LED1);
  LED2 = __b.pin("D" + __chips.PUCK_PINS.LED2);
  LED3 = __b.pin("D" + __chips.PUCK_PINS.LED3);
  BTN1 = __b.pin("D" + __chips.PUCK_PINS.BTN1);
  BTN = __b.pin("D" + __chips.PUCK_PINS.BTN);
  E.getBattery = function () {
    return __chips.coinCellPercent((__c.bat && __c.bat.v) || 2.75);
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

// ---- outputs: the LED colour and the buzzer frequency (chips/pins.mjs), reported when they change
__b.parts = {
  bz: __b.BZ,
  kind: __c.led.kind,
  pin: __b.pin(__c.led.pin),
  pr: __b.pin(__c.led.pr),
  pg: __b.pin(__c.led.pg),
  pb: __b.pin(__c.led.pb),
  inv: __c.led.inv,
  dac: __c.cf.dac.map(function (g) {
    return eval("D" + g);
  }),
};
__b.showLed = function (c) {
  __b.rep("L", [__b.ms(), c]);
};
__b.sound = function (f) {
  __b.rep("T", [__b.ms(), f]);
};
__b.o = new __chips.Outputs(__b.parts, __b.showLed, __b.sound, console.log);
global.digitalWrite = function (p, v) {
  __b.peak();
  __b.o.write(p, v ? 1 : 0);
};
global.analogWrite = function (p, v, o) {
  __b.peak();
  __b.o.analog(p, v, o);
};
global.pinMode = function () {};
/** The harness sets the battery's volts (a discharge). */
__b.bv = function (v) {
  __b.lc = getTime();
  __c.bat.v = v;
};
global.analogRead = function (p) {
  var b = __c.bat;
  // (the harness always says the volts: 0 is a pin with nothing on it)
  if (__b.BAT !== undefined && p == __b.BAT) return adcCount(b.adc, b.v / b.div, b.vref) / b.adc.counts;
  return Math.random() * 0.01;
};
Modules.addCached("neopixel", function () {
  exports.write = function (p, d) {
    __b.peak();
    __b.o.neopixel(p, d);
  };
});

// ---- the trigger: a button on a pin (chips/button.mjs)
__b.btn = new __chips.Button(__b.TRIG, __c.trig.pressed, setTimeout, clearTimeout, getTime);
// held down as the board starts: the firmware reads it at boot
if (__c.bh) __b.btn.set(true);
global.setWatch = function (fn, p, o) {
  return __b.btn.watch(fn, p, o);
};
global.clearWatch = function (id) {
  __b.btn.clear(id);
};
global.digitalRead = function (p) {
  return __b.btn.read(p);
};
/** The harness presses (1) or releases (0) the trigger. */
__b.t = function (down) {
  __b.lc = getTime();
  __b.btn.set(!!down);
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
__b.play = function (t) {
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
  __b.dY = __chips.wrap180(__b.ky[i + 1] - __b.ky[i]) / d;
  __b.dP = (__b.kp[i + 1] - __b.kp[i]) / d;
  __b.dR = __chips.wrap180(__b.kr[i + 1] - __b.kr[i]) / d;
  __b.Y = __b.ky[i] + __b.dY * f;
  __b.P = __b.kp[i] + __b.dP * f;
  __b.R = __b.kr[i] + __b.dR * f;
};
/** what the simulated chip adds (chips/sensor.mjs): gyro bias and noise, accelerometer noise, a BNO085's yaw noise */
__b.n = {
  gyroBias: __c.bias || [0, 0, 0],
  gyroNoise: __c.gn || 0,
  accelNoise: __c.an || 0,
  yawNoise: __c.yn || 0,
  gauss: function () {
    return __chips.gauss(Math.random);
  },
};
/** The harness changes the gyro bias (°/s per axis), the gyro noise (°/s) and the accelerometer noise (g). */
__b.gs = function (x, y, z, gn, an) {
  __b.n.gyroBias = [x, y, z];
  __b.n.gyroNoise = gn;
  __b.n.accelNoise = an;
};
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
 * yet; updated here): [gravity's reaction in g, body rates in °/s], along the gun's axes. The rates are the Euler
 * rates of the pose played since then, so they add up to exactly where the gun went. When the harness's feed came
 * late the pose was held still meanwhile: the motion is then played late, never as a jump faster than a chip can
 * read (a simulator's stall must not clip the gyro; a real quick swing still does).
 */
__b.sense = function (q, t) {
  var K = Math.PI / 180;
  var dt = q[3] < 0 ? 0 : (t - q[3]) / 1000;
  var y0;
  var p0;
  var r0;
  if (dt > 0) {
    // where the motion was at the last sample, as the keyframes now tell it
    __b.play(q[3]);
    y0 = __b.Y;
    p0 = __b.P;
    r0 = __b.R;
  }
  __b.play(t);
  if (dt > __b.STALL) {
    __b.Y = q[0];
    __b.P = q[1];
    __b.R = q[2];
  } else if (dt > 0) {
    __b.Y = q[0] + __b.step(__chips.wrap180(__b.Y - y0), __chips.wrap180(y0 - q[0]), dt);
    __b.P = q[1] + __b.step(__b.P - p0, p0 - q[1], dt);
    __b.R = q[2] + __b.step(__chips.wrap180(__b.R - r0), __chips.wrap180(r0 - q[2]), dt);
  }
  var dY = dt > 0 ? __chips.wrap180(__b.Y - q[0]) / dt : 0;
  var dP = dt > 0 ? (__b.P - q[1]) / dt : 0;
  var dR = dt > 0 ? __chips.wrap180(__b.R - q[2]) / dt : 0;
  var p = (__b.P + q[1]) * 0.5 * K;
  var r = (q[2] + __chips.wrap180(__b.R - q[2]) * 0.5) * K;
  var cp = Math.cos(p);
  q[0] = __b.Y;
  q[1] = __b.P;
  q[2] = __b.R;
  q[3] = t;
  // Euler rates (yaw about z, pitch nose up, roll about the barrel) to body rates, °/s, at the interval's middle
  return [
    __chips.gravity(__b.P, __b.R),
    [dR + dY * Math.sin(p), -dP * Math.cos(r) + dY * cp * Math.sin(r), dP * Math.sin(r) + dY * cp * Math.cos(r)],
  ];
};
/** time spent in the models, and whether the running callback read the IMU (for the bench) */
__b.mt = 0;
__b.rd = 0;

// ---- the IMU: the model its kind names (`__c.imu.model`, hardware/imus), attached to its bus (`__c.imu.bus`); how it
// sits in the gun is `__c.imu.axes` (shared/protocol's mountAxes of the gun's `imu.mount`), as for the Puck's below
__b.M = __chips[__c.imu.model];
/** the pose at the previous sample, and when: the gyro reads what turned since then */
__b.sp = [__c.pose[0], __c.pose[1], __c.pose[2], -1];
__b.dsense = function () {
  return __b.sense(__b.sp, __b.ms());
};

// on I2C1 at its address (chips/mpu6050.mjs), sampled from the motion when its data is read
if (__c.imu.bus === "i2c") {
  __b.dev = new __b.M(__c.imu.addr, __c.imu.who, __c.imu.axes, __b.n, __b.dsense);
  // the low-pass filters the firmware's configuration gave the part, as the part reads its registers
  __b.dev.onConfig = function (m) {
    var f = m.filters();
    __b.rep("I", [f.accel, f.gyro]);
  };
  // a read of its data is a sample (the bench times the firmware's work per sample)
  __b.ds = __b.dev.sample;
  __b.dev.sample = function () {
    __b.rd = 1;
    return __b.ds.call(__b.dev);
  };
}
/** the device at an address: none answers without an IMU on the bus */
__b.i2c = function () {
  if (!__b.dev) throw new Error("I2C: no ACK");
  return __b.dev;
};
I2C1 = {
  setup: function () {},
  writeTo: function (a, d) {
    var t = getTime();
    __b.peak();
    __b.i2c().writeTo(a, d);
    __b.mt += getTime() - t;
  },
  readFrom: function (a, n) {
    var t = getTime();
    var o;
    __b.peak();
    o = __b.i2c().readFrom(a, n);
    __b.mt += getTime() - t;
    return o;
  },
};

// on the profile's serial port (chips/bno085-rvc.mjs): its frames every `period` ms once the firmware sets it up
if (__c.imu.bus === "uart") {
  __b.uart = new __b.M(__c.imu.axes, __b.n);
  __b.ser = {
    h: undefined,
    setup: function (_baud, o) {
      __chips.serialClashes(__c.imu.ser, o, __c.cf.ser, __c.parts).forEach(function (x) {
        __b.rep("X", x);
      });
      if (__b.ser.t) return;
      __b.ser.t = setInterval(function () {
        var f;
        var h = __b.ser.h;
        var t;
        var i;
        __b.play(__b.ms());
        f = __b.uart.pieces(__b.Y, __b.P, __b.R);
        if (!h) return;
        t = getTime();
        for (i = 0; i < f.length; i++) h(f[i]);
        if (__b.pf) {
          __b.pf.n++;
          __b.pf.s += getTime() - t;
        }
      }, __b.uart.period);
    },
    on: function (ev, fn) {
      if (ev === "data") __b.ser.h = fn;
    },
    removeAllListeners: function (ev) {
      if (!ev || ev === "data") __b.ser.h = undefined;
    },
    write: function () {},
  };
  eval(__c.imu.ser + " = __b.ser");
}

// ---- Puck.js v2: its LSM6DS3TR-C (chips/lsm6ds3.mjs) through Espruino's Puck object (chips/puck.mjs)
__b.lsp = [__c.pose[0], __c.pose[1], __c.pose[2], -1];
__b.lsm = new __chips.Lsm6ds3(__c.imu.axes, __b.n, function () {
  return __b.sense(__b.lsp, __b.ms());
});
/** a sample, timed as the model's own (the bench times the firmware's work per sample without it) */
__b.lsm.sample = function () {
  var t = getTime();
  var e;
  __b.peak();
  e = __chips.Lsm6ds3.prototype.sample.call(__b.lsm);
  __b.mt += getTime() - t;
  __b.rd = 1;
  return e;
};
if (__c.chip === "NRF52") {
  // the handlers are called from the sampling timer, as the Puck's own idle loop calls them; a start samples afresh,
  // with no rate from before it stopped
  __b.every = function (fn, ms) {
    __b.lsp[3] = -1;
    return setInterval(fn, ms);
  };
  Puck = __chips.puckObject(__b.lsm, __b.every, clearInterval, E.getBattery);
  __b.awr = Puck.accelWr;
  Puck.accelWr = function (r, v) {
    __b.peak();
    __b.awr(r, v);
  };
}

// ---- WiFi (chips/wifi.mjs): connects after 100 ms (or fails `wf` times first); the radio's power save reported
Modules.addCached("Wifi", function () {
  var o = {
    fails: __b.wf,
    rssi: __c.rs,
    later: function (fn, ms) {
      setTimeout(fn, ms);
    },
    joined: function (ssid, pass) {
      __b.rep("W", [ssid, pass]);
    },
    mode: function (m) {
      __b.rep("P", m);
    },
    ap: function (up) {
      __b.rep("S", up);
    },
  };
  module.exports = __chips.wifiModule(__c.chip, o);
});

// ---- crypto: the Linux build has SHA-256; Espruino's ESP8266 build has SHA-1 only (boards/ESP8266_4MB.py: CRYPTO
// without SHA256), so a bundle there that reaches for SHA-256 fails here as on the chip
if (__c.chip === "ESP8266") {
  __b.sha1 = require("crypto").SHA1;
  Modules.addCached("crypto", function () {
    exports.SHA1 = __b.sha1;
  });
}

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
    __b.cf = !!f;
    __b.rep("K", "usb");
  },
};
/** the console forced where it is (Espruino's jsiIsConsoleDeviceForced): a connection does not take it */
__b.cf = false;
if (__c.chip === "ESP32" || __c.chip === "ESP8266") Serial1 = __b.usb;
// a Puck.js has no USB: its console is Bluetooth (the Nordic UART), here the interpreter's stdin/stdout
else if (__c.chip === "NRF52") global.Bluetooth = __b.usb;
__b.LA = LoopbackA;
LoopbackA = {
  setConsole: function (f) {
    __b.LA.setConsole(f);
    __b.cf = !!f;
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

// ---- a Puck.js's Bluetooth LE (targets/nrf5x/bluetooth.c, libs/bluetooth/jswrap_bluetooth.c): its Nordic UART is
// the interpreter's USB above, one central at a time, connected from boot (the bridge there before the gun started).
// A central that connects takes the console unless the firmware forced it where it is (here: back on USB, the
// interpreter's REPL, where what it types runs); the firmware hears NRF "connect" and "disconnect"; its
// NRF.setSecurity is reported (pairing and encryption are the radio's: no model here). On a Puck the console goes back
// to Serial1 when the central goes; here it stays on USB, the harness's own line.
if (__c.chip === "NRF52") {
  __b.nh = { connect: [], disconnect: [] };
  __b.bon = true;
  NRF = {
    on: function (ev, fn) {
      if (__b.nh[ev]) __b.nh[ev].push(fn);
    },
    setSecurity: function (o) {
      if (o !== undefined && typeof o !== "object") throw new Error("Expecting Object or undefined");
      __b.rep("Q", o === undefined ? null : o);
    },
  };
  __b.bev = function (ev, a) {
    var h = __b.nh[ev];
    var i;
    for (i = 0; i < h.length; i++) h[i](a);
  };
  /** A central connects (the one before goes first). */
  __b.bc = function (addr) {
    __b.lc = getTime();
    if (__b.bon) __b.bd();
    __b.bon = true;
    if (!__b.cf) {
      USB.setConsole(false);
      __b.rep("K", "usb");
    }
    __b.bev("connect", addr);
  };
  /** The central goes (0x13: the remote user ended the connection). */
  __b.bd = function () {
    __b.lc = getTime();
    if (!__b.bon) return;
    __b.bon = false;
    __b.bev("disconnect", 0x13);
  };
}

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
/** A plain timer for gun ms `t`, answered with the gun ms it ran at: how late this interpreter's timers run now. */
__b.z = function (n, t) {
  setTimeout(function () {
    __b.rep("Z", [n, __b.ms()]);
  }, t - __b.ms());
};
/** a Storage file, as the firmware would read it */
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
