// @real-time: a gun in the vm keeps real time against the real hub
// The bridge of a paired gun on a serial or Bluetooth link gets a login of its own from the hub instead of the gun's
// key, which a paired gun never says again. `gun.bridge` (the host's op: the dashboard asks it over its sealed
// session): a random token, kept hashed beside the key, that logs in as that gun on the embedded broker, each new one
// voiding the last, void once the gun is forgotten or paired again; and the answer to the nonce of the gun's hello,
// which the firmware checks. Then the hub's own serial bridge, in-process, carrying the real Puck bundle (vm): it
// pairs a new Puck, and from then on the key never crosses the link but in the one `key` command at pairing; a gun
// the hub forgot is not bridged.
import { createHash, createHmac } from "node:crypto";
import { gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import type { SerialGunBridge } from "../../hub/src/serial/index.js";
import { bridgeGun, createVirtualGun, type VirtualGun } from "../../hub/src/sim/espruino/index.js";
import { connect, connectRefused, hubWithHost, pairGun, request, sleep, waitFor } from "../fakes/hub.js";

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
    // forgotten: nothing to vouch with, for the op and for the hub's own bridges
    expect((await request(host, hub.table, "gun.bridge", { gun: "bt3", n: "0123456789abcdef" })).e?.code).toBe(
      "unknown-gun",
    );
    expect(hub.bridge("bt3", "0123456789abcdef")).toBeNull();
    await pairGun(hub, host, "bt3");
    expect(
      (await connectRefused(hub.urls.mqtt, { username: "bt3", password: token, clientId: "bt3" })).message,
    ).toMatch(/Bad username or password|Not authorized/);
  });
});

describe("the hub's serial bridge carries a paired Puck.js (real bundle, vm) with the hub's vouching", () => {
  const t = hubWithHost();
  const guns: VirtualGun[] = [];
  const bridges: SerialGunBridge[] = [];
  afterEach(async () => {
    for (const g of guns.splice(0)) g.stop();
    await Promise.all(bridges.splice(0).map((b) => b.close()));
  });

  it("pairs a new Puck, then keeps it online: the key crosses the link once, in the pairing command", async () => {
    const { hub, host } = t;
    const g = createVirtualGun({ board: "puckjs", config: { id: "bp1", secret: "flashed-bp1", table: hub.table } });
    guns.push(g);
    let down = "";
    const send = g.usb.send.bind(g.usb);
    g.usb.send = (text: string) => {
      down += text;
      send(text);
    };
    bridges.push(await bridgeGun(g, { mqttUrl: hub.urls.mqtt, table: hub.table, credentials: hub.bridge }));
    await waitFor(() => hub.guns.registry.get("bp1")?.on, 5000, "the pairing request");
    expect((await request(host, hub.table, "pair.accept", { gun: "bp1", seat: 0 })).ok).toBe(true);
    await waitFor(() => hub.guns.registry.get("bp1")?.paired && hub.guns.registry.get("bp1")?.on, 5000, "back, paired");
    const key = JSON.parse(g.storage.get("gun.json")!).secret as string;
    expect(key).not.toBe("flashed-bp1");
    // up the link: no hello (nor anything) with the key; down: the key once, in the pairing command, then `auth`
    expect(g.usb.out).not.toContain(key);
    expect(down.split(key).length - 1).toBe(1);
    expect(down).toMatch(new RegExp(`cmd \\{[^\\n]*"c":"key","k":"${key}"`));
    const auth = /auth \{"v":1,"m":"([0-9a-f]{64})"\}/.exec(down);
    expect(auth).not.toBeNull();
    // aim reaches the table from the paired gun
    const a0 = hub.streams.stats.aim;
    await waitFor(() => hub.streams.stats.aim > a0 + 5, 5000, "aim from the paired Puck");
    expect(g.errors).toEqual([]);
  });

  it("a gun its hub forgot is not bridged: no login, no lines taken", async () => {
    const { hub, host } = t;
    const key = await pairGun(hub, host, "bp2");
    expect((await request(host, hub.table, "gun.forget", { gun: "bp2" })).ok).toBe(true);
    // the gun still holds the key and counts as paired: it needs a new gun.json
    const g = createVirtualGun({ board: "puckjs", config: { id: "bp2", secret: key, table: hub.table, paired: 1 } });
    guns.push(g);
    bridges.push(await bridgeGun(g, { mqttUrl: hub.urls.mqtt, table: hub.table, credentials: hub.bridge }));
    await waitFor(() => /(^|\n)hello /.test(g.usb.out), 4000, "its hello");
    await sleep(1000);
    expect(hub.guns.registry.get("bp2")?.on ?? false).toBe(false);
    expect(g.usb.out).not.toContain(key);
    expect(g.usb.out).not.toMatch(/(^|\n)aim /);
  });
});
