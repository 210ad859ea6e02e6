// @alone: a Puck.js on the real Espruino interpreter in real time, through a real browser's Bluetooth
// The dashboard as the Bluetooth bridge: in Chromium, Setup → "Connect Bluetooth guns" pairs a Puck.js
// gun — the real Puck bundle on the real Espruino interpreter — through Web Bluetooth, and the page bridges its
// lines onto the hub's broker as the gun itself (ble-bridge.js). The device is Chromium's own Bluetooth emulation
// (tests/web/bluetooth-device.ts; the gun's bytes come up as reads of RX, which the emulation can carry, where it has
// no way to send a notification). The gun pairs from the Setup page, aims, is shot at in a game and shows the wound;
// its link drops and the page reconnects it; it plays a whole scripted game through the page to the same result as
// the scenario runner. Pages that cannot use Bluetooth say why and offer no button.
import { createServer, type Server, Socket } from "node:net";
import { networkInterfaces } from "node:os";
import { gunTopic, tableTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { type Browser, type BrowserContext, type CDPSession, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearing, roundTable } from "../../hub/src/aim/index.js";
import type { RealGun } from "../../hub/src/sim/espruino/real-gun.js";
import { CHROMIUM, CHROMIUM_ARGS, hasChromium, launch, pageErrors, shot } from "../fakes/browser.js";
import { type Pose, TestGun } from "../fakes/gun.js";
import { connect, request, testHub } from "../fakes/hub.js";
import { expectedResult, setupOf } from "../fakes/paired-table.js";
import { Players } from "../fakes/players.js";
import { isRed, onInterpreter, realGun, sleep, waitFor } from "../fakes/real-gun.js";
import { randomScenario } from "../fakes/table-rig.js";
import { BLUETOOTH_FLAG, chooser, EmulatedPuck, emulateBluetooth, notifyByReads } from "./bluetooth-device.js";

type TestHub = Awaited<ReturnType<typeof testHub>>;
const NAMES = ["Ann", "Bob", "Cid", "Dee"];
const layout = roundTable(4);
const ID = "puck1";

/** This machine's first non-internal IPv4 address: a page there is not a secure context. */
function lanAddress(): string | null {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  return null;
}

/** Chromium with Web Bluetooth (its Linux flag) and the emulation on. */
async function launchBluetooth(): Promise<{ browser: Browser; central: CDPSession }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, BLUETOOTH_FLAG],
  });
  return { browser, central: await emulateBluetooth(browser) };
}

