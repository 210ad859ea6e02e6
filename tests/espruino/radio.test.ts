// @heavy: guns on the real Espruino interpreter, in real time
// The WiFi radio's power save as each chip's Espruino has it, in both board models: where it starts, the modes
// `Wifi.setConfig` takes and refuses, what the status call says; and the firmware keeping the radio awake.
import { expect, it } from "vitest";
import {
  boardNames,
  createVirtualGun,
  loadBoard,
  POWERSAVE_MODES,
  powersaveAtBoot,
  radioSleeps,
} from "../../hub/src/sim/espruino/index.js";
import { onInterpreter, realGun, sleep } from "../fakes/real-gun.js";

const WIFI = boardNames().filter((b) => (loadBoard(b).links ?? ["wifi"]).includes("wifi"));
/** a bundle that only asks the radio: what each mode does, what the status says */
const PROBE = `var W=require("Wifi"),r=[];
r.push((CHIP_STATUS)().powersave);
["none","min","max","ps-poll","deep"].forEach(function(m){try{W.setConfig({powersave:m});r.push(m+":"+(CHIP_STATUS)().powersave)}catch(e){r.push(m+":"+e.message)}});
console.log("RADIO "+JSON.stringify(r));`;

function probeFor(chip: string): string {
  return PROBE.replace(/CHIP_STATUS/g, chip === "ESP32" ? "W.getStatus" : "W.getDetails");
}

const EXPECTED: Record<string, string[]> = {
  ESP32: [
    "min_modem",
    "none:none",
    "min:min_modem",
    "max:max_modem",
    "ps-poll:Unknown powersave mode",
    "deep:Unknown powersave mode",
  ],
  ESP8266: [
    "ps-poll",
    "none:none",
    "min:Unknown powersave mode",
    "max:Unknown powersave mode",
    "ps-poll:ps-poll",
    "deep:Unknown powersave mode",
  ],
};

it("the chips start in modem sleep; only a board with no WiFi has no radio", () => {
  expect(powersaveAtBoot(loadBoard("esp32-mpu6050"))).toBe("min");
  expect(powersaveAtBoot(loadBoard("esp8266-mpu6050"))).toBe("ps-poll");
  expect(powersaveAtBoot(loadBoard("puckjs"))).toBe(null);
  expect(radioSleeps("min")).toBe(true);
  expect(radioSleeps("ps-poll")).toBe(true);
  expect(radioSleeps("none")).toBe(false);
  expect(Object.keys(POWERSAVE_MODES).sort()).toEqual(["ESP32", "ESP8266"]);
});

it.each(WIFI)("%s in the vm: Wifi.setConfig takes the chip's modes and refuses the rest", async (board) => {
  const chip = loadBoard(board).chip;
  const g = createVirtualGun({ board, clock: "manual", code: probeFor(chip), config: null });
  await g.advance(10);
  const line = g.console.find((l) => l.startsWith("RADIO "));
  expect(JSON.parse(line!.slice(6))).toEqual(EXPECTED[chip]);
  g.stop();
});

onInterpreter.each(WIFI)("%s on the real interpreter", (board) => {
  it("has the same radio", async () => {
    const chip = loadBoard(board).chip;
    const g = await realGun({ board, code: probeFor(chip), config: null });
    const deadline = Date.now() + 5000;
    while (!g.console.some((l) => l.startsWith("RADIO ")) && Date.now() < deadline) await sleep(20);
    const line = g.console.find((l) => l.startsWith("RADIO "));
    expect(JSON.parse(line!.slice(6))).toEqual(EXPECTED[chip]);
    // the last mode it took is the board's
    expect(g.wifi.powersave).toBe(chip === "ESP32" ? "max" : "ps-poll");
  });
});

it.each(WIFI)("%s: the firmware keeps the radio awake once it starts its WiFi", async (board) => {
  const g = createVirtualGun({
    board,
    clock: "manual",
    config: { id: "g1", secret: "s", hub: { host: "127.0.0.1", port: 9 }, wifi: { ssid: "w", pass: "p" } },
  });
  expect(g.wifi.powersave).toBe("none");
  await g.advance(500);
  expect(g.wifi.powersave).toBe("none");
  g.stop();
});
