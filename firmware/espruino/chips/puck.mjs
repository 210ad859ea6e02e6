// The Puck.js v2 as Espruino's Puck.js build gives it to the firmware (boards/PUCKJS.py, libs/puckjs/jswrap_puck.c),
// for both board models (ES5: the real interpreter's board is given this source): its LEDs and button by name, its
// coin cell as E.getBattery counts it, and the Puck object over its LSM6DS3TR-C (lsm6ds3.mjs).

/** GPIO of each pin the Puck names */
export var PUCK_PINS = { LED1: 5, LED2: 4, LED3: 3, BTN1: 0, BTN: 0 };

/** the rates Puck.accelOn takes with the gyro on, Hz */
export var PUCK_RATES = [12.5, 26, 52, 104, 208];

/** E.getBattery(): a CR2032's 2.2-2.8 V as a whole percent. */
export function coinCellPercent(v) {
  v = ((v - 2.2) * 100) / 0.6;
  return v > 100 ? 100 : v < 0 ? 0 : v | 0;
}

/**
 * The Puck object over the LSM6DS3 model `imu`: accelOn(hz) sets CTRL1_XL to ±4 g and CTRL2_G to ±250 °/s at that
 * rate, then emits `accel` per sample on the board's timer (`every(fn, ms)` starts one, `stop(id)` ends it);
 * accelWr/accelRd reach the registers; getBatteryPercentage is the coin cell's (`percent()`).
 */
export function puckObject(imu, every, stop, percent) {
  var handlers = [];
  var timer;
  var P = {
    accelOn: function (hz) {
      var i = PUCK_RATES.indexOf(hz === undefined ? 12.5 : hz);
      if (i < 0)
        throw new Error("Invalid sample rate " + hz + " - must be 1660, 833, 416, 208, 104, 52, 26, 12.5, 1.6 Hz");
      P.accelOff();
      imu.regs[0x10] = ((i + 1) << 4) | 0x0b;
      imu.regs[0x11] = (i + 1) << 4;
      timer = every(function () {
        var e = imu.sample();
        var k;
        for (k = 0; k < handlers.length; k++) handlers[k](e);
      }, 1000 / PUCK_RATES[i]);
    },
    accelOff: function () {
      if (timer !== undefined) stop(timer);
      timer = undefined;
    },
    accelWr: function (r, v) {
      imu.regs[r & 0x7f] = v & 255;
    },
    accelRd: function (r) {
      return imu.regs[r & 0x7f];
    },
    /** on a Puck: the last sample while on, else one taken now; here always one taken now */
    accel: function () {
      return imu.sample();
    },
    on: function (ev, fn) {
      if (ev === "accel") handlers.push(fn);
    },
    getBatteryPercentage: function () {
      return percent();
    },
  };
  return P;
}
