// One way to start a gun whatever runs its firmware: the vm (default), or the real Espruino interpreter.
import type { Gun, GunOptions, GunRuntime } from "./gun.js";
import { findInterpreter } from "./interpreter.js";
import { startRealGun } from "./real-gun.js";
import { createVirtualGun } from "./vm-gun.js";

export async function createGun(o: GunOptions & { runtime?: GunRuntime }): Promise<Gun> {
  if (o.runtime === "espruino") return startRealGun(o);
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
