// power.specialist: the Specialist's own choice from her console (or the host's), checked like every player op.
import { afterAll, beforeAll, expect, it } from "vitest";
import { connect, request, requestRaw, testHub } from "../fakes/hub.js";

let hub: Awaited<ReturnType<typeof testHub>>;
beforeAll(async () => {
  hub = await testHub();
});
afterAll(() => hub.stop());

it("takes use and a discard, acts only for the token's own seat, and says when there is nothing to choose", async () => {
  const host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
  const tok = (await request(host, hub.table, "seat.token", { seat: 1 }, hub.pin)).r as { token: string };
  const c = await connect(hub.urls.mqtt);
  const code = async (a: Record<string, unknown>, auth = tok.token) => {
    const r = await requestRaw(c, hub.table, "power.specialist", a, auth);
    return r.ok ? "ok" : r.e!.code;
  };
  expect(await code({})).toBe("bad-args");
  expect(await code({ use: "yes" })).toBe("bad-args");
  expect(await code({ use: true, discard: "bbb" })).toBe("bad-args");
  expect(await code({ use: true, discard: "click", extra: 1 })).toBe("bad-args");
  expect(await code({ use: true, discard: "click", seat: 2 })).toBe("forbidden");
  // a well-formed choice with no game running: refused by the table, nothing changes
  expect(await code({ use: false })).not.toBe("ok");
  expect(await code({ use: true, discard: "click" }, "not-a-token")).toBe("auth");
  host.end(true);
  c.end(true);
});
