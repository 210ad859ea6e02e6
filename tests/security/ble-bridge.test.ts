// The bridge of a paired gun on a serial or Bluetooth link gets a login of its own from the hub instead of the gun's
// key, which a paired gun never says again. `gun.bridge` (the host's op: the dashboard asks it over its sealed
// session): a random token, kept hashed beside the key, that logs in as that gun on the embedded broker, each new one
// voiding the last, void once the gun is forgotten or paired again; and the answer to the nonce of the gun's hello,
// which the firmware checks.
import { createHash, createHmac } from "node:crypto";
import { gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import { connect, connectRefused, hubWithHost, pairGun, request, waitFor } from "../hub/helpers.js";

const proofOf = (key: string, n: string) =>
  createHmac("sha256", createHash("sha256").update(key).digest("hex")).update(`link ${n}`, "latin1").digest("hex");

describe("gun.bridge: a paired gun's bridge gets a login of its own from the hub", () => {
  const t = hubWithHost();
  const open: MqttClient[] = [];
  afterEach(() => {
    for (const c of open.splice(0)) c.end(true);
  });
  const login = async (gun: string, password: string) => {
    const c = await connect(t.hub.urls.mqtt, { username: gun, password, clientId: gun });
    open.push(c);
    return c;
  };

  it("the host gets a token and the answer to the gun's nonce; the token logs in as that gun, the next voids it", async () => {
    const { hub, host } = t;
    const key = await pairGun(hub, host, "bt1");
    const n = "0123456789abcdef";
    const r = await request(host, hub.table, "gun.bridge", { gun: "bt1", n });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    const { token, m } = r.r!;
    expect(m).toBe(proofOf(key, n));
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(token).not.toBe(key);
    // logged in as the gun: its topics are its own
    const c = await login("bt1", token);
    await c.publishAsync(
      gunTopic(hub.table, "bt1", "info"),
      JSON.stringify({ v: 1, fw: "0.1.0", b: "puckjs", i: "lsm6ds3", up: 1 }),
      {
        qos: 1,
      },
    );
    await waitFor(() => hub.guns.registry.get("bt1")?.info?.b === "puckjs", 3000, "the gun's info, as that gun");
    c.end(true);
    // the gun's own key still logs in (a gun on WiFi), and a new token voids the one before
    (await login("bt1", key)).end(true);
    const again = await request(host, hub.table, "gun.bridge", { gun: "bt1", n: "fedcba9876543210" });
    expect(again.r!.m).toBe(proofOf(key, "fedcba9876543210"));
    expect(again.r!.token).not.toBe(token);
    expect(
      (await connectRefused(hub.urls.mqtt, { username: "bt1", password: token, clientId: "bt1" })).message,
    ).toMatch(/Bad username or password|Not authorized/);
    (await login("bt1", again.r!.token)).end(true);
  });

  it("only the host may ask, only for a paired gun, only over a nonce as the gun makes it", async () => {
    const { hub, host } = t;
    await pairGun(hub, host, "bt2");
    const viewer = await connect(hub.urls.mqtt, {});
    open.push(viewer);
    expect((await request(viewer, hub.table, "gun.bridge", { gun: "bt2", n: "0123456789abcdef" })).e?.code).toBe(
      "forbidden",
    );
    expect((await request(host, hub.table, "gun.bridge", { gun: "nobody", n: "0123456789abcdef" })).e?.code).toBe(
      "unknown-gun",
    );
    for (const n of ["0123", "0123456789ABCDEF", "0123456789abcdeg", 12])
      expect((await request(host, hub.table, "gun.bridge", { gun: "bt2", n } as never)).e?.code).toBe("bad-args");
  });

  it("forgetting the gun voids its bridge's token; pairing it again does too", async () => {
    const { hub, host } = t;
    await pairGun(hub, host, "bt3");
    const r = await request(host, hub.table, "gun.bridge", { gun: "bt3", n: "0123456789abcdef" });
    const token = r.r!.token;
    expect((await request(host, hub.table, "gun.forget", { gun: "bt3" })).ok).toBe(true);
    // forgotten: nothing to vouch with
    expect((await request(host, hub.table, "gun.bridge", { gun: "bt3", n: "0123456789abcdef" })).e?.code).toBe(
      "unknown-gun",
    );
    await pairGun(hub, host, "bt3");
    expect(
      (await connectRefused(hub.urls.mqtt, { username: "bt3", password: token, clientId: "bt3" })).message,
    ).toMatch(/Bad username or password|Not authorized/);
  });
});
