// `cng bench firmware`: bundle bytes per board against its budget, and the cost of one IMU sample
// (I2C read + Mahony step) in the virtual board, measured by running the flashed bundle.
import { readFileSync } from "node:fs";
import { boardNames, bundlePathFor, createVirtualGun, loadBoard, projectRoot } from "../sim/espruino/index.js";
import type { Bench, BenchOptions } from "./index.js";

interface Row {
  board: string;
  bytes: number;
  budget: number;
  pct: number;
  /** µs per IMU sample in Node's vm (a board is ~100× slower: Espruino interprets) */
  usPerSample?: number;
  samples?: number;
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
  summary: "bundle bytes per board vs budget, and IMU sample + filter cost in the virtual board",
  async run(opts: BenchOptions) {
    const rows: Row[] = [];
    const sizes = JSON.parse(readFileSync(`${projectRoot}firmware/dist/sizes.json`, "utf8")) as {
      boards: Record<string, { bytes: number; budget: number }>;
    };
    for (const board of boardNames()) {
      const s = sizes.boards[board] ?? { bytes: readFileSync(bundlePathFor(board)).length, budget: 0 };
      const row: Row = { board, bytes: s.bytes, budget: s.budget, pct: Math.round((100 * s.bytes) / s.budget) };
      if (loadBoard(board).imu.kind === "mpu6050") {
        const c = await sampleCost(board, opts.seconds ?? 1);
        row.usPerSample = Math.round(c.us * 10) / 10;
        row.samples = c.samples;
      }
      rows.push(row);
    }
    if (opts.json) {
      console.log(JSON.stringify(rows, null, 2));
      return;
    }
    console.log("board              bytes   budget   used   µs/IMU sample (vm)");
    for (const r of rows) {
      console.log(
        `${r.board.padEnd(18)} ${String(r.bytes).padStart(6)} ${String(r.budget).padStart(8)} ${`${r.pct}%`.padStart(6)}   ${r.usPerSample ?? "-"}`,
      );
    }
  },
};
