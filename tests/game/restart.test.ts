// kill -9 the hub in the middle of a stream of decisions; a restarted hub resumes with every
// acknowledged decision, and `cng replay` prints the same result as the engine.
import { type ChildProcess, execFileSync } from "node:child_process";
import { cmdTopic, type GameSetup } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterAll, describe, expect, it } from "vitest";
import { decide } from "../../hub/src/rules/bot.js";
import { apply, type Decision, owedDecisions, publicView, Rng, type State, setup } from "../../hub/src/rules/index.js";
import { describe as outcome } from "../../hub/src/rules/scenario.js";
import { connect, request, spawnHub, tempDir } from "../fakes/hub.js";

const CLI = new URL("../../bin/cng.js", import.meta.url).pathname;
const SETUP: GameSetup = { edition: "classic", players: ["Ann", "Bob", "Cid", "Dee", "Eve"], seed: 11 };
const PIN = "424242";

/** The decisions of a whole random game, each legal after the ones before. */
function randomGame(): Decision[] {
  let s: State = setup(SETUP as any);
  const rng = new Rng(5);
  const out: Decision[] = [];
  while (!s.over && out.length < 400) {
    const owed = owedDecisions(s);
    if (owed.length === 0) break;
    const d = decide(s, owed[0]!, rng);
    const r = apply(s, d);
    if (!r.ok) throw new Error(`bot made an illegal decision: ${r.error.message}`);
    out.push(d);
    s = r.state;
  }
  return out;
}

function stateAfter(decisions: Decision[]): State {
  let s: State = setup(SETUP as any);
  for (const d of decisions) {
    const r = apply(s, d);
    if (!r.ok) throw new Error(r.error.message);
    s = r.state;
  }
  return s;
}

describe("crash recovery", () => {
  const t = tempDir();
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill("SIGKILL");
    t.remove();
  });

  it("after kill -9 mid-stream, a restarted hub has every acknowledged decision and goes on", async () => {
    const game = randomGame();
    expect(game.length).toBeGreaterThan(60);
    const first = await spawnHub(t.dir, { pin: PIN });
    children.push(first.child);
    const host: MqttClient = await connect(first.mqtt, { username: "host", password: PIN });
    expect((await request(host, "main", "game.new", SETUP, PIN)).ok).toBe(true);
    for (let i = 0; i < 20; i++) {
      const r = await request(host, "main", "game.decide", { decision: game[i] }, PIN);
      expect(r.ok, JSON.stringify(r)).toBe(true);
    }
    // Fire the next ones without waiting, and kill the hub as soon as the first is acknowledged.
    let acked = 20;
    const resTopic = cmdTopic("main", host.options.clientId!, "res");
    const killed = new Promise<void>((resolve) => {
      host.on("message", (topic, payload) => {
        if (topic !== resTopic) return;
        const r = JSON.parse(payload.toString());
        if (!r.id.startsWith("burst") || !r.ok) return;
        acked = Math.max(acked, r.r.decisions);
        if (!first.child.killed) first.child.kill("SIGKILL");
        resolve();
      });
    });
    for (let i = 20; i < 60; i++) {
      const req = { v: 1, id: `burst${i}`, op: "game.decide", auth: PIN, a: { decision: game[i] } };
      host.publish(cmdTopic("main", host.options.clientId!, "req"), JSON.stringify(req), { qos: 1 });
    }
    await killed;
    await new Promise((r) => first.child.once("exit", r));
    expect(acked).toBeGreaterThan(20);
    host.end(true);

    const second = await spawnHub(t.dir, { pin: PIN });
    children.push(second.child);
    const host2 = await connect(second.mqtt, { username: "host", password: PIN });
    const st = (await request(host2, "main", "game.state", undefined, PIN)).r as any;
    expect(st.decisions).toBeGreaterThanOrEqual(acked);
    expect(st.view).toEqual(publicView(stateAfter(game.slice(0, st.decisions))));

    // The game goes on from there.
    const next = await request(host2, "main", "game.decide", { decision: game[st.decisions] }, PIN);
    expect(next).toMatchObject({ ok: true, r: { decisions: st.decisions + 1 } });
    host2.end(true);
    second.child.kill("SIGTERM");
    await new Promise((r) => second.child.once("exit", r));

    const printed = JSON.parse(execFileSync(process.execPath, [CLI, "replay", t.dir], { encoding: "utf8" }));
    expect(printed).toEqual(JSON.parse(JSON.stringify(outcome(stateAfter(game.slice(0, st.decisions + 1))))));
  });
});
