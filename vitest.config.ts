import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { isRealTime } from "./tests/real-time.js";

/**
 * Real-time files run one at a time (tests/real-time.ts): spread them through the queue, each followed by its share
 * of the other files, so one worker holds the real-time lock while the others work through the rest, instead of
 * several workers queueing at the lock.
 */
class RealTimeSpread extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const real = sorted.filter((f) => isRealTime(f.moduleId));
    const rest = sorted.filter((f) => !isRealTime(f.moduleId));
    const share = Math.ceil(rest.length / Math.max(1, real.length));
    const out: TestSpecification[] = [];
    for (const f of real) out.push(f, ...rest.splice(0, share));
    return [...out, ...rest];
  }
}

export default defineConfig({
  resolve: {
    // Tests run the protocol from source; the hub's compiled build uses shared/protocol/dist.
    alias: { "@cng/protocol": fileURLToPath(new URL("./shared/protocol/src/index.ts", import.meta.url)) },
  },
  test: {
    include: ["tests/**/*.test.ts"],
    setupFiles: ["tests/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // one worker holds the real-time lock, one may wait for it, one runs the other files (niced)
    maxWorkers: 3,
    sequence: { sequencer: RealTimeSpread },
    // concurrent tests (guns on the real interpreter, each its own process, mostly waiting) run this many at once
    maxConcurrency: 4,
  },
});
