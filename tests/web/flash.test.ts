// @real-time: a real browser, in real time
// Setup → "Flash a gun over USB", in chromium: Web Serial is faked at the browser API level (navigator.serial's
// requestPort gives a port whose byte streams go through page.exposeBinding to the test), and those bytes are the
// console of the real Espruino interpreter (its Linux build) with the board around it (./espruino-board.ts). The
// page flashes through @espruino-tools/core (espruino-link.js); the board's Storage then holds exactly what
// `cng flash` writes: the same flash is done by `cng flash`'s own path (EspruinoTools on a pseudo-terminal bridged
// to a second interpreter) and the two boards' Storage compared byte for byte, and both against planFlash's bundle
// and gun.json text. The flashed board boots the gun: it joins the WiFi and asks the hub to pair.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundlePathFor } from "../../hub/src/boards/profile.js";
import { flash, planFlash } from "../../hub/src/flash/flash.js";
import { CHROMIUM, hasChromium } from "../fakes/browser.js";
import { testHub } from "../fakes/hub.js";
import { interpreter } from "../fakes/real-gun.js";
import { startBoard, type TestBoard } from "./espruino-board.js";

const BOARD = "esp32-mpu6050";
const bundle = readFileSync(bundlePathFor(BOARD), "latin1");
/** a host name for the hub that is not this machine's own: a page there is no secure context */
const LAN_NAME = "cng-lan.test";

/**
 * navigator.serial, faked at the API level: requestPort() gives a port whose readable stream pulls bytes from the
 * test (__serialRead) and whose writable stream hands bytes to it (__serialWrite), one char a byte.
 */
function fakeWebSerial(): void {
  const w = window as any;
  (navigator as any).serial.requestPort = async () => {
    const port = {
      readable: new ReadableStream({
        async pull(c) {
          const s: string | null = await w.__serialRead();
          if (s === null) return c.close();
          const u = new Uint8Array(s.length);
          for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
          c.enqueue(u);
        },
      }),
      writable: new WritableStream({
        async write(chunk: ArrayBuffer | Uint8Array) {
          const u = chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk);
          let s = "";
          for (let i = 0; i < u.length; i++) s += String.fromCharCode(u[i]!);
          await w.__serialWrite(s);
        },
      }),
      open: async (o: { baudRate: number }) => w.__serialOpen(o.baudRate),
      close: async () => w.__serialClose(),
    };
    return port;
  };
}

/** The test's end of the fake port: a board's console, or nothing that answers (board null). */
class FakePort {
  baud = 0;
  opened = 0;
  closed = 0;
  sent = "";
  private queue: string[] = [];
  private wake: (() => void) | null = null;
  /** what the line does to the bytes on their way to the board (a noisy cable) */
  noise: (s: string) => string = (s) => s;
  constructor(private board: TestBoard | null) {
    board?.onConsole((s) => {
      if (!this.opened || this.closed) return;
      this.queue.push(s);
      this.wake?.();
    });
  }
  async attach(page: Page): Promise<void> {
    await page.exposeBinding("__serialOpen", (_, baud: number) => {
      this.baud = baud;
      this.opened++;
    });
    await page.exposeBinding("__serialClose", () => {
      // bytes still on the line as the port closes reach a read already waiting (a real port's buffer does so)
      if (this.wake) this.queue.push("\r\n");
      this.closed++;
      this.wake?.();
    });
    await page.exposeBinding("__serialWrite", (_, s: string) => {
      this.sent += s;
      this.board?.write(this.noise(s));
    });
    await page.exposeBinding("__serialRead", async () => {
      while (!this.queue.length && !this.closed) await new Promise<void>((r) => (this.wake = r));
      this.wake = null;
      return this.queue.length ? this.queue.splice(0).join("") : null;
    });
    await page.addInitScript(fakeWebSerial);
  }
}

