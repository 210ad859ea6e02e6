// The venue view's bookkeeping (hub/src/venue/venue.ts): tables from their retained public topics, a
// leaderboard of finished games, and junk that never brings it down; the view served by a hub (/venue, /api/venue);
// the leaderboard kept across restarts of a hub and of `cng venue`.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import type { PublicPlayer, TableStateMsg } from "@cng/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVenue, VENUE_FILE } from "../../hub/src/venue/server.js";
import { leaderboardFile } from "../../hub/src/venue/store.js";
import { Venue } from "../../hub/src/venue/venue.js";
import { brokerUp, connect, sleep, tempDir, testHub, waitFor } from "../fakes/hub.js";

const player = (seat: number, name: string, money: number, alive = true): PublicPlayer => ({
  seat,
  name,
  alive,
  wounds: alive ? 0 : 3,
  deadly: 3,
  shame: 0,
  money,
  cards: 3,
  power: null,
  role: null,
  hurt: 0,
  waiting: false,
});
/** A retained table/state as a hub publishes it (the contract's TableStateMsg). */
const state = (id: number, over: boolean, players: PublicPlayer[], winners: number[] = []) =>
  JSON.stringify({
    v: 1,
    id,
    decisions: 9,
    game: {
      edition: "classic",
      round: 3,
      step: over ? "over" : "aim",
      over,
      winners,
      godfather: 0,
      table: { bills: [5000, 20000] },
      deckLeft: 20,
      discardPile: 4,
      sharers: [],
      turn: null,
      players,
    },
    table: null,
    seats: [],
    calibration: [],
    layout: null,
    pairing: null,
    lang: null,
  } satisfies TableStateMsg);

/** `gun/<id>/status` as the hub writes it */
function gunStatus(on: boolean, paired: boolean): string {
  return JSON.stringify({ v: 1, on, at: 1000, why: on ? "connect" : "will", paired, seat: paired ? 1 : null });
}

describe("venue", () => {
  it("lists tables with who is ahead and guns online, and finished games best first", () => {
    let now = 1000;
    const v = new Venue(() => now);
    v.take(
      "cng/v1/t2/table/state",
      state(4, false, [player(0, "Ann", 5000), player(1, "Bob", 9000, false), player(2, "Cid", 7000)]),
    );
    v.take("cng/v1/t2/gun/g1/status", gunStatus(true, true));
    v.take("cng/v1/t2/gun/g2/status", gunStatus(false, true));
    v.take("cng/v1/t2/gun/g3/status", gunStatus(true, false));
    // a status that does not decode (the hub's own never misses `why`) changes nothing
    v.take("cng/v1/t2/gun/g3/status", JSON.stringify({ v: 1, on: false, paired: true }));
    v.take("cng/v1/t1/table/state", state(7, true, [player(0, "Dee", 20000), player(1, "Eve", 3000)], [0]));
    now = 2000;
    v.take("cng/v1/t3/table/state", state(1, true, [player(0, "Fay", 50000), player(1, "Gus", 1000)], [0]));
    const t = v.snapshot();
    expect(t.tables.map((x) => x.table)).toEqual(["t1", "t2", "t3"]);
    // the dead player's money does not lead
    expect(t.tables[1]).toMatchObject({
      game: 4,
      round: 3,
      step: "aim",
      over: false,
      leaders: ["Cid"],
      guns: { paired: 2, online: 1 },
    });
    expect(t.tables[0]).toMatchObject({ over: true, leaders: ["Dee"] });
    expect(t.leaderboard.map((g) => [g.table, g.game, g.winners])).toEqual([
      ["t3", 1, ["Fay"]],
      ["t1", 7, ["Dee"]],
    ]);
    // the same finished game seen again is one entry; a cleared status goes
    v.take("cng/v1/t1/table/state", state(7, true, [player(0, "Dee", 20000), player(1, "Eve", 3000)], [0]));
    v.take("cng/v1/t2/gun/g1/status", "");
    expect(v.leaderboard()).toHaveLength(2);
    expect(v.tables()[1]!.guns).toEqual({ paired: 1, online: 0 });
  });

  it("skips junk", () => {
    const v = new Venue();
    for (const [topic, p] of [
      ["cng/v1/t1/table/state", "not json"],
      ["cng/v1/t1/table/state", '{"v":2}'],
      ["cng/v1/t1/table/state", '{"v":1,"id":null,"game":null}'],
      ["cng/v1/t1/gun/x/status", "[1"],
      ["cng/v1/t1/gun/x/status", "7"],
      ["elsewhere", "{}"],
    ])
      expect(() => v.take(topic!, p!)).not.toThrow();
    // nothing that decodes: no table seen
    expect(v.snapshot()).toEqual({ tables: [], leaderboard: [] });
  });

  it("skips a retained state that does not decode (another table's, another version's): the last good one stays", () => {
    const v = new Venue();
    v.take("cng/v1/t1/table/state", state(3, false, [player(0, "Ann", 5000), player(1, "Bob", 9000)]));
    const good = JSON.parse(state(4, false, [player(0, "Cid", 1000), player(1, "Dee", 2000)]));
    const bad = [
      { ...good, game: { ...good.game, players: [{ ...good.game.players[0], money: "lots" }] } },
      { ...good, game: { ...good.game, step: "dance" } },
      { ...good, seats: undefined },
      { ...good, extra: 1 },
    ];
    for (const b of bad) expect(() => v.take("cng/v1/t1/table/state", JSON.stringify(b))).not.toThrow();
    expect(v.tables()).toMatchObject([{ table: "t1", game: 3, leaders: ["Bob"] }]);
    v.take("cng/v1/t1/table/state", JSON.stringify(good));
    expect(v.tables()).toMatchObject([{ table: "t1", game: 4, leaders: ["Dee"] }]);
  });

  it("says why when the broker will not show every table (a hub's embedded broker)", async () => {
    const hub = await testHub();
    try {
      await expect(startVenue({ url: hub.urls.mqtt, port: 0, bind: "127.0.0.1" })).rejects.toThrow(
        /refused cng\/v1\/\+\/table\/state.*embedded broker holds one table/,
      );
    } finally {
      await hub.stop();
    }
  });
});

