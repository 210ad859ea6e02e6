// A Puck.js gun's Bluetooth link in the tests: the board's console device (`gun.usb`, here `Bluetooth`, the Nordic
// UART) plugged into the hub's serial bridge (hub/src/serial) through serialport's MockBinding
// (hub/src/sim/espruino/cable.ts), as a Bluetooth bridge carries the same bytes. The bridge's port handling, line
// checks and MQTT session as the gun are all in the path. Closed after the test (or, with `keep`, after the file).
import { afterAll, afterEach } from "vitest";
import type { BridgeCredentials, SerialGunBridge } from "../../hub/src/serial/index.js";
import { bridgeGun as bridge, type Gun } from "../../hub/src/sim/espruino/index.js";

const perTest: SerialGunBridge[] = [];
const perFile: SerialGunBridge[] = [];
afterEach(async () => {
  await Promise.all(perTest.splice(0).map((b) => b.close()));
});
afterAll(async () => {
  await Promise.all(perFile.splice(0).map((b) => b.close()));
});

/**
 * The gun's link bridged onto the broker at `mqttUrl` as the gun itself (table `table`); once it is paired, `hub`'s
 * credentials (Hub.bridge) vouch for the bridge, as the hub's own serial bridges get them.
 */
export async function bridgeGun(
  g: Gun,
  mqttUrl: string,
  table: string,
  keep = false,
  hub?: { bridge: BridgeCredentials },
): Promise<SerialGunBridge> {
  const b = await bridge(g, { mqttUrl, table, ...(hub ? { credentials: hub.bridge } : {}) });
  (keep ? perFile : perTest).push(b);
  return b;
}
