// A gun's `gun.json` (firmware/README.md) as the flashers write it: `cng flash` (hub/src/flash/flash.ts) and the
// dashboard's browser flasher (hub/src/web/public/flash-page.js, which imports this module's build from the hub) check
// it with the same rules and write the same text. Not imported by the firmware: the gun checks its gun.json itself
// (firmware/src/config.ts), and the bundles stay as small as they are.
import { BAT_CAL_K } from "./battery.js";
import { mountAxes } from "./mount.js";
import { isName } from "./topics.js";

/** What goes into Storage `gun.json`. */
export interface GunConfig {
  id: string;
  secret: string;
  table?: string;
  /** "serial": the gun talks over its USB cable through the hub's bridge (hardware/SERIAL.md) */
  link?: "wifi" | "serial";
  /** the broker; not needed on the serial link */
  hub?: { host: string; port?: number };
  wifi?: { ssid: string; pass: string };
  hz?: number;
  ka?: number;
  click?: boolean;
  /** how the IMU sits in the gun: the chip axis forward then up (./mount.ts), boards with "mount" */
  mount?: string;
  /**
   * the battery reading: its calibration factor (BAT_CAL_K; Setup sets it over the network on boards with "batcal",
   * says it for the others), or false when no divider is fitted (a power bank): not measured
   */
  bat?: number | false;
  /**
   * a Puck.js's Bluetooth passkey, 6 digits: the gun then takes only a bonded, encrypted link (NRF.setSecurity), and the
   * laptop asks for it once, at the first pairing (hardware/PUCK.md)
   */
  pk?: string;
}

/** What a board profile (hardware/boards/<name>.json) says about what its firmware can take. */
export interface GunBoard {
  /** the links its bundle carries (default ["wifi"]) */
  links?: string[];
  /** optional firmware features ("mount": the IMU may be turned) */
  has?: string[];
  /** the console's device when not the USB serial port: "Bluetooth" (a Puck.js, no USB) */
  con?: string;
  /** the LiPo's divider, when the board has one */
  bat?: unknown;
}

/** A Bluetooth passkey as the Puck's firmware takes it: 6 digits, in a string. */
var PASSKEY_RE = /^[0-9][0-9][0-9][0-9][0-9][0-9]$/;

/**
 * What is wrong with a gun.json, first found, or undefined: "id", "secret", "link", "hub" (no hub host on the WiFi
 * link), "hub-port", "table", "hz", "wifi" (no SSID), "mount", "bat", "pk" (not 6 digits); with a board: "no-usb"
 * (flashed over Bluetooth), "no-serial-link" (its firmware is WiFi only), "no-mount" (its firmware cannot turn the IMU),
 * "no-bat" (no divider on it: a Puck.js gauges its own cell), "no-pk" (a passkey is Bluetooth's).
 */
export function gunConfigProblem(c: GunConfig, board?: GunBoard): string | undefined {
  if (!isName(c.id)) return "id";
  if (!c.secret) return "secret";
  if (c.link !== undefined && c.link !== "wifi" && c.link !== "serial") return "link";
  if (c.link !== "serial" && !c.hub?.host) return "hub";
  if (c.hub && c.hub.port !== undefined && !(c.hub.port >= 1 && c.hub.port <= 65535)) return "hub-port";
  if (c.table !== undefined && !isName(c.table)) return "table";
  if (c.hz !== undefined && !(c.hz >= 1 && c.hz <= 50)) return "hz";
  if (c.wifi && !c.wifi.ssid) return "wifi";
  if (c.mount !== undefined && !mountAxes(c.mount)) return "mount";
  if (c.bat !== undefined && c.bat !== false && !(c.bat >= BAT_CAL_K[0] && c.bat <= BAT_CAL_K[1])) return "bat";
  if (c.pk !== undefined && !PASSKEY_RE.test(c.pk)) return "pk";
  if (!board) return undefined;
  if (c.pk !== undefined && board.con !== "Bluetooth") return "no-pk";
  if (board.con === "Bluetooth") return "no-usb";
  if (c.link === "serial" && (board.links || ["wifi"]).indexOf("serial") < 0) return "no-serial-link";
  if (c.mount !== undefined && c.mount !== "+x+z" && (board.has || []).indexOf("mount") < 0) return "no-mount";
  if (c.bat !== undefined && !board.bat) return "no-bat";
  return undefined;
}

/** The text of gun.json: its fields in one order (id, secret, table, link, hub, wifi, hz, ka, click, mount, bat, pk). */
export function gunConfigText(c: GunConfig): string {
  var o: { [k: string]: unknown } = { id: c.id, secret: c.secret };
  var hub: { [k: string]: unknown };
  if (c.table !== undefined) o.table = c.table;
  if (c.link !== undefined) o.link = c.link;
  if (c.hub !== undefined) {
    hub = { host: c.hub.host };
    if (c.hub.port !== undefined) hub.port = c.hub.port;
    o.hub = hub;
  }
  if (c.wifi !== undefined) o.wifi = { ssid: c.wifi.ssid, pass: c.wifi.pass };
  if (c.hz !== undefined) o.hz = c.hz;
  if (c.ka !== undefined) o.ka = c.ka;
  if (c.click !== undefined) o.click = c.click;
  if (c.mount !== undefined) o.mount = c.mount;
  if (c.bat !== undefined) o.bat = c.bat;
  if (c.pk !== undefined) o.pk = c.pk;
  return JSON.stringify(o);
}
