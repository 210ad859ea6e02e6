// The real interpreter as a process of this machine: started in a gun's flash folder, first in line for the CPU
// where allowed, and never outliving the harness.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { setPriority } from "node:os";

let setpriv: boolean | undefined;
/** Kill the interpreter with its parent (a crashed test run must not leave guns behind). */
function withParentDeath(bin: string): [string, string[]] {
  setpriv ??= spawnSync("setpriv", ["--help"], { stdio: "ignore" }).status === 0;
  return setpriv ? ["setpriv", ["--pdeathsig", "KILL", "--", bin]] : [bin, []];
}

/**
 * A chip runs its firmware on a core of its own; here the interpreter shares this machine's with the tests, the hub
 * and whatever else runs: it goes first (a gun's IMU loop runs in real time), where allowed (root).
 */
function realTimePriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, -10);
  } catch {
    // not allowed: the gun shares the machine evenly
  }
}

const live = new Set<ChildProcess>();
process.once("exit", () => {
  for (const c of live) c.kill("SIGKILL");
});

/**
 * The interpreter `bin` booting from the flash image in `dir`, its stdin and stdout the board's USB. With `telnet`, its
 * telnet console is on from the start, as on an ESP32 or ESP8266 board, on that port (the Linux build's `--telnet`,
 * the port patched in: firmware/espruino/interpreter.mjs).
 */
export function spawnInterpreter(bin: string, dir: string, telnet?: number): ChildProcess {
  const [cmd, args] = withParentDeath(bin);
  const p = spawn(cmd, telnet ? [...args, "--telnet"] : args, {
    cwd: dir,
    stdio: ["pipe", "pipe", "pipe"],
    env: telnet ? { ...process.env, CNG_TELNET_PORT: String(telnet) } : process.env,
  });
  live.add(p);
  p.on("exit", () => live.delete(p));
  realTimePriority(p.pid);
  p.stderr!.resume();
  p.stdin!.on("error", () => {});
  return p;
}
