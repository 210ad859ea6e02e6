// The WiFi radio's power save as Espruino's network code has it (libs/network/esp32 and esp8266): the modes
// `Wifi.setConfig({powersave})` takes per chip, the first being where the chip starts (ESP-IDF's WIFI_PS_MIN_MODEM,
// the ESP8266 SDK's MODEM_SLEEP_T), and what `Wifi.getStatus()` (ESP32) / `getDetails()` (ESP8266) report: taught
// once, in the Wifi module both boards run (firmware/espruino/chips/wifi.mjs).
import { AP_AT_BOOT, POWERSAVE_MODES } from "../../../../firmware/espruino/chips/wifi.mjs";
import type { BoardProfile } from "../../boards/profile.js";

export { POWERSAVE_MODES, POWERSAVE_REPORTED } from "../../../../firmware/espruino/chips/wifi.mjs";

/** The radio's mode at power-up, or null on a board without WiFi. */
export function powersaveAtBoot(board: BoardProfile): string | null {
  return POWERSAVE_MODES[board.chip]?.[0] ?? null;
}

/** A station in any mode but "none" sleeps between the access point's DTIM beacons. */
export function radioSleeps(mode: string | null): boolean {
  return mode !== null && mode !== "none";
}

/** Whether the board's soft access point is up when it starts (chips/wifi.mjs AP_AT_BOOT). */
export function apAtBoot(board: BoardProfile): boolean {
  return !!AP_AT_BOOT[board.chip];
}
