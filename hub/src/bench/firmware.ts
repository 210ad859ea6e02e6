// `cng bench firmware`: bundle bytes per board against its budget, the cost of one IMU sample (I2C read + Mahony
// step) in the virtual board, and — when the interpreter is built — JsVars and µs per IMU sample on the real
// Espruino interpreter (firmware-real.ts).
import { readFileSync } from "node:fs";
import {
  boardNames,
  bundlePathFor,
  createVirtualGun,
  findInterpreter,
  loadBoard,
  projectRoot,
} from "../sim/espruino/index.js";
import { measureOnInterpreter, type RealRow } from "./firmware-real.js";
import type { Bench, BenchOptions } from "./index.js";

interface Row {
  board: string;
  bytes: number;
  budget: number;
  pct: number;
  /** µs per IMU sample in Node's vm (a board is ~100× slower: Espruino interprets) */
  usPerSample?: number;
  samples?: number;
  /** on the real interpreter (absent when it is not built) */
  espruino?: RealRow;
}

async function sampleCost(board: string, seconds: number): Promise<{ us: number; samples: number }> {
  const g = createVirtualGun({
    board,
    clock: "manual",
    config: { id: "bench", secret: "x", hub: { host: "127.0.0.1", port: 9 } },
    imu: { motion: (t) => ({ yaw: 30 * Math.sin(t), pitch: 10 * Math.cos(t), roll: 0 }), gyroNoise: 0.05 },
  });
  await g.advance(1000);
  // time the IMU timer alone: run the clock in big steps, no network attached
  const hz = loadBoard(board).imu.hz ?? 50;
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < seconds * 1000) {
    await g.clock.advance(1000, 1000);
    n += hz;
  }
  const us = ((performance.now() - t0) * 1000) / n;
  g.stop();
  return { us, samples: n };
}

export const firmwareBench: Bench = {
  name: "firmware",
  summary:
    "bundle bytes per board vs budget; IMU sample cost in the vm; JsVars and µs per IMU sample on the real interpreter",
  async run(opts: BenchOptions) {
    const rows: Row[] = [];
    const sizes = JSON.parse(readFileSync(`${projectRoot}firmware/dist/sizes.json`, "utf8")) as {
      boards: Record<string, { bytes: number; budget: number }>;
    };
    const interp = await findInterpreter();
    if (!interp.path) process.stderr.write(`note: ${interp.why}; only the vm figures follow\n`);
    for (const board of boardNames()) {
      const s = sizes.boards[board] ?? { bytes: readFileSync(bundlePathFor(board)).length, budget: 0 };
      const row: Row = { board, bytes: s.bytes, budget: s.budget, pct: Math.round((100 * s.bytes) / s.budget) };
      if (loadBoard(board).imu.kind === "mpu6050") {
        const c = await sampleCost(board, opts.seconds ?? 1);
        row.usPerSample = Math.round(c.us * 10) / 10;
        row.samples = c.samples;
      }
      if (interp.path) {
        if (!opts.json) process.stderr.write(`${board}: on the real interpreter…\n`);
        row.espruino = await measureOnInterpreter(board, opts.seconds ?? 3);
      }
      rows.push(row);
    }
    if (opts.json) {
      console.log(JSON.stringify(rows, null, 2));
      return;
    }
    console.log(
      "board              bytes   budget   used   µs/IMU (vm)   Espruino: JsVars boot   peak (50 Hz count)   µs/IMU sample",
    );
    for (const r of rows) {
      const e = r.espruino;
      console.log(
        `${r.board.padEnd(18)} ${String(r.bytes).padStart(6)} ${String(r.budget).padStart(8)} ${`${r.pct}%`.padStart(6)}` +
          `   ${String(r.usPerSample ?? "-").padStart(11)}` +
          (e
            ? `   ${String(e.jsvarsBoot).padStart(21)}   ${String(e.jsvarsPeak).padStart(18)}   ${String(e.usPerSample).padStart(13)}`
            : "   (interpreter not built)"),
      );
    }
    if (rows.some((r) => r.espruino))
      console.log(
        `JsVars: the firmware's own, the simulated board's ${rows.find((r) => r.espruino)!.espruino!.jsvarsBoard} taken out ` +
          "(Espruino 2v29 for Linux counts like a board; an ESP8266 has about 1,600 in all).\n" +
          "µs/IMU sample: interpreter time of the firmware's IMU work per sample (MPU-6050: I2C read + filter; " +
          "BNO085: one RVC frame; Puck.js: one accel event + filter), the register model's own time taken out; relative to this machine.",
      );
  },
};
