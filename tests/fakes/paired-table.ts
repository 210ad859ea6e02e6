// What the whole-game tests share: a hub with the host connected, guns paired at their seats like hardware,
// the seats' console tokens, and the result the scenario runner gives for the same decisions.
import type { MqttClient } from "mqtt";
import { roundTable } from "../../hub/src/aim/index.js";
import { playScenario } from "../../hub/src/rules/scenario.js";
import { TestGun } from "./gun.js";
import { connect, request, testHub } from "./hub.js";
import type { Players } from "./players.js";
import type { Scenario } from "./table-rig.js";
import { DrivenTime, realTime, type TestTime } from "./time.js";

export type TestHub = Awaited<ReturnType<typeof testHub>>;

/** On top of FAST_TIMING: shorter counts and windows (still ≥ 10 samples a beat at 50 Hz), so a whole game
 * stays well under the time limit. */
export const QUICK = { countPaceMs: 200, shortCountPaceMs: 150, revealWindowMs: 450, privilegeWindowMs: 1200 };

/**
 * A fresh hub, the host logged in with the PIN, one gun paired per seat and each seat's console token. With a
 * DrivenTime the hub, the guns and the host run on the test's time.
 */
export async function pairedTable(seats: number, time: TestTime = realTime) {
  const hub = await testHub(time instanceof DrivenTime ? { clock: time.clock } : {});
  const host: MqttClient = time.watch(await connect(hub.urls.mqtt, { username: "host", password: hub.pin }));
  const layout = roundTable(seats);
  const guns: TestGun[] = [];
  for (let seat = 0; seat < seats; seat++)
    guns.push(await TestGun.pair(hub.urls.mqtt, hub.table, host, hub.pin, `gun${seat}`, seat, layout, time));
  const tokens: string[] = [];
  for (let seat = 0; seat < seats; seat++)
    tokens.push(((await request(host, hub.table, "seat.token", { seat }, hub.pin)).r as { token: string }).token);
  return { hub, host, guns, tokens };
}

/** `game.new`'s setup for a scenario, with the table's options. */
export function setupOf(scenario: Scenario, table: Record<string, unknown>) {
  return { edition: scenario.edition, players: scenario.players, seed: scenario.seed, ...scenario.options, table };
}

/** The scenario runner's result (`cng rules play`), as JSON would carry it. */
export function expectedResult(s: Scenario): unknown {
  const r = playScenario(s);
  if (!r.ok) throw new Error(r.error.message);
  return JSON.parse(JSON.stringify(r.output));
}

/** After each test: the players stop, the guns and the host hang up, the hub stops (whatever was made). */
export async function closeTable(t: {
  players: Players | null;
  guns: TestGun[];
  host: MqttClient | undefined;
  hub: TestHub | undefined;
}): Promise<void> {
  t.players?.stop();
  for (const g of t.guns) g.close();
  t.host?.end(true);
  await t.hub?.stop();
}
