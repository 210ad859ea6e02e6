// Whole games on simulated guns running the real firmware, over the real broker, with bot players: every game
// ends, its log replays through `cng replay` to the same result, and the sensors never name a wrong target.
import { describe, expect, it } from "vitest";
import { type DemoOptions, runDemo } from "../../hub/src/sim/demo.js";
import { tempDir } from "../hub/helpers.js";
import { cliReplay, gameLog, wrongTargets } from "./helpers.js";

const MATRIX: (Pick<DemoOptions, "edition" | "players" | "powers" | "cop" | "secrets" | "recentre"> & {
  name: string;
})[] = [
  { name: "classic, 4 players, cards in hand (reveal windows)", edition: "classic", players: 4, secrets: "physical" },
  { name: "classic, 6 players, Super Powers and the cop", edition: "classic", players: 6, powers: true, cop: true },
  { name: "second edition, 5 players", edition: "second", players: 5 },
  { name: "second edition, 8 players, re-centre pose each round", edition: "second", players: 8, recentre: "pose" },
];

// each game has its own hub, broker and guns, and mostly waits on its table's clock: the two classic ones play side
// by side. The second-edition ones play one after the other (a suite that is not concurrent runs after the concurrent
// one): beside other games, the 8-player game with the re-centre pose had the table read a neighbour in its last
// round (three times, round 8; see issue 16's closing note)
for (const [k, block] of [[0, 1], [2], [3]].entries())
  (k === 0 ? describe.concurrent : describe)(
    `full games with simulated guns and bots (${block.map((i) => i + 1).join(", ")})`,
    () => {
      for (const i of block) {
        const m = MATRIX[i]!;
        it(`${m.name}: completes, replays to the same result, never a wrong target`, async () => {
          const t = tempDir("cng-sim-");
          try {
            const r = await runDemo({
              ...m,
              seed: 20 + i,
              speed: "fast",
              hub: { mqttPort: 0, httpPort: 0, bind: "127.0.0.1", data: t.dir },
            });
            expect(r.result.over).toBe(true);
            expect(r.result.winners.length).toBeGreaterThan(0);
            expect(cliReplay(t.dir)).toEqual(r.result);
            const log = gameLog(t.dir);
            // the guns did the aiming: most aims name a player
            expect(log.aims.filter((a) => a.target !== null).length).toBeGreaterThan(log.aims.length / 2);
            expect(wrongTargets(log.aims, r.players)).toEqual([]);
            if (m.secrets === "physical")
              expect(r.players.some((p) => p.intents.some((x) => x.kind === "pull"))).toBe(true);
            if (m.edition === "second") expect(log.decisions.some((d) => d.type === "pick")).toBe(true);
            if (m.recentre === "pose") {
              // every round began with the pose, and the bots made it (pointing at that round's Godfather)
              const rounds = r.rounds;
              const posed = log.records.filter((x) => x.kind === "recentred").map((x) => x.round);
              expect(posed).toEqual(Array.from({ length: rounds }, (_, i) => i + 1));
              const made = new Set(
                r.players.flatMap((p) => p.intents.filter((x) => x.kind === "recentre").map((x) => x.round)),
              );
              expect(made.size).toBe(rounds);
            } else expect(log.records.some((x) => x.kind === "recentred")).toBe(false);
          } finally {
            t.remove();
          }
        }, 120_000);
      }
    },
  );
