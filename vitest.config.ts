import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * A test file that measures real time (guns on the real interpreter, a browser, spoken beats, simulated hands, cues
 * within 35 ms) says so on its first line, `// @real-time: why`. Those run after the others, one at a time: two at
 * once on 2 cores made them miss by tens of ms. Every other file (pure logic, the hub over MQTT on its own or on
 * driven time, waits whose every bound is generous) runs first, two at a time.
 */
const ROOT = fileURLToPath(new URL(".", import.meta.url));
const TESTS = (readdirSync(`${ROOT}tests`, { recursive: true }) as string[])
  .filter((f) => f.endsWith(".test.ts"))
  .map((f) => `tests/${f.split("\\").join("/")}`);
const REAL_TIME = TESTS.filter((f) => readFileSync(ROOT + f, "utf8").startsWith("// @real-time:"));

export default defineConfig({
  resolve: {
    // Tests run the protocol from source; the hub's compiled build uses shared/protocol/dist.
    alias: { "@cng/protocol": fileURLToPath(new URL("./shared/protocol/src/index.ts", import.meta.url)) },
  },
  test: {
    setupFiles: ["tests/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // concurrent tests inside a file (guns on the real interpreter, each its own process, mostly waiting) run this
    // many at once
    maxConcurrency: 4,
    // a poll waits on a real round trip (a browser, a broker, a hub); under load one can pass vitest's default 1 s
    expect: { poll: { timeout: 5_000 } },
    projects: [
      {
        extends: true,
        test: { name: "logic", include: TESTS, exclude: REAL_TIME, maxWorkers: 2, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: "real-time", include: REAL_TIME, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
