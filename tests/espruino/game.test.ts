// @heavy: guns on the real Espruino interpreter, in real time
// A whole game with every gun on the real Espruino interpreter — one process per gun, all four board profiles (the
// Puck.js on its Bluetooth link through the serial bridge the simulator runs for it) —
// over the real hub and broker, with bot players: it ends, and its log replays through the rules engine to the
// same result (`cng replay`, in the shape of `cng rules play`), and the sensors never name a wrong target.
import { expect, it } from "vitest";
import { runDemo } from "../../hub/src/bench/demo-game.js";
import { expectCleanGame } from "../fakes/clean-game.js";
import { tempDir } from "../fakes/hub.js";
import { interpreter } from "../fakes/real-gun.js";

const BOARDS = "esp32-mpu6050,esp8266-mpu6050,esp32-bno085,puckjs";

it.skipIf(!interpreter.path)(
  "plays a whole classic game with every gun on the real interpreter, and it replays to the same result",
  async () => {
    const t = tempDir("cng-espruino-game-");
    try {
      const r = await runDemo({
        edition: "classic",
        // one gun per board
        players: 4,
        seed: 12,
        speed: "fast",
        board: BOARDS,
        runtime: "espruino",
        hub: { mqttPort: 0, httpPort: 0, bind: "127.0.0.1", data: t.dir },
      });
      expect(r.guns.map((g) => g.runtime)).toEqual(Array(4).fill("espruino"));
      expect(new Set(r.guns.map((g) => g.board))).toEqual(new Set(BOARDS.split(",")));
      expectCleanGame(t.dir, r);
    } finally {
      t.remove();
    }
  },
  180_000,
);
