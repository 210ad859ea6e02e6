// Guns on the real Espruino interpreter for the tests: started with the board around them, stopped after each test.
import { afterAll, afterEach, describe } from "vitest";
import { findInterpreter } from "../../hub/src/sim/espruino/interpreter.js";
import { type RealGun, type RealGunOptions, startRealGun } from "../../hub/src/sim/espruino/real-gun.js";

/** The interpreter these tests run on (`npm test` builds it: npm run espruino:build). */
export const interpreter = await findInterpreter();
if (!interpreter.path) console.warn(`SKIPPED: the tests on the real Espruino interpreter: ${interpreter.why}`);
/** `describe`, skipped (and saying so) where the interpreter could not be built (no source, no network) */
export const onInterpreter = describe.skipIf(!interpreter.path);

const perTest: RealGun[] = [];
const perFile: RealGun[] = [];

async function stopAll(gs: RealGun[]): Promise<void> {
  for (const g of gs) g.stop();
  await Promise.all(gs.map((g) => g.stopped()));
}
afterEach(() => stopAll(perTest.splice(0)));
afterAll(() => stopAll(perFile.splice(0)));

/**
 * A gun on the real interpreter, stopped after the test (or, with `keep`, after the file); a missing interpreter
 * fails the test with what to run.
 */
export async function realGun(o: RealGunOptions, keep = false): Promise<RealGun> {
  const i = await findInterpreter();
  if (!i.path) throw new Error(`${i.why} (npm test runs it for you)`);
  const g = await startRealGun(o);
  (keep ? perFile : perTest).push(g);
  return g;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `pred` gives a value (checked every 10 ms), or fails after `ms` saying what it waited for. */
export async function until<T>(pred: () => T | undefined | false | null, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = pred();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Red, and only red (the config error blink). */
export const isRed = (c: number) => c >> 16 > 0 && (c & 0xffff) === 0;