describe.skipIf(!hasChromium() && !process.env.CI)("the dashboard as the Bluetooth bridge", () => {
  onInterpreter("a Puck.js gun on the real interpreter, through Chromium's Bluetooth", () => {
    let hub: TestHub;
    let browser: Browser;
    let central: CDPSession;
    let ctx: BrowserContext;
    let host: Page;
    let watcher: MqttClient;
    let gun: RealGun;
    let puck: EmulatedPuck;
    let onState: (s: any) => void = () => {};
    const status = new Map<string, any>();
    const aims: any[] = [];
    const guns: TestGun[] = [];
    let pose = { yaw: 0, pitch: 5, roll: 0 };
    /** a hand holding the gun up: never quite still (a gun lying still and level reads as lying down) */
    const hand = (t: number, p = pose) => ({
      yaw: p.yaw + 0.8 * Math.sin(t * 6.3),
      pitch: p.pitch + 0.6 * Math.sin(t * 4.7 + 1),
      roll: p.roll + 0.5 * Math.sin(t * 3.9 + 2),
    });

    beforeAll(async () => {
      hub = await testHub();
      ({ browser, central } = await launchBluetooth());
      watcher = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
      watcher.on("message", (t, p) => {
        if (!p.length) return;
        const m = JSON.parse(p.toString());
        if (t === tableTopic(hub.table, "state")) {
          onState(m);
        } else if (t.endsWith("/status")) status.set(t.split("/").at(-2)!, m);
        else if (t === gunTopic(hub.table, ID, "aim")) aims.push({ ...m, at: Date.now() });
      });
      await watcher.subscribeAsync(
        [tableTopic(hub.table, "state"), gunTopic(hub.table, "+", "status"), gunTopic(hub.table, ID, "aim")],
        { qos: 1 },
      );
      for (let i = 1; i < 4; i++) guns.push(new TestGun(hub.urls.mqtt, hub.table, `gun${i}`, layout));
    }, 30_000);

    afterAll(async () => {
      for (const g of guns) g.close();
      watcher?.end(true);
      await browser?.close();
      await hub?.stop();
    });

    it("Setup → Connect Bluetooth guns: the Puck pairs through the page, stores its key and comes back on it", async () => {
      gun = await realGun(
        {
          board: "puckjs",
          config: { id: ID, secret: "factory-secret", table: hub.table },
          imu: { motion: (t) => hand(t) },
        },
        true,
      );
      // (it takes its link from Espruino's console as it starts: the page connects once the gun speaks lines)
      await waitFor(() => gun.usb.out.includes("hello "), 6000, "the gun's hello");
      puck = await EmulatedPuck.add(central, gun, "C0:FF:EE:00:00:01", "Puck.js 1a2b");

      ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      await ctx.addInitScript(notifyByReads);
      host = await ctx.newPage();
      host.setDefaultTimeout(20_000);
      const errors: string[] = [];
      host.on("pageerror", (e) => errors.push(e.message));
      (host as Page & { errors: string[] }).errors = errors;
      const pick = await chooser(host);
      await host.goto(`${hub.urls.dashboard}#/host`);
      await host.fill("#pin", hub.pin);
      await host.click("#pin-go");
      await host.locator("#lock", { hasText: "host" }).waitFor();
      await host.goto(`${hub.urls.dashboard}#/setup`);
      await host.locator("#ble-connect:not([disabled])").waitFor();
      // the library has loaded by the time the button is there; the click opens the chooser, which picks our Puck
      await sleep(300);
      pick.next = puck;
      await host.click("#ble-connect");
      const row = host.locator(`.ble-gun[data-gun="${ID}"]`);
      await expect.poll(() => row.getAttribute("data-state"), { timeout: 15_000 }).toBe("online");
      expect(await row.textContent()).toContain("asking to be paired");
      expect(puck.written).toMatch(/^who \{"v":1\}\n/);
      // the gun asks to be paired, as itself: the host accepts it to seat 1 (Ann) on the same page
      const req = host.locator(`.pair-req[data-gun="${ID}"]`);
      await req.waitFor();
      await req.locator("select").selectOption("0");
      await req.locator("button.primary").click();
      await expect
        .poll(async () => JSON.parse((await gun.readFile("gun.json"))!).secret, { timeout: 15_000 })
        .not.toBe("factory-secret");
      const stored = JSON.parse((await gun.readFile("gun.json"))!);
      await expect.poll(() => status.get(ID)?.paired && status.get(ID)?.on, { timeout: 15_000 }).toBe(true);
      // the key went down as a `cmd`, once; the gun said hello again with a nonce, never the key; the page asked the
      // hub to vouch for it (gun.bridge, over the host's sealed session), proved the link, and is on the broker with
      // its own login
      expect(puck.written).toContain(`"c":"key","k":"${stored.secret}"`);
      expect(puck.written.split(stored.secret).length - 1).toBe(1);
      await expect.poll(() => /auth \{"v":1,"m":"[0-9a-f]{64}"\}/.test(puck.written)).toBe(true);
      const hellos = gun.usb.out.split(/\r?\n/).filter((l) => l.startsWith("hello "));
      expect(hellos.filter((l) => l.includes(stored.secret))).toEqual([]);
      expect(JSON.parse(hellos.at(-1)!.slice(6)).n).toMatch(/^[0-9a-f]{16}$/);
      expect(gun.usb.out).not.toContain(stored.secret);
      await expect.poll(() => row.locator(".ble-state").textContent()).toBe("on the broker");
      await expect.poll(() => status.get(ID)?.info?.b).toBe("puckjs");
      const tr = host.locator(`table.gun-table tr[data-gun="${ID}"]`);
      await expect.poll(() => tr.textContent()).toContain("online");
      await shot(host, "setup-bluetooth");
      expect(gun.errors).toEqual([]);
      expect(pageErrors(host)).toEqual([]);
    }, 60_000);

    it("aims from its seat, and is shot at in a game: the wound shows on the page and on the Puck's LEDs", async () => {
      // the other three players' guns, paired one by one
      for (const [i, g] of guns.entries()) {
        await g.switchOn();
        await waitFor(() => status.get(g.id)?.on, 5000, `${g.id} asking`);
        expect(await request(watcher, hub.table, "pair.accept", { gun: g.id, seat: i + 1 }, hub.pin)).toMatchObject({
          ok: true,
        });
        await g.paired(i + 1);
      }
      const r = await request(
        watcher,
        hub.table,
        "game.new",
        {
          edition: "second",
          players: NAMES,
          seed: 7,
          // Dee is the Godfather (seat 4): Ann's Puck plays an ordinary seat
          godfather: 3,
          table: { timing: "fast", autoRound: false, secrets: "console", layout: { round: 4 } },
        },
        hub.pin,
      );
      expect(r).toMatchObject({ ok: true });
      await host.goto(`${hub.urls.dashboard}#/table`);
      await expect.poll(() => host.locator("g.seat").count()).toBe(4);

      // the Puck turns to Cid (seat 3): uncalibrated, its yaw is a table bearing, so it turns by what is missing
      // aim sent since the game was set up: what came before may predate a pause in the stream
      const seen = aims.length;
      await waitFor(() => aims.length > seen + 3, 10_000, "the Puck's aim");
      const want = bearing(layout, 0, 2);
      const turn = ((((want - aims.at(-1).y + 180) % 360) + 360) % 360) - 180;
      const from = { ...pose };
      const t0 = gun.now() + gun.leadMs;
      gun.imu.motion = (t) => {
        const k = Math.min(1, Math.max(0, (t * 1000 - t0) / 600));
        return hand(t, { yaw: from.yaw + turn * k, pitch: from.pitch, roll: 0 });
      };
      pose = { yaw: from.yaw + turn, pitch: from.pitch, roll: 0 };
      const off = () => Math.abs(((((aims.at(-1).y - want + 180) % 360) + 360) % 360) - 180);
      // the turn takes 600 ms; its aim crosses Chromium and the page, which a busy machine may hold up
      await waitFor(() => off() < 3, 8000, "the Puck's aim after the turn");
      gun.imu.motion = (t) => hand(t);
      expect(off()).toBeLessThan(3);
      await host.locator('line.aim[data-from="0"][data-to="2"]').waitFor({ state: "attached" });

      // the round: Bob has Bang! and aims at Ann's Puck; the others click; the Godfather gives no order
      const targets = [2, 0, 3, 1];
      let pulled = false;
      onState = (s) => {
        const a = s.table?.activity;
        if (a?.kind === "count" && a.purpose !== "courage")
          for (const seat of a.seats) if (seat > 0) guns[seat - 1]!.pose = { kind: "aim", target: targets[seat]! };
        if (a?.kind === "privilege") guns[2]!.pose = { kind: "away" };
        if (a?.kind === "reveal" && a.window === "bang" && !pulled) {
          pulled = true;
          setTimeout(() => guns[0]!.pull(), Math.max(0, a.opensAt - Date.now()) + 80);
        }
      };
      const cards = ["click", "bang", "click", "click"] as const;
      for (let seat = 0; seat < 4; seat++) {
        expect(await request(watcher, hub.table, "secret.bullet", { card: cards[seat], seat }, hub.pin)).toMatchObject({
          ok: true,
        });
      }
      const leds = gun.led.length;
      await host.locator("#start-round:not([disabled])").click();
      await host.locator("#result li", { hasText: "Bob → Ann: Bang!" }).waitFor({ timeout: 20_000 });
      await host.locator("#result li", { hasText: "Ann is wounded" }).waitFor();
      // the wound cue came down the page's Bluetooth link: red on the Puck's LEDs
      await waitFor(() => gun.led.slice(leds).some((l) => isRed(l.c)), 5000, "red on the Puck");
      expect(puck.written).toMatch(/cue \{"v":1,"n":\d+,"c":"wound"/);
      await shot(host, "bluetooth-wound");
      onState = () => {};
      expect(gun.errors).toEqual([]);
      expect(pageErrors(host)).toEqual([]);
    }, 90_000);

    it("the Bluetooth link drops: the page publishes the will, says so, and reconnects the same Puck without a chooser", async () => {
      await host.goto(`${hub.urls.dashboard}#/setup`);
      const row = host.locator(`.ble-gun[data-gun="${ID}"]`);
      await expect.poll(() => row.getAttribute("data-state")).toBe("online");
      const connections = puck.connections;
      const auths = puck.written.split("\nauth ").length;
      await puck.drop();
      await expect.poll(() => row.getAttribute("data-state")).toBe("lost");
      expect(await row.textContent()).toContain("link lost, reconnecting");
      await expect.poll(() => status.get(ID)?.on, { timeout: 10_000 }).toBe(false);
      // out of range for a while: the page keeps trying (each attempt fails)
      await sleep(3000);
      expect(puck.connections).toBe(connections);
      puck.back();
      await expect.poll(() => row.getAttribute("data-state"), { timeout: 15_000 }).toBe("online");
      expect(puck.connections).toBe(connections + 1);
      // the new link proved itself again (the gun took nothing from it before)
      expect(puck.written.split("\nauth ").length).toBeGreaterThan(auths);
      await expect.poll(() => status.get(ID)?.on && status.get(ID)?.paired, { timeout: 10_000 }).toBe(true);
      const n = aims.length;
      await waitFor(() => aims.length > n + 3, 5000, "aim again");
      expect(gun.errors).toEqual([]);
      expect(pageErrors(host)).toEqual([]);
    }, 60_000);

    it("plays a whole game through the page's bridge: it ends as the scenario runner ends it", async () => {
      // a seeded bot game as the script (nothing hard-coded): consoles send the cards, the host enters the rest, each
      // gun aims where its player aims and lowers to lie down — the Puck by its IMU, its bytes through the page
      const scenario = randomScenario("classic", 4, 3);
      const tokens: string[] = [];
      for (let seat = 0; seat < 4; seat++)
        tokens.push(
          ((await request(watcher, hub.table, "seat.token", { seat }, hub.pin)).r as { token: string }).token,
        );
      const started = await request(
        watcher,
        hub.table,
        "game.new",
        setupOf(scenario, { secrets: "console", timing: "fast", layout: { round: 4 } }),
        hub.pin,
      );
      expect(started.ok, JSON.stringify(started)).toBe(true);
      // Ann holds the Puck like a player: she turns to her target, then, as a player watching the gun's light would,
      // corrects by what the gun reads (uncalibrated, its yaw is its own; coming up from lying down the filter's yaw
      // has moved)
      const wrap = (d: number) => ((((d + 180) % 360) + 360) % 360) - 180;
      gun.imu.motion = (t) => hand(t);
      let puckPose: Pose = { kind: "away" };
      let steering: ReturnType<typeof setInterval> | undefined;
      // She judges only by what the gun read after her last move had settled (a sample taken before it, still on
      // its way through the page, would make her turn twice).
      const SETTLE_MS = 120;
      /** when a sample was taken, on this process's clock (its gun time, by the fastest recent arrival) */
      const takenAt = (a: { t: number }) => a.t + Math.min(...aims.slice(-50).map((x) => x.at - x.t));
      const steer = (want: number) => {
        let since = Date.now() + gun.leadMs;
        steering = setInterval(() => {
          const a = aims.at(-1);
          if (!a || takenAt(a) < since + SETTLE_MS) return;
          const off = wrap(want - a.y);
          if (Math.abs(off) < 2) return;
          pose = { ...pose, yaw: pose.yaw + off };
          since = Date.now() + gun.leadMs;
        }, 40);
      };
      const puckSeat = {
        seat: 0,
        online: true,
        get pose() {
          return puckPose;
        },
        set pose(p: Pose) {
          if (JSON.stringify(p) === JSON.stringify(puckPose)) return;
          puckPose = p;
          clearInterval(steering);
          const want = p.kind === "aim" ? bearing(layout, 0, p.target) : bearing(layout, 0, 2) + 180;
          const now = aims.at(-1)?.y ?? want;
          pose = { yaw: pose.yaw + wrap(want - now), pitch: p.kind === "lowered" ? -70 : 5, roll: 0 };
          if (p.kind === "aim") steer(want);
        },
        pull: () => {
          gun.button.press();
          setTimeout(() => gun.button.release(), 120);
        },
      };
      const testGuns = guns.map((g, i) => ({
        seat: i + 1,
        online: true,
        get pose() {
          return g.pose;
        },
        set pose(p: Pose) {
          g.pose = p;
        },
        pull: () => g.pull(),
      }));
      const players = new Players(watcher, hub.table, hub.pin, scenario, [puckSeat, ...testGuns], {
        consoles: true,
        tokens,
      });
      // what the table showed of Ann's (the Puck's) aim, round by round
      const shown = new Map<number, number | null>();
      onState = (st) => {
        const g = st.game;
        const aim = g?.players?.[0]?.aim;
        if (aim !== undefined) shown.set(g.round, aim);
      };
      await players.start();
      try {
        await players.over(150_000);
      } finally {
        players.stop();
        clearInterval(steering);
        onState = () => {};
      }
      // every round Ann played, the table read the Puck's aim (from table/state) and its lie-down (the round's public
      // events, replayed from the log) as her script has them
      const game = (started.r as { game: number }).game;
      const story = (await request(watcher, hub.table, "game.history", { game }, hub.pin)).r as {
        rounds: { round: number; events: { type: string; seat?: number }[] }[];
      };
      const ann = scenario.players[0]!;
      let played = 0;
      scenario.rounds.forEach((round, i) => {
        if (!(ann in round.aims)) return;
        played++;
        const target = round.aims[ann];
        expect(shown.get(i + 1), `round ${i + 1}: Ann's aim`).toBe(
          target === null || target === undefined ? null : scenario.players.indexOf(target),
        );
        const down = story.rounds[i]!.events.some((e) => e.type === "lie-down" && e.seat === 0);
        expect(down, `round ${i + 1}: Ann lies down`).toBe(round.lieDown.includes(ann));
      });
      expect(played).toBeGreaterThan(1);
      expect(scenario.rounds.some((r) => r.lieDown.includes(ann))).toBe(true);
      const st = await request(watcher, hub.table, "game.state", undefined, hub.pin);
      // the same result as the scenario runner: every aim and lie-down of the Puck was read from its samples as they
      // came through the page, and matched the script
      expect((st.r as { result: unknown }).result).toEqual(expectedResult(scenario));
      expect(gun.errors).toEqual([]);
      expect(pageErrors(host)).toEqual([]);
    }, 200_000);

    it("a page that is not a secure context (http://<LAN address>) says how to get one, and offers no button", async () => {
      const lan = lanAddress();
      if (!lan) return console.warn("SKIPPED: no LAN IPv4 address on this machine");
      // the hub stays on loopback; a plain TCP relay puts it on the LAN address for this page
      const port = Number(new URL(hub.urls.dashboard).port);
      const relay: Server = createServer((s) => {
        const to = new Socket();
        to.connect(port, "127.0.0.1");
        s.pipe(to).pipe(s);
        s.on("error", () => to.destroy());
        to.on("error", () => s.destroy());
      });
      await new Promise<void>((r) => relay.listen(0, lan, r));
      try {
        const page = await ctx.newPage();
        const url = `http://${lan}:${(relay.address() as { port: number }).port}/#/setup`;
        await page.goto(url);
        expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
        const words = page.locator("#ble-blocked");
        await words.waitFor();
        expect(await words.textContent()).toContain(
          `open the dashboard on the laptop itself at http://localhost:${(relay.address() as { port: number }).port}/#/setup, or over https`,
        );
        expect(await words.textContent()).toContain("A phone on http://<LAN address> cannot use Bluetooth");
        expect(await page.locator("#ble-connect").count()).toBe(0);
        await shot(page, "bluetooth-insecure");
        await page.close();
      } finally {
        relay.close();
      }
    });
  });

  it("a browser without Web Bluetooth says so, and offers no button", async () => {
    const hub = await testHub();
    // Debian's Chromium as it comes: no Web Bluetooth on Linux without its flag
    const b = await launch();
    try {
      const page = await b.page(`${hub.urls.dashboard}#/setup`);
      expect(await page.evaluate(() => window.isSecureContext && !("bluetooth" in navigator))).toBe(true);
      const words = page.locator("#ble-blocked");
      await words.waitFor();
      expect(await words.textContent()).toContain("This browser has no Web Bluetooth");
      expect(await page.locator("#ble-connect").count()).toBe(0);
      expect(pageErrors(page)).toEqual([]);
    } finally {
      await b.close();
      await hub.stop();
    }
  }, 30_000);
});
