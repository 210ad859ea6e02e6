// @real-time: a real browser, in real time
// The host's browser in chromium: logged in with the PIN once, it keeps a token of its own and is the host on every
// visit after, also while someone spends the hub's PIN budget from many addresses; Setup lists the host devices, and
// a revoked one is a viewer again and its token no longer logs in.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launch, pageErrors, type TestBrowser } from "../fakes/browser.js";
import { sleep, testHub } from "../fakes/hub.js";
import { tcpConnect } from "../fakes/raw-mqtt.js";

type TestHub = Awaited<ReturnType<typeof testHub>>;
const DEVICE_KEY = "cng-host-device";

describe.skipIf(!hasChromium() && !process.env.CI)("host devices in chromium", () => {
  let hub: TestHub;
  let b: TestBrowser;
  let page: Page;
  beforeAll(async () => {
    hub = await testHub();
    b = await launch();
  }, 30_000);
  afterAll(async () => {
    await b?.close();
    await hub?.stop();
  });

  const stored = () => page.evaluate((k) => localStorage.getItem(k), DEVICE_KEY);

  it("a PIN given as the page opens, before its link to the hub is up, waits for the link and logs in", async () => {
    const p = await b.page("about:blank");
    // the hub's facts come late (a busy laptop): the page's link to the hub starts after them
    await p.route("**/api/hub", async (r) => {
      await sleep(1500);
      await r.continue();
    });
    await p.goto(`${hub.urls.dashboard}#/host`, { waitUntil: "domcontentloaded" });
    await p.fill("#pin", hub.pin);
    expect(await p.evaluate(() => (window as any).cng.link.connected)).toBe(false);
    await p.click("#pin-go");
    await p.locator("#lock", { hasText: "host" }).waitFor();
    expect(pageErrors(p)).toEqual([]);
    // locked again: its device token is revoked, the host devices below start from none
    await p.click("#logout");
    await p.locator("#lock", { hasText: "viewer" }).waitFor();
  });

  it("logs in with the PIN once, then keeps its own token (the PIN is not kept)", async () => {
    page = await b.page(`${hub.urls.dashboard}#/host`);
    await page.fill("#pin", hub.pin);
    await page.click("#pin-go");
    await page.locator("#lock", { hasText: "host" }).waitFor();
    await expect.poll(stored).not.toBeNull();
    const d = JSON.parse((await stored())!) as { id: string; token: string };
    expect(d.token).toMatch(/^hd\.[A-Za-z0-9_-]{43}$/);
    expect(await page.evaluate(() => sessionStorage.getItem("cng-pin"))).toBeNull();
    expect(JSON.stringify(await page.evaluate(() => ({ ...localStorage })))).not.toContain(hub.pin);
  });

  it("is the host on its next visit without the PIN, while the PIN budget is spent by a guesser", async () => {
    // a guesser at 200 addresses: the hub's budget is spent, the right PIN itself now waits
    const codes: number[] = [];
    for (let i = 0; i < 200; i += 50) {
      const batch = Array.from({ length: 50 }, (_, k) =>
        tcpConnect(hub.ports.mqtt!, {
          clientId: `g${i + k}`,
          username: "host",
          password: String(100000 + i + k),
          from: `127.0.${20 + ((i + k) >> 7)}.${1 + ((i + k) & 127)}`,
        }),
      );
      codes.push(...(await Promise.all(batch)));
    }
    expect(codes.filter((c) => c === 5).length).toBeGreaterThan(100);
    // from a device elsewhere (the laptop's own PIN is checked whatever others did)
    expect(
      await tcpConnect(hub.ports.mqtt!, { clientId: "pin", username: "host", password: hub.pin, from: "127.0.9.9" }),
    ).toBe(5);
    await page.reload();
    await page.locator("#lock", { hasText: "host" }).waitFor();
    // and a host action goes through: the request carries the token
    await page.goto(`${hub.urls.dashboard}#/setup`);
    await page.locator("#host-devices li").first().waitFor();
    expect(await page.locator("#host-devices li").count()).toBe(1);
    expect(await page.locator("#host-devices li").first().textContent()).toContain("this device");
  });

  it("revoked from Setup: a viewer again, and its token no longer logs in", async () => {
    const { token } = JSON.parse((await stored())!) as { token: string };
    await page.locator("#host-devices li button.revoke").click();
    await expect.poll(stored).toBeNull();
    await page.locator("#lock", { hasText: "viewer" }).waitFor();
    await expect.poll(() => page.locator("#conn").textContent()).toContain("live");
    await page.locator("#host-devices", { hasText: "The host sees here" }).waitFor();
    expect([4, 5]).toContain(await tcpConnect(hub.ports.mqtt!, { clientId: "old", username: "host", password: token }));
    expect(pageErrors(page)).toEqual([]);
  });
});
