// Past games and undo over MQTT, on games played by game.decide (the host enters every decision): game.list
// shows a finished game, game.history replays it round by round with public facts only, and game.undo takes back
// a wrong draft pick (logged as an undo entry: a restarted hub resumes the same state).
import type { GameSetup } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import { decide } from "../../hub/src/rules/bot.js";
import { apply, type Decision, owedDecisions, publicView, Rng, type State, setup } from "../../hub/src/rules/index.js";
import { connect, request, requestRaw, tempDir, testHub } from "../fakes/hub.js";

type TestHub = Awaited<ReturnType<typeof testHub>>;

/** A whole bot game's decisions, each legal after the ones before. */
function botGame(options: GameSetup, seed: number): { decisions: Decision[]; end: State } {
  let s: State = setup(options);
  const rng = new Rng(seed);
  const decisions: Decision[] = [];
  while (!s.over && decisions.length < 600) {
    const owed = owedDecisions(s);
    const d = decide(s, owed[0]!, rng);
    const r = apply(s, d);
    if (!r.ok) throw new Error(r.error.message);
    decisions.push(d);
    s = r.state;
  }
  return { decisions, end: s };
}

function stateAfter(options: GameSetup, decisions: Decision[]): State {
  let s: State = setup(options);
  for (const d of decisions) {
    const r = apply(s, d);
    if (!r.ok) throw new Error(r.error.message);
    s = r.state;
  }
  return s;
}

