// @real-time: experiment
import { it } from "vitest";
import { gameLog, wrongTargets } from "../hub/src/bench/verdicts.js";
import { runDemo } from "../hub/src/sim/demo.js";
import { tempDir } from "./hub/helpers.js";
it("exp", async () => {
  for (let k = 0; k < 3; k++) {
    const t = tempDir("cng-exp-");
    const r = await runDemo({ edition: "second", players: 5, seed: 22, speed: "fast", hub: { mqttPort: 0, httpPort: 0, bind: "127.0.0.1", data: t.dir } });
    const log = gameLog(t.dir);
    const w = wrongTargets(log.aims, r.players);
    console.log("RUN", k, "wrong", JSON.stringify(w));
    for (const line of w) {
      const m = /round (\d+): seat (\d+)/.exec(line)!;
      const round = Number(m[1]), seat = Number(m[2]);
      console.log("  intents", JSON.stringify(r.players[seat]!.intents.filter((i) => i.round === round)));
      console.log("  aims", JSON.stringify(log.aims.filter((a) => a.round === round && a.seat === seat)));
    }
    t.remove();
  }
}, 600_000);
