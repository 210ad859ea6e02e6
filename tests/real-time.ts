// Two kinds of test file share the machine's two cores. Files that measure real time (guns on the real Espruino
// interpreter, spoken beats in Chromium, simulated hands at 50 Hz, a hub killed mid-count) hold the real-time slots
// while they run, at normal priority: one slot for a file that runs one gun process at a time, both for one that
// runs several at once or a browser. Every other file runs beside them, niced, so it takes only what they leave. A
// cue 35 ms late on a busy machine would be the test's fault, not the gun's.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { join, relative } from "node:path";

type Slots = 1 | 2;

/** the files that measure real time, by path from the project root, and the slots each needs */
const REAL_TIME: [RegExp, Slots][] = [
  [/^tests\/espruino\/(boot|find|memory|ota|puck|serial)\.test\.ts$/, 1],
  [/^tests\/espruino\/(game|hub|mount|mount-hub)\.test\.ts$/, 2],
  [/^tests\/web\/ota\.test\.ts$/, 1],
  [/^tests\/web\/(bluetooth|dashboard|flash|voice)\.test\.ts$/, 2],
  [/^tests\/sim\/fleet\.test\.ts$/, 1],
  [/^tests\/sim\/(crash|faults|games)\.test\.ts$/, 2],
  [/^tests\/play\/restart\.test\.ts$/, 1],
];

const ROOT = new URL("..", import.meta.url).pathname;
const SLOTS = ["a", "b"].map((n) => join(tmpdir(), `cng-tests-real-time-${n}.lock`));
/** how long a real-time file may wait for the others (the longest runs take minutes) */
export const LOCK_WAIT_MS = 30 * 60_000;

/** The slots a test file needs: 0 for a file that measures no real time. */
export function realTimeSlots(file: string): 0 | Slots {
  const rel = relative(ROOT, file).split("\\").join("/");
  return REAL_TIME.find(([r]) => r.test(rel))?.[1] ?? 0;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Takes one slot if it is free; a holder that died (a run killed half-way) frees it. */
function take(slot: string): boolean {
  try {
    mkdirSync(slot);
    writeFileSync(join(slot, "pid"), String(process.pid));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  let pid = Number.NaN;
  try {
    pid = Number(readFileSync(join(slot, "pid"), "utf8"));
  } catch {
    // just made, its pid not written yet
  }
  if (Number.isInteger(pid) && pid > 0 && !alive(pid)) rmSync(slot, { recursive: true, force: true });
  return false;
}

const held: string[] = [];

/** Waits for `n` slots: both are always taken in the same order, so two files never hold one each and wait. */
export async function holdRealTime(n: Slots): Promise<void> {
  process.once("exit", releaseRealTime);
  for (;;) {
    if (n === 2) {
      if (held.length === 0 && take(SLOTS[0]!)) held.push(SLOTS[0]!);
      if (held.length === 1 && take(SLOTS[1]!)) held.push(SLOTS[1]!);
      if (held.length === 2) return;
    } else {
      const got = SLOTS.find((s) => take(s));
      if (got) {
        held.push(got);
        return;
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function releaseRealTime(): void {
  for (const slot of held.splice(0)) rmSync(slot, { recursive: true, force: true });
}

/** Everything else yields the CPU to the real-time file (its children, hubs and browsers, inherit this). */
export function yieldToRealTime(): void {
  try {
    setPriority(19);
  } catch {
    // not allowed here: runs at normal priority
  }
}