// A plain mosquitto (anonymous clients may do anything): hubs on an external broker, and `cng venue` beside them.
const MOSQUITTO = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"].find((p) => existsSync(p));
if (!MOSQUITTO) console.warn("SKIPPED venue tests on an external broker: no mosquitto (apt-get install mosquitto)");

async function plainMosquitto(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  chmodSync(dir, 0o755); // run as root, mosquitto drops to its own user
  writeFileSync(join(dir, "m.conf"), `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
  const p = spawn(MOSQUITTO!, ["-c", join(dir, "m.conf")], { stdio: "ignore" });
  const url = `mqtt://127.0.0.1:${port}`;
  await brokerUp(url);
  return {
    url,
    stop: async () => {
      const gone = new Promise((r) => p.once("exit", r));
      p.kill("SIGTERM");
      await gone;
    },
  };
}

const finished = (id: number, names: [string, number][]) =>
  state(
    id,
    true,
    names.map(([n, m], i) => player(i, n, m)),
    [0],
  );

describe("the venue view served by a hub, and a leaderboard kept across restarts", () => {
  it("a hub serves /venue and /api/venue: with its embedded broker, its own table", async () => {
    const hub = await testHub({ table: "solo" });
    try {
      const page = await fetch(new URL("/venue", hub.urls.dashboard));
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(await page.text()).toContain("/api/venue");
      const api = async () => (await (await fetch(new URL("/api/venue", hub.urls.dashboard))).json()) as any;
      let v: any;
      for (let i = 0; i < 100; i++) {
        v = await api();
        if (v.tables.length > 0) break;
        await sleep(50);
      }
      expect(v).toMatchObject({ tables: [{ table: "solo", over: false }], leaderboard: [] });
      expect(JSON.stringify(v)).not.toContain(hub.pin);
    } finally {
      await hub.stop();
    }
  });

  it("keeps finished games in a file: junk in it is skipped, a new Venue on it has them", () => {
    const t = tempDir("cng-venue-file-");
    try {
      const file = join(t.dir, "sub", "venue.json");
      const v1 = new Venue(() => 5, leaderboardFile(file));
      v1.take(
        "cng/v1/t1/table/state",
        finished(3, [
          ["Ann", 9000],
          ["Bob", 100],
        ]),
      );
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const v2 = new Venue(() => 6, leaderboardFile(file));
      expect(v2.leaderboard()).toEqual(v1.leaderboard());
      expect(v2.leaderboard()[0]).toMatchObject({ table: "t1", game: 3, winners: ["Ann"] });
      const raw = JSON.parse(readFileSync(file, "utf8"));
      raw.games.push({ table: 7 }, null, { ...raw.games[0], players: [{ name: "x" }] });
      writeFileSync(file, JSON.stringify(raw));
      expect(new Venue(() => 7, leaderboardFile(file)).leaderboard()).toHaveLength(1);
      writeFileSync(file, "not json");
      const warnings: string[] = [];
      expect(
        new Venue(
          () => 7,
          leaderboardFile(file, (m) => warnings.push(m)),
        ).leaderboard(),
      ).toEqual([]);
      expect(warnings.join()).toMatch(/starting an empty one/);
    } finally {
      t.remove();
    }
  });

  describe.skipIf(!MOSQUITTO)("on an external broker", () => {
    const t = tempDir("cng-venue-ext-");
    let broker: Awaited<ReturnType<typeof plainMosquitto>>;
    beforeAll(async () => {
      broker = await plainMosquitto(t.dir);
    });
    afterAll(async () => {
      await broker?.stop();
      t.remove();
    });

    /** A table that finished a game, as its hub would leave it on the broker: retained. */
    async function leaveFinished(table: string, id: number, names: [string, number][]) {
      const c = await connect(broker.url);
      await c.publishAsync(`cng/v1/${table}/table/state`, finished(id, names), { qos: 1, retain: true });
      return {
        clear: async () => {
          await c.publishAsync(`cng/v1/${table}/table/state`, "", { qos: 1, retain: true });
          c.end(true);
        },
      };
    }

    it("a hub shows every table on its broker; restarted, it keeps the games it saw finish", async () => {
      const data = join(t.dir, "hub-a");
      const opts = { broker: broker.url, table: "ea", data };
      const other = await testHub({ broker: broker.url, table: "eb", data: join(t.dir, "hub-b") });
      const gone = await leaveFinished("ec", 4, [
        ["Zed", 41000],
        ["Yan", 2000],
      ]);
      let hub = await testHub(opts);
      const api = async () => (await (await fetch(new URL("/api/venue", hub.urls.dashboard))).json()) as any;
      try {
        let v: any;
        for (let i = 0; i < 100; i++) {
          v = await api();
          if (v.tables.length >= 3) break;
          await sleep(50);
        }
        expect(v.tables.map((x: { table: string }) => x.table)).toEqual(["ea", "eb", "ec"]);
        expect(v.leaderboard).toMatchObject([{ table: "ec", game: 4, winners: ["Zed"] }]);
        expect(await (await fetch(new URL("/venue", hub.urls.dashboard))).text()).toContain("/api/venue");
        // the finished table leaves the broker; the hub restarts on the same data folder
        await gone.clear();
        await hub.close();
        hub = await testHub(opts);
        await sleep(300);
        v = await api();
        expect(v.tables.map((x: { table: string }) => x.table)).toEqual(["ea", "eb"]);
        expect(v.leaderboard).toMatchObject([
          { table: "ec", game: 4, winners: ["Zed"], players: [{ name: "Zed" }, {}] },
        ]);
      } finally {
        await hub.close();
        await other.close();
      }
    });

    it("cng venue --data: restarted, it keeps its leaderboard", async () => {
      const data = join(t.dir, "venue-data");
      const g1 = await leaveFinished("vx", 2, [
        ["Ann", 30000],
        ["Bob", 1000],
      ]);
      const g2 = await leaveFinished("vy", 5, [
        ["Cid", 50000],
        ["Dee", 1000],
      ]);
      let v = await startVenue({ url: broker.url, port: 0, bind: "127.0.0.1", data });
      const api = async () => (await (await fetch(`http://127.0.0.1:${v.port}/api/venue`)).json()) as any;
      try {
        await waitFor(() => v.venue.leaderboard().length >= 2, 5000);
        expect((await api()).leaderboard.map((g: { table: string }) => g.table)).toEqual(["vy", "vx"]);
        await g1.clear();
        await g2.clear();
        await v.close();
        v = await startVenue({ url: broker.url, port: 0, bind: "127.0.0.1", data });
        await sleep(200);
        const after = await api();
        expect(after.tables.map((x: { table: string }) => x.table)).not.toContain("vx");
        expect(after.leaderboard).toMatchObject([
          { table: "vy", game: 5, winners: ["Cid"] },
          { table: "vx", game: 2, winners: ["Ann"] },
        ]);
        expect(existsSync(join(data, VENUE_FILE))).toBe(true);
      } finally {
        await v.close();
      }
    });
  });
});
