// @real-time: a real browser on the table's HTTPS
// Attack: an active one — someone between the phones and the hub (ARP spoofing on the hotspot, a rogue access point)
// rewrites the dashboard served over http, and with it any cryptography inside the page. For a table that wants to
// close that too, `cng hub --https-port` serves the dashboard over HTTPS with a certificate from the hub's own CA:
// the host installs /ca.crt on the phones once; a phone on plain http is sent to https; the CA stays across restarts.
import { X509Certificate } from "node:crypto";
import { get as httpsGet } from "node:https";
import { connect as mqttConnect } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launch } from "../fakes/browser.js";
import { tempDir, testHub } from "../fakes/hub.js";

/** GET over https with `ca` trusted (or none): the status and headers, or the TLS error. */
function fetchTls(url: string, ca?: string): Promise<{ status: number; csp?: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = httpsGet(url, { ca: ca ?? [] }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, csp: res.headers["content-security-policy"] as string | undefined });
    });
    req.on("error", (e) => resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message }));
  });
}

/** GET over plain http from `from` (another device), without following a redirect. */
async function fetchFrom(url: string, from: string): Promise<{ status: number; location?: string; body: string }> {
  const { request } = await import("node:http");
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress: from }, (res) => {
      let body = "";
      res.on("data", (c) => {
        body += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("HTTPS with the table's own certificate authority", () => {
  const data = tempDir();
  let hub: Awaited<ReturnType<typeof testHub>>;
  let ca: string;
  beforeAll(async () => {
    hub = await testHub({ data: data.dir, httpsPort: 0 });
    ca = await (await fetch(`${hub.urls.dashboard}ca.crt`)).text();
  });
  afterAll(async () => {
    await hub.stop();
    data.remove();
  });

  it("gives out its CA, and serves the dashboard under a certificate that CA vouches for", async () => {
    const x = new X509Certificate(ca);
    expect(x.ca).toBe(true);
    expect(x.subject).toContain(`table ${hub.table}`);
    const https = `https://127.0.0.1:${hub.ports.https}/`;
    const ok = await fetchTls(https, ca);
    expect(ok).toMatchObject({ status: 200 });
    expect((ok as { csp: string }).csp).toContain("frame-ancestors 'none'");
    expect(await fetchTls(`https://localhost:${hub.ports.https}/`, ca)).toMatchObject({ status: 200 });
    // without the CA installed, the phone is warned (here: refused)
    expect(await fetchTls(https)).toMatchObject({ error: expect.stringMatching(/CERT|SIGN|ISSUER|VERIFY/) });
  });

  it("carries MQTT over wss, the table's topics as over ws", async () => {
    const c = await mqttConnect(`wss://127.0.0.1:${hub.ports.https}/mqtt`, {
      ca,
      reconnectPeriod: 0,
      clientId: "wss-viewer",
    } as never);
    await new Promise<void>((resolve, reject) => {
      c.once("connect", () => resolve());
      c.once("error", reject);
    });
    const state = new Promise<string>((resolve) => c.once("message", (_t, p) => resolve(p.toString())));
    await c.subscribeAsync(`${hub.topicRoot}/table/state`);
    expect(JSON.parse(await state)).toMatchObject({ v: 1 });
    c.end(true);
  });

  it("sends a phone on plain http to https, and gives it the CA there first; the laptop itself stays on http", async () => {
    const r = await fetchFrom(`http://127.0.0.1:${hub.ports.http}/#/table`, "127.0.0.77");
    expect(r.status).toBe(301);
    expect(r.location).toBe(`https://127.0.0.1:${hub.ports.https}/`);
    const caOnHttp = await fetchFrom(`http://127.0.0.1:${hub.ports.http}/ca.crt`, "127.0.0.77");
    expect(caOnHttp).toMatchObject({ status: 200, body: ca });
    expect((await fetchFrom(`http://127.0.0.1:${hub.ports.http}/`, "127.0.0.1")).status).toBe(200);
  });

  it("keeps its CA across restarts (the phones keep trusting it)", async () => {
    await hub.stop();
    hub = await testHub({ data: data.dir, httpsPort: 0 });
    expect(await (await fetch(`${hub.urls.dashboard}ca.crt`)).text()).toBe(ca);
    expect(await fetchTls(`https://127.0.0.1:${hub.ports.https}/`, ca)).toMatchObject({ status: 200 });
  });

  it.skipIf(!hasChromium())("a browser on https has the table live, over wss", async () => {
    const b = await launch();
    try {
      // the CA installed on the phone, as a browser context that trusts this hub's certificate
      const ctx = await b.browser.newContext({ ignoreHTTPSErrors: true });
      const page = await ctx.newPage();
      await page.goto(`https://127.0.0.1:${hub.ports.https}/#/table`);
      await page.locator("#conn", { hasText: "live" }).waitFor({ timeout: 15_000 });
      expect(await page.evaluate(() => (window as any).cng.link.client.options.protocol)).toBe("wss");
    } finally {
      await b.close();
    }
  });
});
