// What goes wrong at a real table, on simulated guns and bots: a gun drops off the WiFi mid-count and comes
// back; a player too slow for the count is "nobody"; an aim between two players is re-aimed, never taken as
// the wrong one. On driven time (tests/fakes/time.ts): the hub, the guns' firmware and the people share one
// clock the test moves, so the drop happens at the same point of the count on a busy machine or a quiet one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Fleet } from "../../hub/src/sim/fleet.js";
import { type Connection, playGame } from "../../hub/src/sim/game.js";
import type { BotPlayer } from "../../hub/src/sim/player.js";
import type { TableState } from "../../hub/src/sim/table-view.js";
import { gameLog, wrongTargets } from "../fakes/clean-game.js";
import { testHub } from "../fakes/hub.js";
import { DrivenTime } from "../fakes/time.js";

describe("faults at the table", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  let fleet: Fleet;
  let conn: Connection;
  const time = new DrivenTime();
  beforeAll(async () => {
    hub = await testHub({ clock: time.clock });
    conn = { url: hub.urls.mqtt, table: hub.table, pin: hub.pin };
    fleet = await time.run(
      Fleet.start({ ...conn, guns: 6, seed: 5, tempo: 300 / 700, clock: time.clock }),
      60_000,
      "the guns to pair",
    );
    await time.run(fleet.calibrate(), 60_000, "the calibration");
  });
  afterAll(async () => {
    await fleet?.stop();
    await hub?.stop();
  });

  it("a gun that loses its connection mid-count comes back; a slow player is nobody; an ambiguous aim is re-aimed", async () => {
    const dropper = fleet.guns[2]!;
    const slow = fleet.guns[1]!;
    const torn = fleet.guns[0]!;
    const quick = slow.hand.traits;
    slow.hand.traits = { ...quick, slowProb: 1, slowExtraMs: [1500, 2000] };
    const drops = fleet.drops.get(dropper.id) ?? 0;
    let dropped = false;
    // seat 0's first aim goes exactly between two players (its hand wobbles a little, its aim point does not)
    const realAim = torn.hand.aim.bind(torn.hand);
    let between: number | null = null;
    torn.hand.aim = (bearing, cue) => {
      if (between !== null) return realAim(bearing, cue);
      const b = torn.bearings;
      const t = b.indexOf(bearing);
      const n = t < b.length - 1 ? t + 1 : t - 1; // a neighbour of the target, never seat 0 itself
      between = t;
      const d = ((((b[n]! - b[t]!) % 360) + 540) % 360) - 180;
      torn.hand.traits = { ...torn.hand.traits, aimErrorDeg: 0 };
      return realAim(b[t]! + d / 2, cue);
    };
    const recounts: number[][] = [];
    const unwatch = time.every(20, () => {
      const a = (fleet.state as TableState | null)?.table?.activity;
      if (a?.kind === "count" && a.purpose === "aim" && a.seats.length < 6) {
        const last = recounts.at(-1);
        if (!last || last.join() !== a.seats.join()) recounts.push([...a.seats]);
      }
      // seat 1 is slow in the first round only
      if ((fleet.state?.game?.round ?? 0) >= 2) slow.hand.traits = quick;
      if (!dropped && a?.kind === "count" && a.goAt !== null && (fleet.state?.game?.round ?? 0) === 2) {
        dropped = true;
        dropper.gun.dropNetwork();
      }
    });
    let players: BotPlayer[] = [];
    try {
      const r = await time.run(
        playGame(conn, fleet, {
          edition: "classic",
          players: 6,
          seed: 9,
          speed: "fast",
          onStart: (p) => {
            players = p;
          },
        }),
        600_000,
        "the game",
      );
      expect(r.result.over).toBe(true);
      const log = gameLog(hub.dataDir);
      // the dropped gun went away, came back, and the game went on with it
      expect(dropped).toBe(true);
      expect(fleet.drops.get(dropper.id)!).toBeGreaterThan(drops);
      expect(fleet.status.get(dropper.id)).toMatchObject({ on: true });
      expect(log.aims.filter((a) => a.seat === 2 && a.round > 2 && a.target !== null).length).toBeGreaterThan(0);
      // the slow player meant to aim in round 1 but was too late: nobody, never someone else
      expect(players[1]!.intents.find((i) => i.round === 1 && i.kind === "aim")!.target).not.toBeNull();
      expect(log.aims.find((a) => a.seat === 1 && a.round === 1)!.target).toBeNull();
      // seat 0's aim between two players was counted again (a recount of its seat), and never a wrong target
      expect(between).not.toBeNull();
      expect(recounts.some((s) => s.includes(0))).toBe(true);
      expect(wrongTargets(log.aims, players)).toEqual([]);
    } finally {
      unwatch();
    }
  }, 120_000);
});
