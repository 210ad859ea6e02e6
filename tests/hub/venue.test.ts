// The venue view's bookkeeping (hub/src/venue/venue.ts): tables from their retained public topics, a
// leaderboard of finished games, and junk that never brings it down.
import { describe, expect, it } from "vitest";
import { startVenue } from "../../hub/src/venue/server.js";
import { Venue } from "../../hub/src/venue/venue.js";
import { testHub } from "./helpers.js";

const player = (seat: number, name: string, money: number, alive = true) => ({
  seat,
  name,
  alive,
  wounds: 0,
  shame: 0,
  money,
  cards: 3,
});
const state = (id: number, over: boolean, players: ReturnType<typeof player>[], winners: number[] = []) =>
  JSON.stringify({
    v: 1,
    id,
    decisions: 9,
    game: { edition: "classic", round: 3, step: over ? "over" : "aim", over, winners, players },
    table: null,
    seats: [],
    calibration: [],
  });

describe("venue", () => {
  it("lists tables with who is ahead and guns online, and finished games best first", () => {
    let now = 1000;
    const v = new Venue(() => now);
    v.take(
      "cng/v1/t2/table/state",
      state(4, false, [player(0, "Ann", 5000), player(1, "Bob", 9000, false), player(2, "Cid", 7000)]),
    );
    v.take("cng/v1/t2/gun/g1/status", JSON.stringify({ v: 1, on: true, paired: true }));
    v.take("cng/v1/t2/gun/g2/status", JSON.stringify({ v: 1, on: false, paired: true }));
    v.take("cng/v1/t2/gun/g3/status", JSON.stringify({ v: 1, on: true, paired: false }));
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
    expect(v.snapshot()).toMatchObject({
      tables: [{ table: "t1", game: null, players: [], leaders: [] }],
      leaderboard: [],
    });
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
