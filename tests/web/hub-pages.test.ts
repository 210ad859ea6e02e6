import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testHub } from "../fakes/hub.js";

describe("the hub's web port", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  beforeAll(async () => {
    hub = await testHub();
  });
  afterAll(() => hub.stop());

  it("serves the guns page, the MQTT browser client, and public facts without secrets", async () => {
    const page = await fetch(hub.urls.dashboard);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Cash'n Guns hub");
    expect((await fetch(new URL("/vendor/mqtt.min.js", hub.urls.dashboard))).status).toBe(200);
    const facts = await (await fetch(new URL("/api/hub", hub.urls.dashboard))).json();
    expect(facts).toMatchObject({ table: hub.table, mode: "embedded", ws: "/mqtt", mqttPort: hub.ports.mqtt });
    expect(JSON.stringify(facts)).not.toContain(hub.pin);
  });

  it("serves nothing outside its public folder", async () => {
    for (const p of ["/../../package.json", "/%2e%2e/%2e%2e/package.json", "/hub.ts", "/nope"]) {
      expect((await fetch(new URL(p, hub.urls.dashboard))).status, p).toBe(404);
    }
  });
});
