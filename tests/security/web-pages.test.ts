// @real-time: a real browser visits a page of another site
// Attack: a web page elsewhere, opened in a guest's browser on the table's WiFi, acting on the hub: /mqtt checked no
// Origin (the page could take ids, flood, or read the table through the guest's browser) and the hub's pages sent no
// Content-Security-Policy (another site could frame the dashboard). Now a WebSocket from another site's page is
// refused, and the hub's pages say what they may run, and that no other site may frame them.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { hasChromium, launch, type TestBrowser } from "../fakes/browser.js";
import { testHub } from "../fakes/hub.js";

/** The handshake's HTTP status for a WebSocket to `url` sent with `origin` (101 when it opened). */
function wsStatus(url: string, origin?: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, ["mqtt"], origin ? { origin } : {});
    ws.once("open", () => {
      ws.terminate();
      resolve(101);
    });
    ws.once("unexpected-response", (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once("error", () => resolve(0));
  });
}

describe("the hub's pages and another site's", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  beforeAll(async () => {
    hub = await testHub();
  });
  afterAll(() => hub.stop());

  it("a WebSocket from another site's page is refused; the hub's own pages and other clients get in", async () => {
    const own = new URL(hub.urls.dashboard).origin;
    expect(await wsStatus(hub.urls.ws!, "http://evil.example")).toBe(403);
    expect(await wsStatus(hub.urls.ws!, "http://192.168.1.66:8080")).toBe(403);
    expect(await wsStatus(hub.urls.ws!, "null")).toBe(403);
    expect(await wsStatus(hub.urls.ws!, own)).toBe(101);
    expect(await wsStatus(hub.urls.ws!)).toBe(101);
  });

  it("the pages say what they may run and that no other site may frame them", async () => {
    for (const path of ["/", "/index.html", "/venue"]) {
      const r = await fetch(new URL(path, hub.urls.dashboard));
      const csp = r.headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).not.toContain("unsafe-eval");
      expect(r.headers.get("x-frame-options"), path).toBe("DENY");
    }
  });
});

describe.skipIf(!hasChromium())("the hub's pages and another site's, in Chromium", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  let browser: TestBrowser;
  let evil: Server;
  let evilUrl: string;
  beforeAll(async () => {
    hub = await testHub();
    browser = await launch();
    // the other site: a page that frames the dashboard and opens the hub's /mqtt from the guest's browser
    const hubWs = hub.urls.ws!;
    evil = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<!doctype html><body><iframe id="f" src="${hub.urls.dashboard}"></iframe><script>
          window.wsResult = new Promise((r) => {
            const ws = new WebSocket(${JSON.stringify(hubWs)}, ["mqtt"]);
            ws.onopen = () => r("open"); ws.onerror = () => r("refused");
          });
        </script></body>`);
    });
    await new Promise<void>((r) => evil.listen(0, "127.0.0.1", () => r()));
    evilUrl = `http://localhost:${(evil.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => evil?.close(() => r()));
    await hub?.stop();
  });

  it("another site's page can neither reach /mqtt nor show the dashboard in a frame", async () => {
    const page = await browser.page(evilUrl);
    expect(await page.evaluate(() => (window as unknown as { wsResult: Promise<string> }).wsResult)).toBe("refused");
    // the framed dashboard never loads its script: no frame has the app's header
    await page.waitForTimeout(500);
    const framed = page.frames().find((f) => f !== page.mainFrame());
    const loaded = framed
      ? await framed
          .locator("#lock")
          .count()
          .catch(() => 0)
      : 0;
    expect(loaded).toBe(0);
  });

  it("the dashboard and the venue page run under their policy, without a violation", async () => {
    for (const path of ["#/table", "venue"]) {
      const page = await browser.page(`${hub.urls.dashboard}${path}`);
      const violations: string[] = [];
      page.on("console", (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
      });
      await page.reload();
      if (path === "venue") await page.locator("#tables").waitFor();
      else await page.locator("#conn", { hasText: "live" }).waitFor();
      await page.waitForTimeout(1200);
      expect(violations, path).toEqual([]);
      expect((page as unknown as { errors: string[] }).errors, path).toEqual([]);
    }
  });
});
