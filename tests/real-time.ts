// Two kinds of test file share the machine's two cores. Files that measure real time (guns on the real Espruino
// interpreter, spoken beats in Chromium, simulated hands at 50 Hz, a hub killed mid-count) run one at a time at
// normal priority, holding a lock; every other file runs beside them, niced, so it takes only what they leave. A
// cue 35 ms late on a busy machine would be the test's fault, not the gun's.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { join, relative } from "node:path";

/** the files that measure real time, by path from the project root */
const REAL_TIME: RegExp[] = [
  /^tests\/espruino\/(boot|find|game|hub|memory|mount|mount-hub|ota|puck|serial)\.test\.ts$/,
  /^tests\/web\/(bluetooth|flash|ota|voice)\.test\.ts$/,
  /^tests\/sim\/(crash|faults|fleet|games)\.test\.ts$/,
  /^tests\/play\/restart\.test\.ts$/,
];

const ROOT = new URL("..", import.meta.url).pathname;
const LOCK = join(tmpdir(), "cng-tests-real-time.lock");
const OWNER = join(LOCK, "pid");
/** how long a real-time file may wait for the others (the longest runs take minutes) */
export const LOCK_WAIT_MS = 30 * 60_000;

export function isRealTime(file: string): boolean {
  const rel = relative(ROOT, file).split("\\").join("/");
  return REAL_TIME.some((r) => r.test(rel));
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Waits for the lock; a holder that died (a run killed half-way) frees it. */
export async function holdRealTime(): Promise<void> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(OWNER, String(process.pid));
      process.once("exit", releaseRealTime);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    let pid = Number.NaN;
    try {
      pid = Number(readFileSync(OWNER, "utf8"));
    } catch {
      // just made, its pid not written yet
    }
    if (Number.isInteger(pid) && pid > 0 && !alive(pid)) rmSync(LOCK, { recursive: true, force: true });
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function releaseRealTime(): void {
  try {
    if (Number(readFileSync(OWNER, "utf8")) === process.pid) rmSync(LOCK, { recursive: true, force: true });
  } catch {
    // not ours, or gone
  }
}

/** Everything else yields the CPU to the real-time file (its children, hubs and browsers, inherit this). */
export function yieldToRealTime(): void {
  try {
    setPriority(10);
  } catch {
    // not allowed here: runs at normal priority
  }
}
