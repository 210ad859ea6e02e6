// The WiFi of an ESP32 or ESP8266 as Espruino's Wifi module gives it to the firmware (libs/network/esp32 and
// esp8266), for both board models (ES5: the real interpreter's board is given this source): the radio's power save,
// where each chip starts in modem sleep (ESP-IDF's WIFI_PS_MIN_MODEM, the ESP8266 SDK's MODEM_SLEEP_T); the signal
// where each chip's status call has it; connects, which here succeed after 100 ms; the soft access point.

/** The `powersave` modes Wifi.setConfig takes per chip, the first where the chip starts (ESP-IDF 4 has no "ps-poll"). */
export var POWERSAVE_MODES = { ESP32: ["min", "none", "max"], ESP8266: ["ps-poll", "none"] };

/** What the status call reports for a mode (the ESP32 names the IDF's modes). */
export var POWERSAVE_REPORTED = {
  ESP32: { min: "min_modem", max: "max_modem", none: "none" },
  ESP8266: { "ps-poll": "ps-poll", none: "none" },
};

/**
 * Whether the soft access point is up at boot. The ESP8266 SDK keeps its operating mode in its own flash
 * (`wifi_set_opmode` saves it) and starts in it; Espruino's boot applies a `Wifi.save`d config only when there is one
 * (`jswrap_wifi_restore`) and its `Wifi.connect` adds the station to the mode kept, the access point left as it was
 * (libs/network/esp8266): a module whose AP was ever on (Espressif's SDK starts new modules with it) keeps it at every
 * boot until `Wifi.stopAP()`. The ESP32's IDF keeps nothing (`WIFI_STORAGE_RAM`): its AP comes back only from a
 * `Wifi.save`d config.
 */
export var AP_AT_BOOT = { ESP32: false, ESP8266: true };

/**
 * The Wifi module of a `chip`: `o.fails` connects fail ("auth failed") before one succeeds; `o.later(fn, ms)` is the
 * board's timer; `o.joined(ssid, password)` hears each connect, `o.mode(m)` the power save, `o.ap(up)` the soft
 * access point, from the start; `o.rssi` is the signal in dBm.
 */
export function wifiModule(chip, o) {
  var modes = POWERSAVE_MODES[chip] || [];
  var said = POWERSAVE_REPORTED[chip] || {};
  var ps = modes[0];
  var fails = o.fails || 0;
  var h = {};
  var ap = !!AP_AT_BOOT[chip];
  if (ps) o.mode(ps);
  if (o.ap) o.ap(ap);
  return {
    setConfig: function (c) {
      if (!c || c.powersave === undefined) return;
      if (modes.indexOf(c.powersave) < 0) throw new Error("Unknown powersave mode");
      ps = c.powersave;
      o.mode(ps);
    },
    connect: function (ssid, opts, cb) {
      o.joined(ssid, opts && opts.password);
      o.later(function () {
        cb(fails-- > 0 ? "auth failed" : null);
      }, 100);
    },
    on: function (ev, fn) {
      h[ev] = fn;
    },
    getIP: function () {
      return { ip: "127.0.0.1" };
    },
    getStatus: function () {
      return chip === "ESP32" ? { station: "connected", rssi: o.rssi, powersave: said[ps] } : { station: "connected" };
    },
    getDetails: function () {
      return chip === "ESP8266" ? { status: "connected", rssi: o.rssi, powersave: said[ps] } : { status: "connected" };
    },
    save: function () {},
    stopAP: function (cb) {
      if (ap && o.ap) o.ap(false);
      ap = false;
      if (cb) o.later(cb, 0);
    },
    disconnect: function () {
      if (h.disconnected) h.disconnected({});
    },
  };
}