describe("past games and undo", () => {
  let hub: TestHub | null = null;
  let host: MqttClient | null = null;
  afterEach(async () => {
    host?.end(true);
    await hub?.stop();
    hub = null;
  });

  async function play(h: TestHub, c: MqttClient, decisions: Decision[]): Promise<void> {
    for (const d of decisions) {
      const r = await request(c, h.table, "game.decide", { decision: d }, h.pin);
      expect(r.ok, JSON.stringify(r)).toBe(true);
    }
  }

  it("game.list shows a finished game; game.history's last round is the final result, with no secrets", async () => {
    hub = await testHub();
    host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    const SETUP: GameSetup = { edition: "classic", players: ["Ann", "Bob", "Cid", "Dee"], seed: 3 };
    const { decisions, end } = botGame(SETUP, 9);
    expect((await request(host, hub.table, "game.new", SETUP, hub.pin)).ok).toBe(true);
    await play(hub, host, decisions);

    const list = await request(host, hub.table, "game.list"); // anyone may ask
    expect(list.ok).toBe(true);
    const games = (list.r as { games: any[] }).games;
    expect(games).toHaveLength(1);
    expect(games[0]).toMatchObject({
      id: 1,
      decisions: decisions.length,
      edition: "classic",
      players: SETUP.players,
      over: true,
      winners: end.winners,
    });
    expect(typeof games[0].createdAt).toBe("number");

    const hist = await request(host, hub.table, "game.history", { game: 1 });
    expect(hist.ok).toBe(true);
    const h = hist.r as { rounds: { round: number; done: boolean; view: any; events: any[] }[]; view: unknown };
    expect(h.rounds.map((r) => r.round)).toEqual(Array.from({ length: h.rounds.length }, (_, i) => i + 1));
    expect(h.rounds.every((r) => r.done)).toBe(true);
    const last = h.rounds.at(-1)!;
    expect(last.view).toEqual(publicView(end));
    expect(h.view).toEqual(publicView(end));
    expect(last.events.some((e) => e.type === "game-over")).toBe(true);
    // the money of each round end is there for the chart
    expect(h.rounds[0]!.view.players.map((p: any) => typeof p.money)).toEqual(["number", "number", "number", "number"]);
    // public only: no private events, no hands, no deck
    const text = JSON.stringify(hist.r);
    expect(text).not.toContain('"deck"');
    expect(text).not.toContain('"hand"');
    expect(h.rounds.flatMap((r) => r.events).some((e) => typeof e.to === "number")).toBe(false);

    expect(await request(host, hub.table, "game.history", { game: 99 })).toMatchObject({
      ok: false,
      e: { code: "unknown-game" },
    });
    expect(await requestRaw(host, hub.table, "game.history", { game: "x" })).toMatchObject({
      ok: false,
      e: { code: "bad-args" },
    });
  }, 20_000);

  it("a wrong draft pick undone and re-entered ends as if entered right; later undos are refused; a restart keeps it", async () => {
    const data = tempDir();
    try {
      hub = await testHub({ data: data.dir });
      host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
      const SETUP: GameSetup = { edition: "second", players: ["Ann", "Bob", "Cid", "Dee"], seed: 5 };
      const { decisions, end } = botGame(SETUP, 4);
      const at = decisions.findIndex((d) => d.type === "pick");
      expect(at).toBeGreaterThan(0);
      const right = decisions[at]!;
      // a legal pick other than the right one
      const before = stateAfter(SETUP, decisions.slice(0, at));
      let wrong: Decision | null = null;
      for (let k = 1; k < 200 && wrong === null; k++) {
        const d = decide(before, owedDecisions(before).find((o) => o.decision === "pick")!, new Rng(k));
        if (JSON.stringify(d) !== JSON.stringify(right) && apply(before, d).ok) wrong = d;
      }
      expect(wrong).not.toBeNull();

      expect((await request(host, hub.table, "game.new", SETUP, hub.pin)).ok).toBe(true);
      // nothing to undo yet; a player's undo is refused
      expect(await request(host, hub.table, "game.undo", {}, hub.pin)).toMatchObject({
        ok: false,
        e: { code: "undo" },
      });
      await play(hub, host, decisions.slice(0, at));
      // the last decision is not a host input (a bullet, an aim…): refused
      const early = await request(host, hub.table, "game.undo", {}, hub.pin);
      expect(early).toMatchObject({ ok: false, e: { code: "undo" } });
      expect(early.e!.msg).toMatch(/only a host's draft pick/);

      await play(hub, host, [wrong!]);
      const undo = await request(host, hub.table, "game.undo", {}, hub.pin);
      expect(undo).toMatchObject({ ok: true, r: { decisions: at, undone: wrong } });
      const viewer = await connect(hub.urls.mqtt);
      expect(await request(viewer, hub.table, "game.undo", {})).toMatchObject({ ok: false, e: { code: "forbidden" } });
      viewer.end(true);
      await play(hub, host, [right]);
      // the draft goes on, then the next round's first decision (a secret card): nothing before it can be undone
      const next = decisions.findIndex((d, i) => i > at && d.type !== "pick");
      await play(hub, host, decisions.slice(at + 1, next + 1));
      const late = await request(host, hub.table, "game.undo", {}, hub.pin);
      expect(late).toMatchObject({ ok: false, e: { code: "undo" } });

      // restart: the undo is in the log, so the hub resumes the same state
      const mid = (await request(host, hub.table, "game.state", undefined, hub.pin)).r as any;
      expect(mid.view).toEqual(publicView(stateAfter(SETUP, decisions.slice(0, next + 1))));
      host.end(true);
      await hub.stop();
      hub = await testHub({ data: data.dir });
      host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
      const again = (await request(host, hub.table, "game.state", undefined, hub.pin)).r as any;
      expect(again).toEqual(mid);

      await play(hub, host, decisions.slice(next + 1));
      const final = (await request(host, hub.table, "game.state", undefined, hub.pin)).r as any;
      expect(final.view).toEqual(publicView(end));
      expect(final.decisions).toBe(decisions.length);
      const listed = (await request(host, hub.table, "game.list")).r as { games: any[] };
      expect(listed.games[0]).toMatchObject({ decisions: decisions.length, over: true });
    } finally {
      host?.end(true);
      await hub?.stop();
      hub = null;
      data.remove();
    }
  }, 25_000);
});
