// @heavy: guns on the real Espruino interpreter, in real time
// Every board's bundle, byte for byte as flashed, booting on the real Espruino interpreter from its Storage:
// the documented gun.json starts the gun; each kind of bad gun.json gives its documented console error, a red blink
// and a low beep, and keeps the gun off the network.
import { expect, it } from "vitest";
import { boardNames, loadBoard } from "../../hub/src/sim/espruino/index.js";
import { expectRefusedConfig, onInterpreter, realGun, sleep, waitFor } from "../fakes/real-gun.js";

/** firmware/README.md's gun.json, as a user would write it */
const DOCUMENTED = {
  id: "g1",
  secret: "s3cret-factory",
  table: "main",
  hub: { host: "127.0.0.1", port: 9 },
  wifi: { ssid: "party", pass: "pw" },
  hz: 25,
  ka: 15,
  click: true,
};

onInterpreter.each(boardNames())("%s on the real interpreter", (board) => {
  // a board without WiFi (the Puck.js) takes its link, Bluetooth, whatever gun.json says: tests/espruino/puck.test.ts
  // boots it with the documented gun.json
  const wifi = (loadBoard(board).links ?? ["wifi"]).includes("wifi");
  it.skipIf(!wifi)(
    "boots from Storage with the documented gun.json: joins the WiFi, dials the hub, greets with a beep",
    async () => {
      const g = await realGun({ board, config: DOCUMENTED });
      await waitFor(() => g.connects.length > 0, 5000, "a TCP connect to the hub");
      expect(g.console[0]).toBe(`CNG gun g1 fw 0.1.0 on ${board}`);
      expect(g.wifi.connects[0]).toEqual({ ssid: "party", password: "pw" });
      expect(g.connects[0]).toBe("127.0.0.1:9");
      // the radio stays awake: the chip starts in modem sleep (every message to it would wait for a DTIM beacon)
      expect(g.wifi.powersave).toBe("none");
      // the boot greeting: green, two rising tones
      await waitFor(() => g.tones.some((t) => t.f === 2400), 3000, "the second tone");
      expect(g.led.some((l) => l.c !== 0 && (l.c & 0xff00) !== 0 && l.c >> 16 === 0)).toBe(true);
      expect(g.tones.filter((t) => t.f > 0).map((t) => t.f)).toEqual([1800, 2400]);
      expect(g.errors).toEqual([]);
    },
  );

  it("refuses every kind of bad gun.json with its documented console error, and stays off the network", async () => {
    const ok = { id: "g1", secret: "x", hub: { host: "127.0.0.1" } };
    // on the serial link alone (the Puck.js) no hub host is needed
    const hubMissing: [object, string][] = wifi
      ? [[{ id: "g1", secret: "x", wifi: { ssid: "w", pass: "p" } }, "gun.json: hub.host missing"]]
      : [];
    const cases: [object | string | null, string][] = [
      [null, "gun.json: missing"],
      ["{not json", "gun.json: missing"],
      ["42", "gun.json: not a JSON object"],
      [{ ...ok, id: "Bad Id!" }, "gun.json: id must be a-z 0-9 _ -"],
      [{ ...ok, id: "a".repeat(33) }, "gun.json: id must be a-z 0-9 _ -"],
      [{ ...ok, id: "-g1" }, "gun.json: id must be a-z 0-9 _ -"],
      [{ ...ok, secret: "" }, "gun.json: secret missing"],
      ...hubMissing,
      [{ ...ok, hub: { host: "h", port: 70000 } }, "gun.json: hub.port invalid"],
      [{ ...ok, table: "Main Table" }, "gun.json: table invalid"],
      [{ ...ok, wifi: { ssid: "w" } }, "gun.json: wifi needs ssid, pass"],
      [{ ...ok, hz: 500 }, "gun.json: hz must be 1-50"],
      [{ ...ok, ka: 1 }, "gun.json: ka must be 5-300"],
      [
        { ...ok, link: "radio" },
        !wifi
          ? "gun.json: link must be serial (this board has no WiFi)"
          : board.startsWith("esp32")
            ? "gun.json: link must be wifi or serial"
            : "gun.json: link must be wifi (this board has no serial)",
      ],
    ];
    if (board.startsWith("esp8266"))
      cases.push([{ ...ok, link: "serial" }, "gun.json: link must be wifi (this board has no serial)"]);
    const guns = await Promise.all(cases.map(([config]) => realGun({ board, config })));
    await sleep(2300);
    guns.forEach((g, i) => {
      const why = cases[i]![1];
      expectRefusedConfig(g, cases[i]![0], why);
      expect(g.connects, why).toEqual([]);
      expect(g.wifi.connects, why).toEqual([]);
    });
  }, 60_000);

  it("accepts the longest id and every allowed character", async () => {
    const id = "a0_-z9".padEnd(32, "x");
    const g = await realGun({ board, config: { ...DOCUMENTED, id } });
    await waitFor(() => g.console.length > 0, 5000, "the first console line");
    expect(g.console[0]).toBe(`CNG gun ${id} fw 0.1.0 on ${board}${wifi ? "" : " on Bluetooth"}`);
  });
});
