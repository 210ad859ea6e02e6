// One way to start a gun whatever runs its firmware: the vm (default), or the real Espruino interpreter.
import type { Clock } from "../../table/clock.js";
import type { Gun, GunOptions, GunRuntime } from "./gun.js";
import { findInterpreter } from "./interpreter.js";
import { startRealGun } from "./real-gun.js";
import { createVirtualGun } from "./vm-gun.js";

/** `clock`: a clock shared with the hub and the bots (driven time); the real interpreter keeps real time. */
export async function createGun(o: GunOptions & { runtime?: GunRuntime; clock?: Clock }): Promise<Gun> {
  if (o.runtime === "espruino") {
    if (o.clock) throw new Error("a gun on the real interpreter keeps real time: it cannot run on a shared clock");
    return startRealGun(o);
  }
  return createVirtualGun(o);
}

/**
 * The runtime to use when the user asked for `want`: "espruino" falls back to the vm when the interpreter is
 * missing, and `note` says so.
 */
export async function chooseRuntime(want: GunRuntime | undefined): Promise<{ runtime: GunRuntime; note?: string }> {
  if (want !== "espruino") return { runtime: "vm" };
  const i = await findInterpreter();
  if (i.path) return { runtime: "espruino" };
  return { runtime: "vm", note: `${i.why}; the virtual guns run in Node's vm instead` };
}
