// Guns on the real Espruino interpreter for the tests: started with the board around them, stopped after each test.
import { afterAll, afterEach, describe, expect } from "vitest";
import { findInterpreter } from "../../hub/src/sim/espruino/interpreter.js";
import { type RealGun, type RealGunOptions, startRealGun } from "../../hub/src/sim/espruino/real-gun.js";
import { sleep, waitFor } from "./hub.js";

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

/** A concurrent test's own end (its context's `onTestFinished`): its guns stop then, not with another test's. */
export type TestEnd = (fn: () => Promise<void>) => void;

/**
 * A gun on the real interpreter, stopped after the test (with `keep`, after the file; in a concurrent test, at that
 * test's end); a missing interpreter fails the test with what to run.
 */
export async function realGun(o: RealGunOptions, keep: boolean | TestEnd = false): Promise<RealGun> {
  const i = await findInterpreter();
  if (!i.path) throw new Error(`${i.why} (npm test runs it for you)`);
  const g = await startRealGun(o);
  if (typeof keep === "function") keep(() => stopAll([g]));
  else (keep ? perFile : perTest).push(g);
  return g;
}

export { sleep, waitFor };

/**
 * The lines a gun has written on its USB port so far, complete ones only: the port delivers in chunks, and a line
 * still arriving would be read half.
 */
export function usbLines(g: { usb: { out: string } }): string[] {
  return g.usb.out.split(/\r?\n/).slice(0, -1);
}

/** How many complete lines of one leaf (`hello`, `aim`, …) the gun has written. */
export const countLines = (g: { usb: { out: string } }, leaf: string) =>
  usbLines(g).filter((l) => l.startsWith(`${leaf} `)).length;

/** The gun's complete lines of one leaf, their JSON parsed. */
export function said(g: { usb: { out: string } }, leaf: string): any[] {
  return usbLines(g)
    .filter((l) => l.startsWith(`${leaf} `))
    .map((l) => JSON.parse(l.slice(leaf.length + 1)));
}

/** Red, and only red (the config error blink). */
export const isRed = (c: number) => c >> 16 > 0 && (c & 0xffff) === 0;

/** What a gun with a bad gun.json does: says why on its console, blinks red, one low beep, throws nothing. */
export function expectRefusedConfig(g: RealGun, config: unknown, why: string): void {
  expect(g.console, JSON.stringify(config)).toContain(`CNG ${why}`);
  expect(g.led.filter((l) => isRed(l.c)).length, why).toBeGreaterThanOrEqual(2);
  expect(
    g.tones.filter((t) => t.f > 0).map((t) => t.f),
    why,
  ).toEqual([300]);
  expect(g.errors, why).toEqual([]);
}

/**
 * Two pulls of the trigger: the four events (press, release, press, release) with consecutive sequence numbers
 * arrive, and the gun clicked locally twice. `trig` is every trigger message seen so far.
 */
export async function pullTwice(gun: RealGun, trig: () => { msg: any }[]): Promise<{ msg: any }[]> {
  const from = trig().length;
  const clicks = gun.tones.filter((t) => t.f === 2400).length;
  for (let i = 0; i < 2; i++) {
    gun.button.press();
    await sleep(150);
    gun.button.release();
    await sleep(500);
  }
  const t = await waitFor(() => (trig().length - from >= 4 ? trig().slice(from) : null), 3000, "4 events");
  expect(t.map((x) => x.msg.k)).toEqual(["p", "r", "p", "r"]);
  const n = t.map((x) => x.msg.n);
  expect(n).toEqual([n[0], n[0] + 1, n[0] + 2, n[0] + 3]);
  expect(gun.tones.filter((x) => x.f === 2400).length - clicks).toBe(2);
  return t;
}
