// game.pause / game.resume at a real table over MQTT: paused mid-count, no "go" sounds and nothing moves;
// resumed, the count starts again and the game ends exactly as the scenario runner ends it.
import type { MqttClient } from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import type { TestGun } from "../fakes/gun.js";
import { request } from "../fakes/hub.js";
import { closeTable, expectedResult, pairedTable, QUICK, setupOf, type TestHub } from "../fakes/paired-table.js";
import { Players, type TableState } from "../fakes/players.js";
import { randomScenario } from "../fakes/table-rig.js";
import { DrivenTime } from "../fakes/time.js";

describe("pausing the table", () => {
  let hub: TestHub;
  let host: MqttClient;
  let guns: TestGun[] = [];
  let players: Players | null = null;
  afterEach(async () => {
    await closeTable({ players, guns, host, hub });
    guns = [];
  });

  it("pause during a count: no go cue, no step change; resume: the count runs and the game ends as planned", async () => {
    const scenario = randomScenario("classic", 4, 12);
    let tokens: string[];
    const time = new DrivenTime();
    ({ hub, host, guns, tokens } = await pairedTable(4, time));
    // nothing to pause without a game
    expect(await request(host, hub.table, "game.pause", {}, hub.pin)).toMatchObject({
      ok: false,
      e: { code: "no-game" },
    });
    const started = await request(
      host,
      hub.table,
      "game.new",
      setupOf(scenario, { secrets: "console", timing: "fast", timingOverrides: QUICK }),
      hub.pin,
    );
    expect(started.ok).toBe(true);

    let pausing: Promise<unknown> | null = null;
    let last: TableState | null = null;
    players = new Players(host, hub.table, hub.pin, scenario, guns, {
      consoles: true,
      tokens,
      onState: (s) => {
        last = s;
        const a = s.table?.activity;
        if (!pausing && s.table?.round === 2 && a?.kind === "count" && a.purpose === "aim" && a.goAt !== null)
          pausing = time.track(request(host, hub.table, "game.pause", {}, hub.pin));
      },
      time,
    });
    await players.start();
    await time.until(() => pausing, 60_000, "round 2's aim count");
    expect(await pausing).toMatchObject({ ok: true, r: { paused: true } });
    await time.settle();
    const gos = guns.map((g) => g.cues.filter((c) => c.c === "go").length);
    const at = (await request(host, hub.table, "table.status")).r as TableState;
    expect(at.table).toMatchObject({ paused: true, activity: null, round: 2 });
    // the seat layout of the running table is in table/state (a round table by default)
    expect((at as TableState & { layout: unknown }).layout).toEqual({ round: 4 });
    // players' inputs are refused while paused
    expect(await request(host, hub.table, "round.start", {}, hub.pin)).toMatchObject({
      ok: false,
      e: { code: "paused" },
    });
    // well past when the count's go would have been, in the hub's time
    await time.pass(1200);
    expect(guns.map((g) => g.cues.filter((c) => c.c === "go").length)).toEqual(gos);
    // the guns were told to stop whatever beats they had
    expect(guns.every((g) => g.cues.some((c) => c.c === "off"))).toBe(true);
    const still = (await request(host, hub.table, "table.status")).r as TableState;
    expect(still.decisions).toBe(at.decisions);
    expect(still.table).toMatchObject({ step: at.table!.step, paused: true });
    expect(last!.table?.paused).toBe(true);

    expect(await request(host, hub.table, "game.resume", {}, hub.pin)).toMatchObject({ ok: true });
    await players.over(60_000);
    expect(guns[0]!.cues.filter((c) => c.c === "go").length).toBeGreaterThan(gos[0]!);
    const st = await request(host, hub.table, "game.state", undefined, hub.pin);
    expect((st.r as { result: unknown }).result).toEqual(expectedResult(scenario));
    expect(players.errors).toEqual([]);
  }, 90_000);
});
