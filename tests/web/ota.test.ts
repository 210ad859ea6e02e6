// "Update guns" on the dashboard's setup page, in chromium, with a gun whose firmware runs on the real Espruino
// interpreter: the host clicks, the page says how many guns are being updated, the gun's row shows a progress bar
// while the chunks go, and then the new version once the gun is back running it. A viewer cannot click.
import { readFileSync } from "node:fs";
import { gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundlePathFor } from "../../hub/src/boards/profile.js";
import { hasChromium, launch, pageErrors, type TestBrowser } from "../fakes/browser.js";
import { connect, request, testHub } from "../fakes/hub.js";
import { interpreter, realGun, waitFor } from "../fakes/real-gun.js";

const FW = JSON.parse(readFileSync(new URL("../../firmware/dist/sizes.json", import.meta.url), "utf8")).version;
const BOARD = "esp32-mpu6050";

describe.skipIf((!hasChromium() && !process.env.CI) || !interpreter.path)("Update guns, in chromium", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  let b: TestBrowser;
  let host: MqttClient;
  const status = new Map<string, any>();
  const code = readFileSync(bundlePathFor(BOARD), "latin1").replace(JSON.stringify(FW), '"0.1.9"');

  beforeAll(async () => {
    hub = await testHub({
      ota: { ackMs: 1500, windowMs: 5000 },
      otaBundle: (board) => (board === BOARD ? { board, fw: "0.1.9", code } : `no ${board} bundle here`),
    });
    b = await launch();
    host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    host.on("message", (t, p) => {
      if (p.length) status.set(t.split("/").at(-2)!, JSON.parse(p.toString()));
    });
    await host.subscribeAsync(gunTopic(hub.table, "+", "status"));
    await realGun(
      {
        board: BOARD,
        config: {
          id: "w1",
          secret: "factory-secret",
          table: hub.table,
          hub: { host: "127.0.0.1", port: hub.ports.mqtt },
        },
        imu: { motion: () => ({ yaw: 0, pitch: 0, roll: 0 }) },
      },
      true,
    );
    await waitFor(() => status.get("w1")?.on, 10_000, "w1 asking to pair");
    const at = Date.now();
    await request(host, hub.table, "pair.accept", { gun: "w1", seat: 0 }, hub.pin);
    await waitFor(
      () => status.get("w1")?.paired && status.get("w1")?.on && status.get("w1").at >= at,
      10_000,
      "w1 paired",
    );
  }, 60_000);

  afterAll(async () => {
    host?.end(true);
    await b?.close();
    await hub?.stop();
  });

  it("a viewer sees the button but cannot use it", async () => {
    const viewer = await b.page(`${hub.urls.dashboard}#/setup`);
    await viewer.locator("#ota-update").waitFor();
    expect(await viewer.locator("#ota-update").isDisabled()).toBe(true);
    expect(pageErrors(viewer)).toEqual([]);
  });

  it("the host updates the gun: a bar while the chunks go, then the new version", async () => {
    const p = await b.page(`${hub.urls.dashboard}#/host`);
    await p.fill("#pin", hub.pin);
    await p.click("#pin-go");
    await p.locator("#lock", { hasText: "host" }).waitFor();
    await p.goto(`${hub.urls.dashboard}#/setup`);
    const row = p.locator('tr[data-gun="w1"]');
    await row.locator("td.fw", { hasText: FW }).waitFor();
    // remember every bar the row shows (they come and go faster than a poll)
    await p.evaluate(() => {
      const w = window as unknown as { bars: number[]; said: string[] };
      w.bars = [];
      w.said = [];
      new MutationObserver(() => {
        const bar = document.querySelector('tr[data-gun="w1"] progress.ota-bar') as HTMLProgressElement | null;
        if (bar) w.bars.push(bar.value / bar.max);
        const fw = document.querySelector('tr[data-gun="w1"] td.fw')?.textContent;
        if (fw) w.said.push(fw);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await p.click("#ota-update");
    await p.locator("#pair-msg", { hasText: "updating 1 gun to 0.1.9" }).waitFor();
    // back, running it: the version alone
    await row.locator("td.fw", { hasText: /^0\.1\.9$/ }).waitFor({ timeout: 40_000 });
    const bars = await p.evaluate(() => (window as unknown as { bars: number[] }).bars);
    const said = await p.evaluate(() => (window as unknown as { said: string[] }).said);
    expect(said.some((x) => /restarting into 0\.1\.9…/.test(x))).toBe(true);
    expect(bars.length).toBeGreaterThan(3);
    expect(bars.some((f) => f > 0 && f < 1)).toBe(true);
    expect(await row.locator("progress").count()).toBe(0);
    await waitFor(() => status.get("w1")?.info?.fw === "0.1.9", 10_000, "w1's status naming 0.1.9");
    // again: nothing to do, and the page says why
    await p.click("#ota-update");
    await p.locator("#pair-msg", { hasText: "w1 already runs 0.1.9" }).waitFor();
    expect(pageErrors(p)).toEqual([]);
  }, 90_000);
});
