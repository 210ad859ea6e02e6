import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

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
    // One file at a time (vitest's default on 2 cores): many files measure real time (guns on the real interpreter,
    // spoken beats, simulated hands), and two at once made them miss by tens of ms (issue 16's closing note).
    maxWorkers: 1,
    // concurrent tests inside a file (guns on the real interpreter, each its own process, mostly waiting) run this
    // many at once
    maxConcurrency: 4,
  },
});
