// `cng hub --table-box PORT --serial-gun PORT`: missing hardware is reported and the hub carries on.
import { describe, expect, it } from "vitest";
import { connect, request, testHub } from "../fakes/hub.js";

describe("hub with a table box and a serial gun that are not plugged in", () => {
  it("starts, says so, and serves guns and commands as usual", async () => {
    const warnings: string[] = [];
    const log = {
      level: "warn",
      child: () => log,
      warn: (_o: unknown, msg?: string) => warnings.push(String(msg ?? _o)),
      info: () => {},
      debug: () => {},
      error: (_o: unknown, msg?: string) => warnings.push(String(msg ?? _o)),
      trace: () => {},
      fatal: () => {},
    };
    const hub = await testHub({
      tableBox: "/dev/ttyCNG-no-such-box",
      serialGuns: ["/dev/ttyCNG-no-such-gun"],
      log: log as never,
    });
    try {
      const host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
      const res = await request(host, hub.table, "guns.list", {}, hub.pin);
      expect(res).toMatchObject({ ok: true, r: { guns: [] } });
      host.end(true);
      expect(warnings.some((w) => w.includes("ttyCNG-no-such-box") && w.includes("carries on"))).toBe(true);
      expect(warnings.some((w) => w.includes("ttyCNG-no-such-gun"))).toBe(true);
    } finally {
      await hub.stop();
    }
  });
});
