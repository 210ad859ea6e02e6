// The WiFi of the vm's board: the Wifi module both boards run (firmware/espruino/chips/wifi.mjs) on the vm's clock,
// what the firmware did with it kept for the tests.
import { wifiModule } from "../../../../firmware/espruino/chips/wifi.mjs";
import type { BoardProfile } from "../../boards/profile.js";
import type { VirtualClock } from "./clock.js";
import type { GunWifi } from "./gun.js";

export interface VmWifi {
  wifi: GunWifi;
  /** the module the firmware's require("Wifi") gets */
  module: Record<string, unknown>;
}

/** `fails` connects fail before one succeeds; the board reads the signal `rssi` (dBm). */
export function vmWifi(board: BoardProfile, clock: VirtualClock, fails: number | undefined, rssi: number): VmWifi {
  let powersave: string | null = null;
  let ap = false;
  const wifi: GunWifi = {
    connects: [],
    get powersave() {
      return powersave;
    },
    get ap() {
      return ap;
    },
  };
  const module = wifiModule(board.chip, {
    fails,
    rssi,
    later: (fn, ms) => clock.set(fn, ms, false),
    joined: (ssid, password) => wifi.connects.push({ ssid, password: password as string }),
    mode: (m) => {
      powersave = m;
    },
    ap: (up) => {
      ap = up;
    },
  });
  return { wifi, module };
}
