import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { realTimeSlots } from "./tests/real-time.js";

/**
 * Real-time files share two slots (tests/real-time.ts): spread them through the queue, each followed by its share of
 * the other files, so the slots stay busy while the other workers go through the rest, instead of every worker
 * queueing for a slot.
 */
class RealTimeSpread extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const real = sorted.filter((f) => realTimeSlots(f.moduleId) > 0);
    const rest = sorted.filter((f) => !realTimeSlots(f.moduleId) > 0);
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
    // real-time files in one or two workers (their slots), the other files (niced) in the rest
    maxWorkers: 3,
    sequence: { sequencer: RealTimeSpread },
    // concurrent tests (guns on the real interpreter, each its own process, mostly waiting) run this many at once
    maxConcurrency: 4,
  },
});
