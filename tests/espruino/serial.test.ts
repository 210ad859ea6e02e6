// @heavy: guns on the real Espruino interpreter, in real time
// The serial link (hardware/SERIAL.md) on the real Espruino interpreter, whose USB device is the cable: the console
// really leaves USB after 2 s and comes back on `repl` (the REPL answers again), or stays when the trigger is held.
// A Puck.js's Bluetooth, where anyone in range connects: the console leaves at once, and `repl` does not bring it back
// (tests/security/ble-puck.test.ts tries it as a stranger would).
import { expect, it } from "vitest";
import { countLines, onInterpreter, realGun, sleep, waitFor } from "../fakes/real-gun.js";

const cfg = { id: "g1", secret: "s-g1", table: "t1", link: "serial", hub: { host: "h" } };

// the ESP32s' USB serial port, and the Puck.js's Bluetooth (the Nordic UART; its console, moved away the same way);
// the boards side by side (each its own interpreter, mostly waiting; each gun stops at its own test's end)
onInterpreter.concurrent.each(["esp32-mpu6050", "esp32-bno085", "puckjs"])(
  "the serial link of %s on the real interpreter",
  (board) => {
    it("answers who, stops aim while the bridge is off the broker, and gives the console back on repl", async ({
      onTestFinished,
    }) => {
      const g = await realGun({ board, config: cfg }, onTestFinished);
      const lines = () => g.usb.out.split(/\r?\n/);
      const count = (leaf: string) => countLines(g, leaf);
      const bt = board === "puckjs";
      expect(g.usb.device).toBe(bt ? "Bluetooth" : "Serial1");
      if (!bt) expect(g.usb.console).toBe(g.usb.device);
      await waitFor(() => count("hello") === 1, 4000, "hello");
      expect(g.usb.console).toBe("LoopbackA");
      // a cable waits 2 s for `cng flash`; Bluetooth is taken at once
      if (bt) expect(g.now()).toBeLessThan(1500);
      else expect(g.now()).toBeGreaterThanOrEqual(2000);
      g.usb.send('who {"v":1}\n');
      await waitFor(() => count("hello") === 2, 2000, "a second hello");
      await waitFor(() => count("aim") > 5, 2000, "aim");
      // link off: like a WiFi drop, the aim stops (none for 800 ms), once the gun has read the line (later on a busy
      // machine)
      g.usb.send('link {"v":1,"on":0}\r\n');
      let a = await waitFor(
        async () => {
          const n = count("aim");
          await sleep(800);
          return count("aim") === n && n;
        },
        5000,
        "the aim to stop",
      );
      // link back, the line in two pieces: info and a clock probe at once, aim again
      const i = count("info");
      g.usb.send('link {"v":1,');
      await sleep(50);
      g.usb.send('"on":1}\n');
      await waitFor(() => count("info") === i + 1 && count("sync") > 0, 2000, "info and sync");
      await waitFor(() => count("aim") > a, 2000, "aim again");
      // a run of garbage longer than a line is skipped up to the next line end
      g.usb.send("x".repeat(3000));
      g.usb.send('more\nwho {"v":1}\n');
      await waitFor(() => count("hello") === 3, 3000, "hello after the garbage");
      // repl: on a cable the console is back on USB and the REPL answers; the gun sends no more lines. On Bluetooth
      // it is refused: the console stays away and the gun goes on
      g.usb.send('repl {"v":1}\n');
      if (bt) {
        await sleep(500);
        g.usb.send("print(6*7)\n");
        await sleep(500);
        expect(g.usb.console).toBe("LoopbackA");
        expect(lines().some((l) => l.trim() === "42")).toBe(false);
        a = count("aim");
        await waitFor(() => count("aim") > a, 2000, "aim still");
        expect(g.errors).toEqual([]);
        return;
      }
      await waitFor(() => g.usb.console === g.usb.device, 2000, "the console back on USB");
      await sleep(200);
      a = count("aim");
      g.usb.send("print(6*7)\n");
      await waitFor(() => lines().some((l) => l.trim() === "42"), 2000, "the REPL's answer");
      await sleep(500);
      expect(count("aim")).toBe(a);
      expect(g.errors).toEqual([]);
    }, 20_000);

    it("keeps the console on USB when the trigger is held through a reset", async ({ onTestFinished }) => {
      const bt = board === "puckjs";
      // a Puck takes its link at once: the button is down as it starts; a cable's 2 s leave time to press it
      const g = await realGun({ board, config: cfg, held: bt }, onTestFinished);
      if (!bt) g.button.press();
      await sleep(2600);
      expect(g.usb.console).toBe(g.usb.device);
      expect(g.usb.out).not.toMatch(/hello /);
      expect(g.console.join("\n")).toMatch(
        bt ? /trigger held: console stays on Bluetooth/ : /trigger held: console stays on USB/,
      );
    });
  },
);
