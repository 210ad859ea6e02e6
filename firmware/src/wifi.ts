// WiFi: connect, retry with backoff, reconnect when dropped. No `wifi` in gun.json = the board's
// saved WiFi (Wifi.save()) is used as it is. The soft access point goes off once connected: an ESP8266's SDK keeps
// it on from boot to boot and Espruino never turns it off; an ESP32 brings it back from a Wifi.save()d config.
export function wifi(w: { ssid: string; pass: string } | undefined, ok: () => void): void {
  var W = require("Wifi");
  var back = 2000;
  // the radio stays awake: in modem sleep (both chips' default) every message to the gun waits for a DTIM beacon;
  // the driver keeps the setting across connections
  W.setConfig({ powersave: "none" });
  var busy = false;
  var up = function () {
    W.stopAP();
    ok();
  };
  // a function expression, not a declaration: terser may move declarations after their use
  var go = function () {
    if (busy) return;
    busy = true;
    W.connect(w!.ssid, { password: w!.pass }, function (e: any) {
      busy = false;
      if (e) {
        console.log("CNG wifi: " + e);
        setTimeout(go, back);
        back = Math.min(back * 2, 60000);
      } else {
        back = 2000;
        up();
      }
    });
  };
  if (!w) up();
  else {
    W.on("disconnected", function () {
      setTimeout(go, back);
    });
    go();
  }
}

/** The WiFi signal, dBm, where the board reads it (ESP32: getStatus, ESP8266: getDetails); else undefined. */
export function rssi(): number | undefined {
  var W = require("Wifi");
  var r = (CHIP === "ESP32" ? W.getStatus() : W.getDetails()).rssi;
  return r! < 0 ? r : undefined;
}
