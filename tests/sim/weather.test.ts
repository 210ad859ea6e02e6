// @real-time: games behind a WiFi relay with real delays
// Whole games behind the WiFi relay (hub/src/sim/weather): every check the simulated games make, and what a table on
// real WiFi needs — no wrong target, no player in time read as too slow, no courage misread, the guns' beats together
// — in a busy party's weather and with modem sleep at DTIM 3; a gun dropping off the WiFi in the middle of a count.
import { describe, expect, it } from "vitest";
import { type DemoOptions, runDemo } from "../../hub/src/bench/demo-game.js";
import { spread } from "../../hub/src/bench/load/stats.js";
import { verdicts } from "../../hub/src/bench/verdicts.js";
import { beatFigures } from "../../hub/src/bench/weather-game.js";
import type { Fleet } from "../../hub/src/sim/fleet.js";
import type { TableState } from "../../hub/src/sim/table-view.js";
import { type WeatherName, weatherNamed } from "../../hub/src/sim/weather/profiles.js";
import { expectCleanGame } from "../fakes/clean-game.js";
import { tempDir } from "../fakes/hub.js";
import { DrivenTime } from "../fakes/time.js";

interface Played {
  r: Awaited<ReturnType<typeof runDemo>>;
  log: ReturnType<typeof expectCleanGame>;
  states: TableState[];
  fleet: Fleet;
}

async function play(
  weather: WeatherName,
  o: Partial<DemoOptions> & { players: number; seed: number },
  during?: (fleet: Fleet, s: TableState) => void,
): Promise<Played> {
  const t = tempDir("cng-weather-");
  try {
    const time = new DrivenTime();
    const states: TableState[] = [];
    let fleet: Fleet | undefined;
    const r = await time.run(
      runDemo({
        edition: o.players > 6 ? "second" : "classic",
        speed: "fast",
        ...o,
        weather: weatherNamed(weather),
        clock: time.clock,
        hub: { mqttPort: 0, httpPort: 0, bind: "127.0.0.1", data: t.dir, voice: "off", discovery: "off" },
        onState: (s) => {
          states.push(s);
          if (fleet) during?.(fleet, s);
        },
        beforeGame: async (f) => {
          fleet = f;
        },
      }),
      900_000,
      "the game",
    );
    return { r, log: expectCleanGame(t.dir, r), states, fleet: fleet! };
  } finally {
    t.remove();
  }
}

describe("whole games in WiFi weather", () => {
  it.each([
    ["party", 6, 31],
    ["sleep3", 6, 32],
    ["party", 8, 33],
  ] as const)(
    "%s, %i players: no wrong target, none read too slow in time, beats together",
    async (weather, players, seed) => {
      const { r, log, states, fleet } = await play(weather, { players, seed });
      const v = verdicts(log.records, r.players);
      expect(v.wrong, v.misses.join("; ")).toBe(0);
      // a player steady by "3" is never read as nobody for a delay that was the network's
      expect(v.nobody, v.misses.join("; ")).toBe(0);
      expect(v.courageDiffers, v.misses.join("; ")).toBe(0);
      expect(v.meant).toBeGreaterThan(players * 4);
      const beats = beatFigures(states, fleet.guns);
      expect(beats.beats).toBeGreaterThan(players * 3 * 4);
      expect(spread(beats.spreads).p99).toBeLessThanOrEqual(20);
      // the relay did stall and delay the guns' streams (the weather was there)
      const up = spread((r.weather ?? []).flatMap((s) => s.delays.up));
      expect(up.n).toBeGreaterThan(1000);
      expect(up.p50).toBeGreaterThan(3);
      // every radio was kept awake: the sleep profile's DTIM waits never applied
      for (const g of fleet.guns) expect(g.gun.wifi.powersave).toBe("none");
    },
    240_000,
  );
});

describe("a gun dropping off the WiFi mid-count", () => {
  /** at the second round's aim count, seat 1's link goes for `ms` from just before "3" */
  const dropAtCount = (ms: number) => {
    let done = false;
    return (fleet: Fleet, s: TableState) => {
      const a = s.table?.activity;
      if (done || s.table?.round !== 2 || a?.kind !== "count" || a.purpose !== "aim" || a.goAt === null) return;
      done = true;
      const station = fleet.stations.get(fleet.guns[1]!.id)!;
      fleet.clock.setTimer(a.goAt - 200 - fleet.clock.now(), () => station.dropout(ms));
    };
  };

  it("a few seconds: the count waits, says which gun lags, counts it again, and reads the aim it made", async () => {
    const { r, log, states, fleet } = await play("home", { players: 4, seed: 41 }, dropAtCount(2500));
    const station = fleet.stations.get(fleet.guns[1]!.id)!;
    expect(station.dropouts).toBeGreaterThanOrEqual(1);
    expect(station.disassociations).toBe(0);
    // the table view named the lagging gun
    const lagged = states.some((s) => {
      const a = s.table?.activity;
      return s.table?.round === 2 && a?.kind === "count" && a.lagging.includes(1);
    });
    expect(lagged).toBe(true);
    const meant = r.players[1]!.intents.filter((i) => i.round === 2 && i.kind === "aim").at(-1)!;
    const read = log.records.find((x) => x.kind === "aim" && x.round === 2 && x.seat === 1) as
      | { target: number | null }
      | undefined;
    expect(read?.target).toBe(meant.target ?? null);
  }, 240_000);

  it("long enough to lose the WiFi: the gun comes back on its own and the game ends right", async () => {
    const { r, log, fleet } = await play("home", { players: 4, seed: 42 }, dropAtCount(8000));
    const station = fleet.stations.get(fleet.guns[1]!.id)!;
    expect(station.disassociations).toBe(1);
    expect(verdicts(log.records, r.players).wrong).toBe(0);
  }, 240_000);
});
