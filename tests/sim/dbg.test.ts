import { it } from "vitest";
import { runDemo } from "../../hub/src/sim/demo.js";
import { tempDir } from "../hub/helpers.js";
import { gameLog, wrongTargets } from "./helpers.js";
it("dbg", async () => {
  const t = tempDir("cng-sim-");
  const r = await runDemo({ edition: "second", players: 5, seed: 22, speed: "fast", hub: { mqttPort: 0, httpPort: 0, bind: "127.0.0.1", data: t.dir },
    trace: (l) => { if (l.includes("privilege") || l.includes("reaim")) console.log(l); } });
  const log = gameLog(t.dir);
  console.log(wrongTargets(log.aims, r.players));
  console.log(JSON.stringify(log.aims.filter((a) => a.seat === 4 || a.step === "reaim")));
  console.log(JSON.stringify(r.players[4]!.intents));
  console.log(JSON.stringify(log.decisions.filter((d) => d.type === "privilege")));
}, 120000);
