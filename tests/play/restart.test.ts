// @real-time: a hub killed and started again, in real time
// The hub process killed with SIGKILL mid-round (through the CLI) and restarted: the table resumes at the same
// step from the game log and its own records, waits for the guns (they come back late: the count must not decide
// for guns that are away), the guns and consoles reconnect, and the game ends as the scenario runner ends it.

import type { ChildProcess } from "node:child_process";
import type { GameSetup, TableArgs } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterAll, describe, expect, it } from "vitest";
import { roundTable } from "../../hub/src/aim/index.js";
import { playScenario } from "../../hub/src/rules/scenario.js";
import { TestGun } from "../fakes/gun.js";
import { connect, request, sleep, spawnHub, tempDir } from "../fakes/hub.js";
import { Players, type TableState } from "../fakes/players.js";
import { randomScenario } from "../fakes/table-rig.js";

const _CLI = new URL("../../bin/cng.js", import.meta.url).pathname;
const PIN = "515151";

describe("the hub killed mid-round", () => {
  const t = tempDir();
  const children: ChildProcess[] = [];
  const clients: MqttClient[] = [];
  const guns: TestGun[] = [];
  afterAll(() => {
    for (const g of guns) g.close();
    for (const c of clients) c.end(true);
    for (const c of children) c.kill("SIGKILL");
    t.remove();
  });

  it("resumes at the same step after kill -9 and finishes with the same result", async () => {
    const scenario = randomScenario("classic", 4, 13);
    const layout = roundTable(4);
    const first = await spawnHub(t.dir, { pin: PIN, extra: ["--timing", "fast"] });
    children.push(first.child);
    const host = await connect(first.mqtt, { username: "host", password: PIN });
    clients.push(host);
    for (let seat = 0; seat < 4; seat++)
      guns.push(await TestGun.pair(first.mqtt, "main", host, PIN, `gun${seat}`, seat, layout));
    const setup: GameSetup = { edition: "classic", players: scenario.players, seed: scenario.seed };
    const table: TableArgs = { secrets: "console", timingOverrides: { countPaceMs: 200 } };
    expect((await request(host, "main", "game.new", { ...setup, table }, PIN)).ok).toBe(true);

    // killed during round 2's courage count, after its aims are settled
    let killedAt: TableState | null = null;
    const exited = new Promise((r) => first.child.once("exit", r));
    const p1 = new Players(host, "main", PIN, scenario, guns, {
      consoles: true,
      onState: (s) => {
        const a = s.table?.activity;
        if (!killedAt && s.table?.round === 2 && a?.kind === "count" && a.purpose === "courage" && a.goAt !== null) {
          killedAt = s;
          first.child.kill("SIGKILL");
        }
      },
    });
    await p1.start();
    await exited;
    p1.stop();
    host.end(true);
    for (const g of guns) g.drop();
    expect(killedAt).not.toBeNull();
    const before = killedAt! as TableState;

    const second = await spawnHub(t.dir, { pin: PIN, extra: ["--timing", "fast"] });
    children.push(second.child);
    const host2 = await connect(second.mqtt, { username: "host", password: PIN });
    clients.push(host2);
    const resumed = (await request(host2, "main", "table.status")).r as TableState;
    expect(resumed.table).toMatchObject({ round: 2, step: before.table!.step, over: false });
    expect(resumed.decisions).toBeGreaterThanOrEqual(before.decisions);
    // the guns come back late (longer than a mid-count drop may last): the count waits for them, deciding nothing
    await sleep(4000);
    const waited = (await request(host2, "main", "table.status")).r as TableState;
    expect(waited.decisions).toBe(resumed.decisions);
    expect(waited.table!.waiting.filter((w) => w.for === "gun").map((w) => w.seat)).toEqual([0, 1, 2, 3]);
    for (const g of guns) await g.connect(second.mqtt);
    const p2 = new Players(host2, "main", PIN, scenario, guns, { consoles: true });
    await p2.start();
    await p2.over(60_000);
    p2.stop();
    const st = await request(host2, "main", "game.state", undefined, PIN);
    const r = playScenario(scenario);
    if (!r.ok) throw new Error(r.error.message);
    expect((st.r as { result: unknown }).result).toEqual(JSON.parse(JSON.stringify(r.output)));
  }, 90_000);
});