/** A pseudo-terminal whose other end is a board's console, for `cng flash` (EspruinoTools opens a device path). */
const PTY_BRIDGE = `
import os, pty, select, sys, tty
m, s = pty.openpty()
tty.setraw(m); tty.setraw(s)
print(os.ttyname(s), flush=True)
out = sys.stdout.fileno(); inp = sys.stdin.fileno()
while True:
    r, _, _ = select.select([m, inp], [], [], 60)
    if inp in r:
        d = os.read(inp, 65536)
        if not d: break
        os.write(m, d)
    if m in r:
        try: d = os.read(m, 65536)
        except OSError: continue
        os.write(out, d)
`;

interface Bridge {
  path: string;
  stop(): void;
}

/** Bridges a pty to the board's console, byte for byte both ways. */
async function ptyBridge(board: TestBoard): Promise<Bridge> {
  const py: ChildProcess = spawn("python3", ["-c", PTY_BRIDGE], { stdio: ["pipe", "pipe", "inherit"] });
  const b = { path: "", stop: () => py.kill() };
  board.onConsole((s) => py.stdin?.write(Buffer.from(s, "latin1")));
  py.stdin?.on("error", () => {});
  await new Promise<void>((resolve) => {
    let head = "";
    py.stdout!.on("data", (d: Buffer) => {
      if (!b.path) {
        head += d.toString("latin1");
        const nl = head.indexOf("\n");
        if (nl >= 0) {
          b.path = head.slice(0, nl);
          resolve();
        }
        return;
      }
      board.write(d.toString("latin1"));
    });
  });
  return b;
}

const INPUTS = { id: "g1", table: "main", ssid: "party", pass: 'pa"ss\\w', mount: "+x-z" };

