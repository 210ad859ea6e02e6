// Whole games over MQTT: the hub runs the table, scripted guns (real mqtt.js clients, paired like hardware)
// aim and pull, consoles and the host send requests; each game ends exactly as the scenario runner
// (`cng rules play`) ends it on the same decisions.
import type { MqttClient } from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import type { TestGun } from "../fakes/gun.js";
import { request } from "../fakes/hub.js";
import { closeTable, expectedResult, pairedTable, QUICK, setupOf, type TestHub } from "../fakes/paired-table.js";
import { Players, type TableState } from "../fakes/players.js";
import { randomScenario, type Scenario } from "../fakes/table-rig.js";
import { DrivenTime } from "../fakes/time.js";

describe("a whole game over MQTT", () => {
  let hub: TestHub;
  let host: MqttClient;
  let guns: TestGun[] = [];
  let tokens: string[] = [];
  let players: Players | null = null;
  let time: DrivenTime;
  afterEach(async () => {
    await closeTable({ players, guns, host, hub });
    guns = [];
  });

  async function table(
    scenario: Scenario,
    secrets: "console" | "physical",
    extra: { timingOverrides?: Record<string, number>; onState?: (s: TableState) => void } = {},
  ) {
    time = new DrivenTime();
    ({ hub, host, guns, tokens } = await pairedTable(scenario.players.length, time));
    const started = await request(
      host,
      hub.table,
      "game.new",
      setupOf(scenario, { secrets, timing: "fast", timingOverrides: { ...QUICK, ...extra.timingOverrides } }),
      hub.pin,
    );
    expect(started.ok, JSON.stringify(started)).toBe(true);
    players = new Players(host, hub.table, hub.pin, scenario, guns, {
      consoles: secrets === "console",
      tokens,
      onState: extra.onState,
      time,
    });
    await players.start();
    return players;
  }

  it("classic, console secrets: ends as the scenario runner does", async () => {
    const scenario = randomScenario("classic", 5, 11);
    const p = await table(scenario, "console");
    await p.over(60_000);
    const st = await request(host, hub.table, "game.state", undefined, hub.pin);
    expect((st.r as { result: unknown }).result).toEqual(expectedResult(scenario));
    // the guns were driven: counts at 50 Hz, quiet at 5 Hz; cues arrived with their own sequence
    expect(guns[0]!.rates).toContain(50);
    expect(guns[0]!.rates).toContain(5);
    expect(guns[0]!.cues.some((c) => c.c === "go" && typeof c.at === "number")).toBe(true);
  }, 90_000);

  it("second edition, privilege by pointing and pulling, draft on the dashboard: ends as the scenario runner does", async () => {
    const scenario = randomScenario("second", 5, 21);
    expect(scenario.rounds.some((r) => r.privilege)).toBe(true);
    // every table/state a viewer sees tells one story: the table's round and step are the game's
    const mismatched: string[] = [];
    let seen = 0;
    const p = await table(scenario, "console", {
      onState: (s) => {
        const g = s.game as { round: number; step: string } | null;
        if (!g || !s.table) return;
        seen++;
        if (s.table.round !== g.round || s.table.step !== g.step)
          mismatched.push(`table ${s.table.round}/${s.table.step} vs game ${g.round}/${g.step}`);
      },
    });
    await p.over(60_000);
    const st = await request(host, hub.table, "game.state", undefined, hub.pin);
    expect((st.r as { result: unknown }).result).toEqual(expectedResult(scenario));
    expect(seen).toBeGreaterThan(20);
    expect(mismatched).toEqual([]);
  }, 90_000);

  it("classic with physical cards learned in the reveal windows: ends as the scenario runner does", async () => {
    const scenario = randomScenario("classic", 4, 31, { physical: true });
    const p = await table(scenario, "physical", {});
    await p.over(60_000);
    const st = await request(host, hub.table, "game.state", undefined, hub.pin);
    expect((st.r as { result: unknown }).result).toEqual(expectedResult(scenario));
  }, 90_000);

  it("a gun dropping mid-countdown is waited for; it returns and the game ends as planned", async () => {
    const scenario = randomScenario("classic", 4, 12);
    let dropped = false;
    let seenOffline = false;
    let gunsRef: TestGun[] = [];
    const p = await table(scenario, "console", {
      onState: (s) => {
        if (s.seats[1] && !s.seats[1].online) seenOffline = true;
        const a = s.table?.activity;
        if (!dropped && s.table?.round === 2 && a?.kind === "count" && a.purpose === "aim" && a.goAt !== null) {
          dropped = true;
          const g = gunsRef[1]!;
          g.drop();
          time.after(700, () => void time.track(g.connect()));
        }
      },
    });
    gunsRef = guns;
    await p.over(60_000);
    expect(dropped).toBe(true);
    expect(seenOffline).toBe(true);
    const st = await request(host, hub.table, "game.state", undefined, hub.pin);
    expect((st.r as { result: unknown }).result).toEqual(expectedResult(scenario));
  }, 90_000);
});
