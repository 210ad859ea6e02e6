import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Where a test file runs follows from its first line:
 * - `// @real-time: why`: it measures real time (a browser, spoken beats, simulated hands, guns in the vm). Its time
 *   bounds hold on a busy 2-core machine, so it runs beside the others; such files mostly wait on real time, so they
 *   start first, and their waiting overlaps the others' work.
 * - `// @heavy: why`: it needs the machine in real time (guns on the real Espruino interpreter, a whole real-time game
 *   that must play out as a driven one): these run last, when the others' work no longer competes, four files at a
 *   time (HEAVY_WORKERS), each running its own guns side by side where it can.
 * - `// @alone: why`: heavy, and what it measures crosses processes nothing boosts (a browser between the hub and a
 *   gun): it runs after the heavy files, by itself.
 * - anything else (pure logic, the hub over MQTT on its own or on driven time): beside the others.
 */
const ROOT = fileURLToPath(new URL(".", import.meta.url));
const TESTS = (readdirSync(`${ROOT}tests`, { recursive: true }) as string[])
  .filter((f) => f.endsWith(".test.ts"))
  .map((f) => `tests/${f.split("\\").join("/")}`);
const firstLine = (f: string) => readFileSync(ROOT + f, "utf8").split("\n", 1)[0]!;
const REAL_TIME = TESTS.filter((f) => firstLine(f).startsWith("// @real-time:"));
const HEAVY = TESTS.filter((f) => firstLine(f).startsWith("// @heavy:"));
const ALONE = TESTS.filter((f) => firstLine(f).startsWith("// @alone:"));
/** files running at once (each in its own process); CNG_TEST_WORKERS overrides it */
const WORKERS = Number(process.env.CNG_TEST_WORKERS) || 3;
/**
 * heavy files running at once: a gun on the interpreter takes about a tenth of a core in a game (it sleeps between
 * polls of its sockets: firmware/espruino/interpreter.mjs), its hub and broker more; their files mostly wait on the
 * guns' own periods
 */
const HEAVY_WORKERS = 4;

/** vitest's order (the longest first, once it has timed them), the real-time files ahead of the others */
class RealTimeFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (s: TestSpecification) =>
      s.project.config.sequence.groupOrder * 2 + (s.project.name === "real-time" ? 0 : 1);
    return sorted
      .map((s, i) => ({ s, i }))
      .sort((a, b) => rank(a.s) - rank(b.s) || a.i - b.i)
      .map((x) => x.s);
  }
}

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
    sequence: { sequencer: RealTimeFirst },
    projects: [
      {
        extends: true,
        test: {
          name: "logic",
          include: TESTS,
          exclude: [...REAL_TIME, ...HEAVY, ...ALONE],
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: "real-time", include: REAL_TIME, maxWorkers: WORKERS, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: "heavy", include: HEAVY, maxWorkers: HEAVY_WORKERS, sequence: { groupOrder: 1 } },
      },
      { extends: true, test: { name: "alone", include: ALONE, maxWorkers: 1, sequence: { groupOrder: 2 } } },
    ],
  },
});
