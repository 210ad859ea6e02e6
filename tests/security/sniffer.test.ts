// @real-time: real browsers through a tap, as people at the table use them
// Attack: a player holding the WiFi password listens (WPA2-PSK: the password and a captured handshake decrypt every
// frame). The dashboard sent the PIN in its MQTT login, the host token in every request, the seat token at CONNECT,
// and each console's hand and chosen card in clear. Now secrets are proven, not sent; the PIN goes through a PIN
// exchange; a host's and a console's requests and answers, and each seat's private view, are sealed under keys that
// only travelled out of band. A tap in front of the hub hears a whole evening's start: the host logging in on a phone
// with the PIN, starting a game, making a console link; a player opening it and choosing a card.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launch, type TestBrowser } from "../fakes/browser.js";
import { testHub } from "../fakes/hub.js";
import { type Tap, tapInFrontOf } from "./tap.js";

describe.skipIf(!hasChromium())("a listener on the table's WiFi", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  let tap: Tap;
  let b: TestBrowser;
  beforeAll(async () => {
    hub = await testHub();
    tap = await tapInFrontOf(hub.ports.http);
    b = await launch();
  });
  afterAll(async () => {
    await b?.close();
    await tap?.close();
    await hub?.stop();
  });

  it("hears no PIN, no token, no hand and no chosen card", async () => {
    const base = `http://127.0.0.1:${tap.port}/`;
    // the host's phone: the PIN typed once
    const host = await b.page(`${base}#/host`, { width: 420, height: 860 });
    await host.fill("#pin", hub.pin);
    await host.click("#pin-go");
    // on a phone the lock sits in the header's folded menu
    await host.locator("#lock", { hasText: "host" }).waitFor({ state: "attached" });
    const device = JSON.parse((await host.evaluate(() => localStorage.getItem("cng-host-device")))!) as {
      token: string;
    };
    // a game whose players choose their cards on their phones
    await host.goto(`${base}#/setup`);
    await host.selectOption("#setup-secrets", "console");
    await host.click("#new-game");
    await host.waitForURL(/#\/table/);
    // a console link for seat 2
    await host.goto(`${base}#/host`);
    await host.click('button[data-seat="2"]');
    const url = (await host.locator("a.console-url").first().getAttribute("href"))!;
    const seatToken = decodeURIComponent(/token=([^&]+)/.exec(url)![1]!);
    expect(url.startsWith(base)).toBe(true);
    // the player opens it and chooses
    const phone = await b.page(url, { width: 390, height: 844 });
    await phone.locator("#hand").waitFor();
    const hand = (await phone.locator("#hand").textContent())!;
    expect(hand).toMatch(/Bang! × \d/);
    await phone.locator('#choose button[data-card="click"]').click();
    await phone.locator("#console-msg", { hasText: "sent" }).waitFor();
    await phone.context().close();
    await host.context().close();

    const heard = tap.heard();
    const mqtt = tap.mqtt();
    // the tap heard the evening (the public table travels in clear: names, the step)
    expect(mqtt).toContain("/table/state");
    expect(mqtt).toMatch(/"players":\[\{"/);
    expect(mqtt).toContain("login.start");
    // and none of what is private
    expect(heard).not.toContain(hub.pin);
    expect(heard).not.toContain(device.token);
    expect(heard).not.toContain(seatToken);
    expect(mqtt).not.toContain('"me":{'); // a private view's own part: the hand, the card, the power
    expect(mqtt).not.toContain("secret.bullet");
    expect(mqtt).not.toContain("seat.token");
    expect(mqtt).toMatch(/x1\.[A-Za-z0-9_-]{40,}/); // sealed instead
  }, 90_000);
});
