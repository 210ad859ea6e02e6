// The WiFi radio's power save as Espruino's network code has it (libs/network/esp32 and esp8266): the modes
// `Wifi.setConfig({powersave})` takes per chip, the first being where the chip starts (ESP-IDF's WIFI_PS_MIN_MODEM,
// the ESP8266 SDK's MODEM_SLEEP_T), and what `Wifi.getStatus()` (ESP32) / `getDetails()` (ESP8266) report. Both
// board models read it from here (the real interpreter's board through its settings), so the chip is taught once.
import type { BoardProfile } from "./board.js";

/** The `powersave` modes each WiFi chip's Espruino takes; a mode it lacks throws "Unknown powersave mode". */
export const POWERSAVE_MODES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  // ESP-IDF 4: "ps-poll" (WIFI_PS_MODEM) is gone
  ESP32: ["min", "none", "max"],
  ESP8266: ["ps-poll", "none"],
});

/** What the status call reports for a mode (the ESP32 names the IDF's modes). */
export const POWERSAVE_REPORTED: Readonly<Record<string, Readonly<Record<string, string>>>> = Object.freeze({
  ESP32: { min: "min_modem", max: "max_modem", none: "none" },
  ESP8266: { "ps-poll": "ps-poll", none: "none" },
});

/** The radio's mode at power-up, or null on a board without WiFi. */
export function powersaveAtBoot(board: BoardProfile): string | null {
  return POWERSAVE_MODES[board.chip]?.[0] ?? null;
}

/** A station in any mode but "none" sleeps between the access point's DTIM beacons. */
export function radioSleeps(mode: string | null): boolean {
  return mode !== null && mode !== "none";
}
