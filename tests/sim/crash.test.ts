// @heavy: a whole game in real time that must end, decision for decision, as a driven one: it needs the cores
// kill -9 the hub in the middle of a round of a simulated game: restarted on the same data, it resumes, the guns
// and bots reconnect on their own, and the game ends exactly as an uninterrupted game with the same seed does.
// The uninterrupted game plays on driven time (tests/fakes/time.ts: the same people, in a few seconds); the
// killed one in real time, its hub a process of its own.
import type { ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { Fleet } from "../../hub/src/sim/fleet.js";
import { type GameOptions, playGame } from "../../hub/src/sim/game.js";
import { DEFAULT_HUMAN } from "../../hub/src/sim/human.js";
import { cliReplay, gameLog } from "../fakes/clean-game.js";
import { spawnHub, tempDir, testHub } from "../fakes/hub.js";
import { DrivenTime } from "../fakes/time.js";

const PIN = "515151";
const GAME: GameOptions = { edition: "classic", players: 4, seed: 13, speed: "fast" };
// steady people: what they mean is what the sensors see, so two runs make the same decisions
const FLEET = { guns: 4, seed: 13, tempo: 300 / 700, traits: { ...DEFAULT_HUMAN, slowProb: 0, aimErrorDeg: 0.5 } };

describe("the hub killed mid-round", () => {
  const children: ChildProcess[] = [];
  const dirs: { remove: () => void }[] = [];
  afterAll(() => {
    for (const c of children) c.kill("SIGKILL");
    for (const d of dirs) d.remove();
  });

  it("restarts, resumes, and the game ends as an uninterrupted one with the same seed", async () => {
    // the uninterrupted game
    const time = new DrivenTime();
    const hubA = await testHub({ clock: time.clock });
    const connA = { url: hubA.urls.mqtt, table: hubA.table, pin: hubA.pin };
    let fleetA: Fleet | undefined;
    let whole: Awaited<ReturnType<typeof playGame>>;
    try {
      fleetA = await time.run(Fleet.start({ ...connA, ...FLEET, clock: time.clock }), 60_000, "the guns to pair");
      await time.run(fleetA.calibrate(), 60_000, "the calibration");
      whole = await time.run(playGame(connA, fleetA, GAME), 600_000, "the uninterrupted game");
    } finally {
      await fleetA?.stop();
      await hubA.stop();
    }

    // the same game on a hub in its own process, killed during round 3's count
    const t = tempDir("cng-crash-");
    dirs.push(t);
    let hub = await spawnHub(t.dir, { pin: PIN, mqttPort: 0 });
    children.push(hub.child);
    const port = Number(new URL(hub.mqtt).port);
    const conn = { url: hub.mqtt, table: "main", pin: PIN };
    const fleet = await Fleet.start({ ...conn, ...FLEET });
    let killedAt = 0;
    const watch = setInterval(() => {
      const s = fleet.state;
      const a = s?.table?.activity;
      if (killedAt === 0 && s?.game?.round === 3 && a?.kind === "count" && a.goAt !== null) {
        killedAt = s.decisions;
        hub.child.kill("SIGKILL");
        void spawnHub(t.dir, { pin: PIN, mqttPort: port }).then((h) => {
          hub = h;
          children.push(h.child);
        });
      }
    }, 10);
    try {
      await fleet.calibrate();
      const r = await playGame(conn, fleet, GAME);
      expect(killedAt).toBeGreaterThan(0);
      expect(r.result.over).toBe(true);
      expect(r.result).toEqual(whole.result);
      expect(cliReplay(t.dir)).toEqual(r.result);
      // every decision acknowledged before the kill is still in the log, once
      expect(gameLog(t.dir).decisions.length).toBeGreaterThan(killedAt);
    } finally {
      clearInterval(watch);
      await fleet.stop();
      hub.child.kill("SIGKILL");
    }
  }, 180_000);
});
