// @heavy: guns on the real Espruino interpreter, in real time
// The builder's check (hub/src/check) on the real interpreter, each board as flashed and running: it takes the
// console (also from a gun that moved it for its serial link), prints the IMU's WHO_AM_I, the battery's volts, drives
// the LED red, green, blue and the buzzer 1, 2, 4 kHz in turn, times the gun firmware's work per IMU sample, and
// restarts the gun.
import { expect, it } from "vitest";
import { loadImuIds } from "../../hub/src/boards/chips.js";
import { CHECK_COLOURS, CHECK_MARK, CHECK_TONES, describeCheck, runCheck } from "../../hub/src/check/index.js";
import { boardNames, loadBoard } from "../../hub/src/sim/espruino/index.js";
import { onInterpreter, realGun, sleep, waitFor } from "../fakes/real-gun.js";

const CONFIG = {
  id: "g1",
  secret: "s3cret-factory",
  hub: { host: "127.0.0.1", port: 9 },
  wifi: { ssid: "w", pass: "p" },
};

// each board is its own interpreter process, the check mostly waiting on its LED and buzzer steps: all at once
onInterpreter.concurrent.each(boardNames())("cng check on %s", (board) => {
  it("prints what the board says of itself, drives the LED and the buzzer in turn, times the firmware, restarts it", async ({
    onTestFinished,
  }) => {
    const b = loadBoard(board);
    // a Puck.js gives its console over Bluetooth only when it starts with its button held (hardware/PUCK.md)
    const bt = b.con === "Bluetooth";
    // a GY-521 sold as an MPU-6050 that carries an MPU-6500; another kind answers as its own part
    const imu = b.imu.kind === "mpu6050" ? { whoAmI: 0x70 } : {};
    const g = await realGun(
      { board, config: CONFIG, battery: b.chip === "NRF52" ? 2.75 : 3.9, imu, held: bt },
      onTestFinished,
    );
    // a gun on a cable with its serial link moves its console away after 2 s: the check takes it back
    await sleep(2500);
    if (bt) expect(g.usb.console).toBe("Bluetooth");
    const led0 = g.led.length;
    const tone0 = g.tones.length;
    const seen: string[] = [];
    // the builder's thumb off the button by the time the check runs (the board model holds it again at each start,
    // the check's reset() too): the gun timed under the stopwatch must still leave the console here
    const link = bt
      ? {
          send: (t: string) => {
            if (t.includes(CHECK_MARK)) g.button.release();
            g.usb.send(t);
          },
          onData: (fn: (t: string) => void) => g.usb.onData(fn),
        }
      : g.usb;
    const r = await runCheck(link, b, (l) => seen.push(l));
    expect(r.done, seen.join("\n")).toBe(true);
    console.log(`${board}:\n${describeCheck(r, b).join("\n")}`);
    expect(r.lines[0]).toMatch(new RegExp(`^board ${board} \\(${b.chip}\\), Espruino 2v29, \\d+ JsVars free$`));
    if (b.imu.kind === "mpu6050") {
      expect(r.whoAmI).toBe(0x70);
      expect(r.lines).toContain("imu WHO_AM_I 0x70 MPU-6500: the firmware takes it");
      expect(r.lines.some((l) => /^imu read \d+ us for 14 bytes at 400 kHz$/.test(l))).toBe(true);
    } else if (b.imu.kind === "bno085") {
      const f = r.lines.map((l) => /^imu BNO085 UART-RVC: (\d+) frames in 1 s$/.exec(l)).find(Boolean);
      expect(Number(f?.[1])).toBeGreaterThan(60);
    } else {
      // the part its kind names first answers (hardware/imus), as the model does unless told otherwise
      const [id, name] = loadImuIds(b.imu.kind)!.whoAmI[0]!;
      expect(r.lines.some((l) => l.startsWith(`imu WHO_AM_I 0x${id.toString(16)} ${name}`))).toBe(true);
    }
    if (b.bat) {
      expect(Math.abs(r.volts! - 3.9)).toBeLessThanOrEqual(0.02);
      expect(describeCheck(r, b)).toContain(
        "battery ≈ 71 % on the LiPo curve (calibrate it once on Setup if the multimeter disagrees)",
      );
    } else expect(r.lines).toContain("battery 91 % (the coin cell, as the chip reads it)");
    // red, green, blue, off, in that order (capped at the profile's brightness), then the tones
    const m = b.led.max ?? 1;
    const scaled = (c: number) =>
      (Math.round(((c >> 16) & 255) * m) << 16) | (Math.round(((c >> 8) & 255) * m) << 8) | Math.round((c & 255) * m);
    const shown = g.led.slice(led0).map((l) => l.c);
    const want = CHECK_COLOURS.map(([c]) => scaled(c));
    const at = want.map((c) => shown.indexOf(c));
    expect(
      at.every((i) => i >= 0),
      `LED ${shown.map((c) => c.toString(16))}`,
    ).toBe(true);
    expect([...at].sort((x, y) => x - y)).toEqual(at);
    const heard = g.tones.slice(tone0).map((t) => t.f);
    expect(heard.slice(0, CHECK_TONES.length + 1)).toEqual([...CHECK_TONES, 0]);
    // the firmware's own work per sample, on this chip (here: this PC running the interpreter)
    expect(r.us).toBeGreaterThan(0);
    // over real samples (an interpreter starved by a busy machine takes fewer than its rate's 1.5 s worth)
    expect(r.samples).toBeGreaterThan(10);
    // and the gun starts again as it boots: its greeting
    const greetings = () => g.tones.slice(tone0 + CHECK_TONES.length + 1).filter((t) => t.f === 2400).length;
    await waitFor(() => greetings() >= 2, 8000, "the timed run's greeting, then the restart's");
    // a gun whose console was on USB already reads the `repl` line as JavaScript: harmless (cng flash sends it too)
    expect(g.errors.filter((e) => !/"repl" is not defined/.test(String(e)))).toEqual([]);
  }, 60_000);
});

// the board on USB with its switch off and the divider's top after the switch: the pin reads 0 V, and the check names
// that wiring instead of showing a flat cell (an ESP32's count 0 reads as 0.28 V through its typical transfer)
onInterpreter.concurrent.each(["esp32-bno085", "esp8266-mpu6050"])(
  "cng check on %s with nothing on its battery pin",
  (board) => {
    it("says the divider reads nothing and where its top belongs", async ({ onTestFinished }) => {
      const b = loadBoard(board);
      const g = await realGun({ board, config: CONFIG, battery: 0 }, onTestFinished);
      await sleep(2500);
      const r = await runCheck(g.usb, b);
      expect(r.done).toBe(true);
      expect(r.count).toBe(0);
      expect(r.lines).toContain(
        `led: it lights from its pins (3V3), on USB too: dark in every colour, its common leg is not on GND (or it is a common-anode LED: led.inv); one colour dark, that leg's pin or resistor`,
      );
      const said = describeCheck(r, b);
      expect(said.at(-1)).toMatch(/^battery: the divider reads nothing \(count 0\): its top is not on the cell/);
      expect(said.join("\n")).not.toMatch(/on the LiPo curve/);
    }, 60_000);
  },
);
