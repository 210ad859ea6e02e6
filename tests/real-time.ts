// Two kinds of test file share the machine's two cores. Files that measure real time (guns on the real Espruino
// interpreter, spoken beats in Chromium, simulated hands at 50 Hz, a hub killed mid-count) hold the real-time slots
// while they run, at normal priority: one slot for a file that runs one gun process at a time, both for one that
// runs several at once or a browser. Every other file runs beside them, niced, so it takes only what they leave. The
// few whose limits are tightest (a cue within 35 ms of the hub's time, a spoken word within 30 ms of the beat, a
// round played through the dashboard's clicks, bots whose hands are timed at 50 Hz) run alone: no other file starts
// until they are done, and they start once the machine is quiet. A late cue on a busy machine would be the test's
// fault, not the gun's.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { join, relative } from "node:path";

/** 1 or 2 real-time slots, or 3: both, and no other file running */
type Slots = 1 | 2 | 3;

/** the files that measure real time, by path from the project root, and the slots each needs */
const REAL_TIME: [RegExp, Slots][] = [
  [/^tests\/espruino\/(boot|find|memory|ota|puck|serial)\.test\.ts$/, 1],
  [/^tests\/espruino\/(game|mount|mount-hub)\.test\.ts$/, 2],
  [/^tests\/espruino\/hub\.test\.ts$/, 3],
  [/^tests\/web\/ota\.test\.ts$/, 1],
  [/^tests\/firmware\/(fusion|gun-behaviour|gun-e2e|mqtt-client|serial-link)\.test\.ts$/, 1],
  [/^tests\/web\/(bluetooth|flash)\.test\.ts$/, 2],
  [/^tests\/web\/(dashboard|voice)\.test\.ts$/, 3],
  [/^tests\/sim\/fleet\.test\.ts$/, 1],
  [/^tests\/sim\/(crash|faults|games)\.test\.ts$/, 3],
  [/^tests\/play\/restart\.test\.ts$/, 1],
];

const ROOT = new URL("..", import.meta.url).pathname;
const SLOTS = ["a", "b"].map((n) => join(tmpdir(), `cng-tests-real-time-${n}.lock`));
/** held by a file that runs alone (it holds both slots too) */
const ALONE = join(tmpdir(), "cng-tests-alone.lock");
/** one empty file per other file running (named by its pid) */
const OTHERS = join(tmpdir(), "cng-tests-others");
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

const pause = () => new Promise((r) => setTimeout(r, 100));

/**
 * Waits for `n` slots: both are always taken in the same order, so two files never hold one each and wait. A file
 * that runs alone then waits for the other files under way to end (none starts meanwhile).
 */
export async function holdRealTime(n: Slots): Promise<void> {
  process.once("exit", releaseRealTime);
  if (n === 3) {
    await holdRealTime(2);
    while (!take(ALONE)) await pause();
    held.push(ALONE);
    while (othersRunning()) await pause();
    await quietMachine();
    return;
  }
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
    await pause();
  }
}

export function releaseRealTime(): void {
  for (const slot of held.splice(0).reverse()) rmSync(slot, { recursive: true, force: true });
}

/** CPU time (idle, total) from /proc/stat, or null off Linux. */
function cpuTimes(): [number, number] | null {
  try {
    const f = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    return [f[3]! + (f[4] ?? 0), f.reduce((a, b) => a + b, 0)];
  } catch {
    return null;
  }
}

/** Waits (10 s at most) for what the files before left behind (browsers, hubs, interpreters closing) to settle. */
async function quietMachine(): Promise<void> {
  const end = Date.now() + 10_000;
  while (Date.now() < end) {
    const a = cpuTimes();
    await new Promise((r) => setTimeout(r, 300));
    const b = cpuTimes();
    if (!a || !b || b[1] === a[1] || (b[0] - a[0]) / (b[1] - a[1]) >= 0.85) return;
  }
}

/** A file runs alone: its lock is held by a live process. */
function aloneNow(): boolean {
  try {
    const pid = Number(readFileSync(join(ALONE, "pid"), "utf8"));
    if (Number.isInteger(pid) && pid > 0 && !alive(pid)) rmSync(ALONE, { recursive: true, force: true });
    else return true;
  } catch {
    // no such lock, or just made: a made one is seen on the next look
  }
  return false;
}

function othersRunning(): boolean {
  let pids: string[] = [];
  try {
    pids = readdirSync(OTHERS);
  } catch {
    return false;
  }
  return pids.some((p) => {
    if (alive(Number(p))) return true;
    rmSync(join(OTHERS, p), { force: true });
    return false;
  });
}

const mine = join(OTHERS, String(process.pid));

/**
 * Any other file: starts once no file runs alone, and yields the CPU to the real-time files (its children, hubs and
 * browsers, inherit the priority).
 */
export async function besideRealTime(): Promise<void> {
  mkdirSync(OTHERS, { recursive: true });
  const aloneHeld = () => aloneNow() || existsSync(ALONE);
  for (;;) {
    if (!aloneHeld()) {
      // registered first, then checked again: a file that starts to run alone either sees this one and waits for
      // it, or this one sees it and waits
      writeFileSync(mine, "");
      if (!aloneHeld()) break;
      rmSync(mine, { force: true });
    }
    await pause();
  }
  process.once("exit", leaveOthers);
  try {
    setPriority(19);
  } catch {
    // not allowed here: runs at normal priority
  }
}

export function leaveOthers(): void {
  rmSync(mine, { force: true });
}