// each test its own board (an interpreter), port and page on the one hub and browser: they run side by side, mostly
// waiting on the line
describe
  .skipIf((!hasChromium() && !process.env.CI) || !interpreter.path)
  .concurrent("Flash a gun over USB, in chromium", () => {
    let hub: Awaited<ReturnType<typeof testHub>>;
    let browser: Browser;
    const boards: TestBoard[] = [];
    const board = async (o?: Parameters<typeof startBoard>[0]) => {
      const b = await startBoard(o);
      boards.push(b);
      return b;
    };

    beforeAll(async () => {
      hub = await testHub();
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--no-first-run",
          `--host-resolver-rules=MAP ${LAN_NAME} 127.0.0.1`,
        ],
      });
    }, 30_000);

    afterAll(async () => {
      for (const b of boards) await b.stop();
      await browser?.close();
      await hub?.stop();
    });

    /** A page on the Setup page: the host's (PIN given) or a viewer's, with the fake serial port on it. */
    async function setupPage(port: FakePort | null, o: { host?: boolean; at?: string; init?: () => void } = {}) {
      const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
      const page = await ctx.newPage();
      page.setDefaultTimeout(20_000);
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      if (o.init) await page.addInitScript(o.init);
      await port?.attach(page);
      const base = o.at ?? hub.urls.dashboard;
      if (o.host !== false) {
        await page.goto(`${base}#/host`);
        await page.fill("#pin", hub.pin);
        await page.click("#pin-go");
        await page.locator("#lock", { hasText: "host" }).waitFor();
      }
      await page.goto(`${base}#/setup`);
      await page.locator("#flash-gun h3").waitFor();
      return { page, errors };
    }

    async function fillForm(page: Page, board = BOARD): Promise<void> {
      await page.locator("#flash-go").waitFor();
      await page.selectOption("#flash-board", board);
      await page.fill("#flash-id", INPUTS.id);
      await page.fill("#flash-table", INPUTS.table);
      await page.selectOption("#flash-link", "wifi");
      await page.fill("#flash-ssid", INPUTS.ssid);
      await page.fill("#flash-pass", INPUTS.pass);
      await page.fill("#flash-hub", "127.0.0.1");
      await page.selectOption("#flash-mount", INPUTS.mount);
    }

    it("the host flashes a gun: Storage holds exactly what cng flash writes, and the gun boots and asks to pair", async () => {
      // a gun flashed before and updated over the air since: its old files, and the update's
      const a = await board({
        files: {
          ".bootcde": `print("an old gun");${" ".repeat(20000)}`,
          "gun.json": '{"id":"old","secret":"x","hub":{"host":"10.0.0.9"}}',
          "ota.json": '{"f":"gun.a","c":1}',
          "gun.a": "old update",
          "gun.b": "older update",
        },
      });
      await a.report("B");
      const port = new FakePort(a);
      const { page, errors } = await setupPage(port);
      // a Puck.js is not flashed here: the page says where, and that its console takes the button held as it starts
      expect(await page.locator("#flash-puck").textContent()).toMatch(
        /starts with its button held.*cng flash -b puckjs/,
      );
      // the hub's MQTT port is the default
      expect(await page.inputValue("#flash-hub-port")).toBe(String(hub.ports.mqtt));
      // and the hub's address for guns its first LAN address (none here: the test hub listens on 127.0.0.1 only)
      const facts = await (await fetch(`${hub.urls.dashboard}api/hub`)).json();
      expect(await page.inputValue("#flash-hub")).toBe(facts.lan[0] ? new URL(facts.lan[0]).hostname : "");
      expect(await page.locator("#flash-blocked").count()).toBe(0);
      await fillForm(page);
      await page.evaluate(() => {
        const w = window as unknown as { bars: number[] };
        w.bars = [];
        new MutationObserver(() => {
          const bar = document.querySelector("#flash-bar") as HTMLProgressElement | null;
          if (bar && !bar.hidden) w.bars.push(bar.value);
        }).observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
      });
      expect(a.out).toContain("an old gun");
      const before = a.out.length;
      const t0 = Date.now();
      await page.click("#flash-go");
      await page.locator("#flash-msg.ok", { hasText: "flashed gun g1: Espruino 2v29" }).waitFor({ timeout: 90_000 });
      const took = Date.now() - t0;
      expect(port.baud).toBe(115200);
      // the console was asked for first (a gun on its serial link gives it back on this line), once with Ctrl-C
      expect(port.sent.startsWith('\nrepl {"v":1}\n\x03')).toBe(true);
      expect(port.sent.split("\x03").length - 1).toBe(1);
      // every command without echo (DLE first), no raw control byte in the data
      const commands = new RegExp(`${String.fromCharCode(0x10)}[^\n]*\n`, "g");
      expect(port.sent.replace(commands, "")).toBe('\nrepl {"v":1}\n\x03');
      const bars = await page.evaluate(() => (window as unknown as { bars: number[] }).bars);
      expect(bars.some((f) => f > 0.1 && f < 0.9)).toBe(true);
      expect(await page.locator("#flash-bar").evaluate((b: HTMLProgressElement) => b.value)).toBe(1);

      // the board boots the gun: into the WiFi it was given, then to the hub, which shows it asking to pair
      expect(await a.report("W")).toEqual([INPUTS.ssid, INPUTS.pass]);
      expect(await a.report("N")).toEqual(["127.0.0.1", hub.ports.mqtt]);
      await page.locator('.pair-req[data-gun="g1"]').waitFor({ timeout: 20_000 });
      const since = a.out.slice(before);
      expect(since.includes("CNG gun g1 fw 0.1.0 on esp32-mpu6050")).toBe(true);
      expect(since.includes("an old gun")).toBe(false);

      // Storage: the bundle byte for byte, gun.json as cng flash builds it for the same inputs, the update's files gone
      const files = await a.list();
      expect(files).toEqual([".boot0", ".bootcde", "gun.json"]);
      const code = await a.readFile(".bootcde");
      expect(code === bundle).toBe(true); // (not toBe: the diff would be the bundle)
      const configText = (await a.readFile("gun.json"))!;
      const secret = JSON.parse(configText).secret as string;
      expect(secret).toMatch(/^[A-Za-z0-9_-]{16}$/);
      const config = {
        id: INPUTS.id,
        secret,
        table: INPUTS.table,
        hub: { host: "127.0.0.1", port: hub.ports.mqtt! },
        wifi: { ssid: INPUTS.ssid, pass: INPUTS.pass },
        mount: INPUTS.mount,
      };
      const plan = planFlash(BOARD, config);
      expect(configText).toBe(plan.configText);
      expect(code === plan.bundle).toBe(true);
      // the page says the secret, as cng flash prints it
      expect(await page.locator("#flash-msg").textContent()).toContain(secret);

      // cng flash's own path, the same inputs, onto a new board: the two boards' Storage byte for byte
      const b = await board();
      await b.report("B");
      const bridge = await ptyBridge(b);
      try {
        const r = await flash(plan, { path: bridge.path });
        expect(r.version).toBe("2v29");
      } finally {
        bridge.stop();
      }
      await b.report("W");
      expect(await b.list()).toEqual(files);
      for (const f of files) expect((await b.readFile(f)) === (await a.readFile(f)), f).toBe(true);
      expect(b.exited).toBe(false);
      expect(errors).toEqual([]);
      // the whole flash, written and read back, well inside a minute
      expect(took).toBeLessThan(60_000);
    }, 180_000);

    it("a gun on its serial link gives the console back when asked, is flashed, and says hello on its link", async ({
      expect,
    }) => {
      // a gun running on its USB cable (hardware/SERIAL.md): the console is away from USB, the gun's lines are there
      const c = await board({
        files: { ".bootcde": bundle, "gun.json": '{"id":"old","secret":"old-secret","link":"serial"}' },
      });
      await c.report("K", (v) => v === "LoopbackA");
      // (the hello follows the console's move: on a loaded machine a moment later)
      await expect.poll(() => c.out, { timeout: 5000 }).toContain('hello {"v":1,"id":"old"');
      const port = new FakePort(c);
      const { page, errors } = await setupPage(port);
      await page.locator("#flash-go").waitFor();
      await page.selectOption("#flash-board", BOARD);
      await page.fill("#flash-id", "g3");
      await page.selectOption("#flash-link", "serial");
      // the WiFi and hub fields are for the WiFi link only
      expect(await page.locator("#flash-ssid").isVisible()).toBe(false);
      const before = c.out.length;
      await page.click("#flash-go");
      await page.locator("#flash-msg.ok", { hasText: "flashed gun g3" }).waitFor({ timeout: 90_000 });
      expect(await page.locator("#flash-msg").textContent()).toContain("--serial-gun");
      const configText = (await c.readFile("gun.json"))!;
      const secret = JSON.parse(configText).secret as string;
      const plan = planFlash(BOARD, { id: "g3", secret, table: "main", link: "serial" });
      expect(configText).toBe(plan.configText);
      expect((await c.readFile(".bootcde")) === plan.bundle).toBe(true);
      // restarted: the new gun takes its link again and says hello with its new id and secret
      await c.report("K", (v) => v === "LoopbackA", 10_000);
      const hello = `hello {"v":1,"id":"g3","k":"${secret}"`;
      await expect.poll(() => c.out.slice(before).includes(hello), { timeout: 10_000 }).toBe(true);
      expect(errors).toEqual([]);
    }, 120_000);

    it("a viewer has no flash button", async () => {
      const { page, errors } = await setupPage(null, { host: false });
      await page.locator("#flash-gun", { hasText: "the host flashes guns here" }).waitFor();
      expect(await page.locator("#flash-go").count()).toBe(0);
      expect(errors).toEqual([]);
    });

    it("a board of another kind is refused before anything is written", async () => {
      const c = await board({ board: "esp8266-mpu6050" });
      await c.report("B");
      const port = new FakePort(c);
      const { page } = await setupPage(port);
      await fillForm(page, BOARD);
      await page.click("#flash-go");
      await page.locator("#flash-msg.error", { hasText: "wrong board: it says LINUX (ESP8266), not ESP32" }).waitFor();
      expect(await page.locator("#flash-msg").textContent()).not.toContain("half-written");
      expect(port.sent).not.toContain("Storage");
      expect(await c.list()).toEqual([".boot0"]);
      expect(c.exited).toBe(false);
    }, 60_000);

    it("a byte changed on the line is caught by the read-back, and the page says the board is half-written", async () => {
      const d = await board();
      await d.report("B");
      const port = new FakePort(d);
      // one letter of the bundle's third chunk arrives changed
      let hit = false;
      port.noise = (s) => {
        if (hit || !/Storage"\)\.write\("\.bootcde",.*,768\)/.test(s)) return s;
        hit = true;
        return s.replace("function", "funktion");
      };
      const { page } = await setupPage(port);
      await fillForm(page);
      await page.click("#flash-go");
      await page.locator("#flash-msg.error", { hasText: "read back differs (.bootcde differs at byte 768)" }).waitFor({
        timeout: 60_000,
      });
      expect(hit).toBe(true);
      expect(await page.locator("#flash-msg").textContent()).toContain("The board holds a half-written gun");
      // and it was not restarted into it
      expect(port.sent).not.toContain("load()");
    }, 90_000);

    it("no answer from the port: the page says so within seconds", async () => {
      const port = new FakePort(null);
      const { page } = await setupPage(port);
      await fillForm(page);
      const t0 = Date.now();
      await page.click("#flash-go");
      await page.locator("#flash-msg.error", { hasText: "no answer from an Espruino console" }).waitFor();
      expect(Date.now() - t0).toBeLessThan(10_000);
      expect(port.closed).toBe(1);
    }, 30_000);

    it("a bad form is refused with the same rules as cng flash, before any port is asked for", async () => {
      const port = new FakePort(null);
      const { page } = await setupPage(port);
      await fillForm(page);
      await page.fill("#flash-id", "Bad Id");
      await page.click("#flash-go");
      await page.locator("#flash-msg.error", { hasText: "the gun id is 1-32 of a-z 0-9 _ -" }).waitFor();
      await page.fill("#flash-id", "g2");
      await page.fill("#flash-hub", "");
      await page.click("#flash-go");
      await page.locator("#flash-msg.error", { hasText: "give the hub's address" }).waitFor();
      await page.fill("#flash-hub", "127.0.0.1");
      await page.fill("#flash-batk", "1.4");
      await page.click("#flash-go");
      await page
        .locator("#flash-msg.error", { hasText: "the battery calibration is a factor from 0.8 to 1.25" })
        .waitFor();
      // no divider (a power bank): no factor to give
      await page.selectOption("#flash-bat", "none");
      expect(await page.locator("#flash-batk").isVisible()).toBe(false);
      expect(port.opened).toBe(0);
    });

    it("says where the browser has no Web Serial, and where the page is no secure context", async () => {
      const none = await setupPage(null, {
        init: () => Object.defineProperty(Navigator.prototype, "serial", { get: () => undefined }),
      });
      await none.page.locator("#flash-blocked", { hasText: "this browser has no Web Serial" }).waitFor();
      expect(await none.page.locator("#flash-go").isDisabled()).toBe(true);
      // the dashboard by a LAN name, as a phone or another computer reaches it: http, not localhost
      const lan = await setupPage(null, { at: hub.urls.dashboard.replace("127.0.0.1", LAN_NAME) });
      expect(await lan.page.evaluate(() => window.isSecureContext)).toBe(false);
      await lan.page.locator("#flash-blocked", { hasText: "not a secure context" }).waitFor();
      expect(await lan.page.locator("#flash-go").isDisabled()).toBe(true);
    });
  });
