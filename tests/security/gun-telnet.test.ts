// @heavy: guns on the real Espruino interpreter, in real time
// The telnet console a player on the table's WiFi would open: Espruino's ESP32 and ESP8266 builds listen on TCP 23
// at every boot and hand the JavaScript console to whoever connects (`require("Storage").read("gun.json")`: the
// gun's key and the WiFi password). Both board models open it as those builds do (the real interpreter with
// `--telnet`); the firmware must turn it off. A gun started from each WiFi board's real bundle: a connection to its
// console port gets no console, on both runtimes; a bundle that leaves telnet on fails here. Likewise the soft access
// point an ESP8266's SDK keeps on from boot to boot (firmware/espruino/chips/wifi.mjs): down once the gun is up.
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { boardNames, createVirtualGun, type Gun, loadBoard } from "../../hub/src/sim/espruino/index.js";
import { onInterpreter, realGun, sleep, waitFor } from "../fakes/real-gun.js";

const KEY = "k3y-only-the-gun-and-its-hub-know";
const WIFI_PASS = "the-tables-wifi-password";
const config = (id: string) => ({
  id,
  secret: KEY,
  table: "main",
  hub: { host: "127.0.0.1", port: 9 },
  wifi: { ssid: "party", pass: WIFI_PASS },
});

/** the boards with WiFi: their Espruino builds carry the telnet console */
const wifiBoards = boardNames().filter((b) => (loadBoard(b).links ?? ["wifi"]).includes("wifi"));

/**
 * What a player gets from the gun's console port: connect, ask for gun.json as a console would run it, and collect
 * what comes back for `ms`. A refused connection gets nothing.
 */
async function tryConsole(port: number, ms = 1500): Promise<{ connected: boolean; got: string }> {
  return new Promise((resolve) => {
    let got = "";
    let connected = false;
    const s = connect(port, "127.0.0.1");
    const done = () => {
      s.destroy();
      resolve({ connected, got });
    };
    s.on("connect", () => {
      connected = true;
      s.write('print(require("Storage").read("gun.json"))\n');
      setTimeout(done, ms);
    });
    s.on("data", (b) => {
      got += b.toString("latin1");
    });
    s.on("error", () => resolve({ connected, got }));
  });
}

/** The console port gives nothing: refused, or connected to no console (the console forced where it is). */
async function expectNoConsole(g: Gun): Promise<void> {
  const port = await g.telnetPort();
  expect(port, "a WiFi board's model has a telnet port").toBeTypeOf("number");
  const r = await tryConsole(port!);
  expect(r.got).not.toContain(KEY);
  expect(r.got).not.toContain(WIFI_PASS);
  expect(r.got).not.toMatch(/^>|\r\n>/);
}

describe("the telnet console of a WiFi gun (vm runtime)", () => {
  const guns: Gun[] = [];
  afterEach(() => {
    for (const g of guns.splice(0)) g.stop();
  });

  it.each(wifiBoards)("%s: the console port gives no console", async (board) => {
    const g = createVirtualGun({ board, config: config(`tv-${board}`) });
    guns.push(g);
    await waitFor(() => g.console.some((l) => l.startsWith("CNG gun ")), 3000, "the firmware started");
    // the board's idle after the boot code: where Espruino opens the console
    await sleep(100);
    await expectNoConsole(g);
    expect(g.errors).toEqual([]);
  });

  it("the model opens it as Espruino does: a bundle that leaves telnet on hands gun.json to whoever connects", async () => {
    const g = createVirtualGun({
      board: "esp32-mpu6050",
      config: config("tv-open"),
      // a firmware that never turns telnet off
      code: 'console.log("CNG gun tv-open");',
    });
    guns.push(g);
    await sleep(100);
    const r = await tryConsole((await g.telnetPort())!);
    expect(r.connected).toBe(true);
    expect(r.got).toContain(KEY);
    expect(r.got).toContain(WIFI_PASS);
  });

  it.each(wifiBoards)("%s: no soft access point once the gun is on the WiFi", async (board) => {
    const g = createVirtualGun({ board, config: config(`ta-${board}`) });
    guns.push(g);
    await waitFor(() => g.wifi.connects.length > 0, 3000, "a WiFi connect");
    await waitFor(() => !g.wifi.ap, 3000, "the access point down");
  });

  it("the model's ESP8266 keeps its access point up while the firmware leaves it", async () => {
    const g = createVirtualGun({ board: "esp8266-mpu6050", config: config("ta-open"), code: 'require("Wifi");' });
    guns.push(g);
    await sleep(300);
    expect(g.wifi.ap).toBe(true);
  });

  it("a board without WiFi (Puck.js) has no telnet console", async () => {
    const g = createVirtualGun({ board: "puckjs", config: { id: "tp", secret: KEY } });
    guns.push(g);
    expect(await g.telnetPort()).toBeUndefined();
  });
});

onInterpreter("the telnet console of a WiFi gun (real interpreter, --telnet)", () => {
  it.concurrent.for(wifiBoards)("%s: the console port gives no console", async (board, { onTestFinished }) => {
    const g = await realGun({ board, config: config(`tr-${board}`) }, onTestFinished);
    await waitFor(() => g.connects.length > 0, 8000, "the firmware running (a connect to its hub)");
    await expectNoConsole(g);
    expect(g.errors).toEqual([]);
  });

  it.concurrent.for(wifiBoards)(
    "%s: no soft access point once the gun is on the WiFi",
    async (board, { onTestFinished }) => {
      const g = await realGun({ board, config: config(`ta-${board}`) }, onTestFinished);
      await waitFor(() => g.connects.length > 0, 8000, "a connect to its hub: the WiFi is up");
      await waitFor(() => !g.wifi.ap, 3000, "the access point down");
    },
  );

  it("the interpreter opens it as a board does: a bundle that leaves telnet on hands gun.json to whoever connects", async () => {
    const g = await realGun({
      board: "esp8266-mpu6050",
      config: config("tr-open"),
      code: 'console.log("CNG gun tr-open");',
    });
    await waitFor(() => g.console.includes("CNG gun tr-open"), 5000, "the bundle ran");
    const r = await tryConsole((await g.telnetPort())!);
    expect(r.connected).toBe(true);
    expect(r.got).toContain(KEY);
    expect(r.got).toContain(WIFI_PASS);
  });
});
