// The hub's web port serves the dashboard's files safely: a fixed list, the right types, revalidation, the clock.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testHub } from "../fakes/hub.js";

describe("the dashboard's files", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  const url = (p: string) => new URL(p, hub.urls.dashboard);
  beforeAll(async () => {
    hub = await testHub();
  });
  afterAll(() => hub.stop());

  it("serves every view module with its type, an etag and no-cache; the vendored MQTT client is cached", async () => {
    for (const f of [
      "app.js",
      "mqtt-link.js",
      "table-view.js",
      "host.js",
      "setup.js",
      "setup-draft.js",
      "players-section.js",
      "options-section.js",
      "lang-section.js",
      "pairing-section.js",
      "guns-section.js",
      "bluetooth-section.js",
      "calibrate.js",
      "console.js",
      "games.js",
      "charts.js",
      "ui.js",
    ]) {
      const r = await fetch(url(`/${f}`));
      expect(r.status, f).toBe(200);
      expect(r.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(r.headers.get("cache-control")).toBe("no-cache");
      const again = await fetch(url(`/${f}`), { headers: { "if-none-match": r.headers.get("etag")! } });
      expect(again.status, f).toBe(304);
    }
    expect((await fetch(url("/style.css"))).headers.get("content-type")).toBe("text/css; charset=utf-8");
    const page = await fetch(url("/"));
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain('type="module" src="/app.js"');
    const vendor = await fetch(url("/vendor/mqtt.min.js"));
    expect(vendor.status).toBe(200);
    expect(vendor.headers.get("cache-control")).toMatch(/max-age/);
  });

  it("serves nothing outside its list", async () => {
    for (const p of ["/../server.ts", "/%2e%2e/server.ts", "/..%2fserver.ts", "/public/app.js", "/api/nope"]) {
      expect((await fetch(url(p))).status, p).toBe(404);
    }
    expect((await fetch(url("/app.js"), { method: "POST" })).status).toBe(405);
  });

  it("tells the hub's time for the countdown", async () => {
    const before = Date.now();
    const { now } = await (await fetch(url("/api/time"))).json();
    expect(now).toBeGreaterThanOrEqual(before - 5);
    expect(now).toBeLessThanOrEqual(Date.now() + 5);
  });
});
