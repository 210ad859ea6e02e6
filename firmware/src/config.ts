// Per-gun config: Storage file `gun.json`, written by `cng flash`. See firmware/README.md.
import { isName } from "@cng/protocol";
import { setMount } from "./mount";

export interface Cfg {
  id: string;
  secret: string;
  table: string;
  /** find: UDP port to ask for the hub on when it does not answer (find.ts; 0 = never ask) */
  hub: { host: string; port: number; find?: number };
  /** on the USB serial link (hardware/SERIAL.md) instead of WiFi + MQTT */
  ser: boolean;
  wifi?: { ssid: string; pass: string };
  /** aim rate, Hz */
  hz: number;
  /** MQTT keepalive, s */
  ka: number;
  /** local click on every pull */
  click: boolean;
  /** the battery reading's calibration factor (gun.json `bat`, 1 when not calibrated); 0: not measured */
  bat: number;
  /** `secret` is the key a hub gave at pairing (boards with "find", and the serial link): its hub can prove itself
   * with it (find.ts, serial.ts) */
  paired?: number;
  /** gun.json `pf`: its broker takes a proof of the key at CONNECT (the hub said so with the key); boards with "find" */
  pf?: number;
  /** gun.json `bt`: boots since it was paired, a proof's first counter: each login newer than the last */
  bt?: number;
  /** a Puck.js's Bluetooth passkey, 6 digits (serial.ts: NRF.setSecurity) */
  pk?: string;
}

function bad(m: string): string {
  return "gun.json: " + m;
}

/** gun.json's number `x`, `d` when it is left out, −1 when it is no number from `lo` to `hi` (none of them is < 0) */
function inRange(x: any, d: number, lo: number, hi: number): number {
  return x === undefined ? d : typeof x === "number" && x >= lo && x <= hi ? x : -1;
}

/** The config, or why there is none. Never throws. */
export function loadCfg(): Cfg | string {
  var c: any;
  try {
    c = require("Storage").readJSON("gun.json", true);
  } catch (_e) {
    c = undefined;
  }
  if (c === undefined || c === null) return bad("missing");
  if (typeof c !== "object") return bad("not a JSON object");
  if (!isName(c.id)) return bad("id must be a-z 0-9 _ -");
  if (typeof c.secret !== "string" || !c.secret) return bad("secret missing");
  var h = c.hub || {};
  var w = c.wifi;
  var l = c.link;
  // serial when asked, or with neither WiFi nor a hub to reach; always on a board without WiFi (Puck.js)
  var ser = LINK_SERIAL && (!LINK_WIFI || l === "serial" || (l === undefined && !w && !h.host));
  if (!LINK_WIFI && l !== undefined && l !== "serial") return bad("link must be serial (this board has no WiFi)");
  if (l !== undefined && l !== "wifi" && !ser)
    return bad(LINK_SERIAL ? "link must be wifi or serial" : "link must be wifi (this board has no serial)");
  if (!ser && (typeof h.host !== "string" || !h.host)) return bad("hub.host missing");
  var port = inRange(h.port, 1883, 1, 65535);
  if (port < 0) return bad("hub.port invalid");
  var t = c.table === undefined ? "main" : c.table;
  if (!isName(t)) return bad("table invalid");
  if (w !== undefined && (typeof w.ssid !== "string" || typeof w.pass !== "string"))
    return bad("wifi needs ssid, pass");
  // a string, as NRF.setSecurity takes it (a number there is ignored: no passkey, and no word said)
  if (CHIP === "NRF52" && c.pk !== undefined && (typeof c.pk !== "string" || !/^\d\d\d\d\d\d$/.test(c.pk)))
    return bad("pk must be 6 digits");
  var hz = inRange(c.hz, 25, 1, 50);
  if (hz < 0) return bad("hz must be 1-50");
  var ka = inRange(c.ka, 15, 5, 300);
  if (ka < 0) return bad("ka must be 5-300");
  // the IMU mounting (mount.ts): gun.json's, else the profile's; taken into use here
  // (boards without "mount" read no `mount`: cng flash refuses one there, and so does the hub's wizard)
  if (HAS_MOUNT && !setMount(c.mount === undefined ? BOARD.imu.mount || "+x+z" : c.mount))
    return bad("mount must be forward then up chip axis, like +x+z");
  // the battery: `false` with no divider fitted (a power bank), else the factor Setup calibrated the reading by
  // (BAT_CAL_K's figures, as literals: the array costs the ESP8266 bytes it does not have)
  var b = !BAT || c.bat === false ? 0 : inRange(c.bat, 1, 0.8, 1.25);
  if (b < 0) return bad("bat invalid");
  // gun.json's own hub object, the port defaulted (find.ts keeps it back in gun.json as it is)
  h.port = port;
  // gun.json's own object becomes the config: no second copy in memory
  c.table = t;
  c.hub = h;
  // (a bundle without the serial link never reads it)
  if (LINK_SERIAL) c.ser = ser;
  c.hz = hz;
  c.ka = ka;
  c.click = c.click !== false;
  c.bat = b;
  return c;
}
