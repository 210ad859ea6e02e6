import { type GameSetup, playerTopic, tableTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apply, publicView, setup } from "../../hub/src/rules/index.js";
import { connect, nextMessage, nextView, request, requestRaw, testHub } from "../fakes/hub.js";

type TestHub = Awaited<ReturnType<typeof testHub>>;
const SETUP: GameSetup = { edition: "classic", players: ["Ann", "Bob", "Cid", "Dee"], seed: 7 };

describe("game commands", () => {
  let hub: TestHub;
  let host: MqttClient;
  beforeAll(async () => {
    hub = await testHub();
    host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
  });
  afterAll(async () => {
    host.end(true);
    await hub.stop();
  });

  it("game.new needs the host (its login, or the PIN) and valid options; a refused setup starts nothing", async () => {
    const viewer = await connect(hub.urls.mqtt);
    expect(await request(viewer, hub.table, "game.new", SETUP)).toMatchObject({ ok: false, e: { code: "forbidden" } });
    viewer.end(true);
    const bad = await request(host, hub.table, "game.new", { edition: "classic", players: ["A"] }, hub.pin);
    expect(bad).toMatchObject({ ok: false, e: { code: "bad-options" } });
    expect((await request(host, hub.table, "game.state")).r).toEqual({ game: null });
  });

  it("plays decisions; views are published; seats decide only for themselves; bad ones change nothing", async () => {
    const statePublished = nextMessage(host, tableTopic(hub.table, "state"), (m) => m.decisions === 0 && m.id !== null);
    const started = await request(host, hub.table, "game.new", SETUP, hub.pin);
    expect(started.ok).toBe(true);
    const expected = setup(SETUP as any);
    expect((await statePublished).game).toEqual(publicView(expected));

    const tok = ((await request(host, hub.table, "seat.token", { seat: 1 }, hub.pin)).r as any).token;
    const seat1 = await connect(hub.urls.mqtt, { username: "seat-1", password: tok });
    const others = await request(
      seat1,
      hub.table,
      "game.decide",
      { decision: { type: "bullet", seat: 2, card: "click" } },
      tok,
    );
    expect(others).toMatchObject({ ok: false, e: { code: "forbidden" } });

    const view1 = nextView(seat1, hub.table, 1, tok, (m) => m.decisions === undefined && m.seat === 1);
    // on the wire the view is sealed: nothing of it reads as JSON
    const raw = new Promise<string>((resolve) =>
      seat1.on("message", (t, p) => t === playerTopic(hub.table, 1, "view") && resolve(p.toString())),
    );
    const own = await request(
      seat1,
      hub.table,
      "game.decide",
      { decision: { type: "bullet", seat: 1, card: "bang" } },
      tok,
    );
    expect(own).toMatchObject({ ok: true, r: { decisions: 1 } });
    expect((await view1).view).toBeDefined();
    expect(await raw).toMatch(/^x1\.[A-Za-z0-9_-]+$/);

    const bad = await request(
      host,
      hub.table,
      "game.decide",
      { decision: { type: "bullet", seat: 1, card: "bang" } },
      hub.pin,
    );
    expect(bad.ok).toBe(false);
    const garbage = await requestRaw(host, hub.table, "game.decide", { decision: "shoot everyone" }, hub.pin);
    expect(garbage).toMatchObject({ ok: false, e: { code: "bad-args" } });
    const st = await request(host, hub.table, "game.state", undefined, hub.pin);
    expect(st.r).toMatchObject({ decisions: 1 });
    // the hub's state is the engine's state after exactly that one decision
    const after = apply(expected, { type: "bullet", seat: 1, card: "bang" });
    expect(after.ok && (st.r as any).view).toEqual(after.ok && publicView(after.state));
    seat1.end(true);
  });

  it("unknown ops and malformed requests get error responses", async () => {
    expect(await requestRaw(host, hub.table, "game.nuke", {}, hub.pin)).toMatchObject({
      ok: false,
      e: { code: "unknown-op" },
    });
    expect(await request(host, hub.table, "pair.accept", { gun: "NOT A GUN" }, hub.pin)).toMatchObject({
      ok: false,
      e: { code: "bad-args" },
    });
    expect(await requestRaw(host, hub.table, "guns.list", { extra: 1 })).toMatchObject({
      ok: false,
      e: { code: "bad-args" },
    });
  });
});
