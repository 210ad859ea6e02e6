// A gun's battery reading, calibrated once by the host (hub/src/guns/battery.ts).
import { BAT_CAL_V, ok } from "@cng/protocol";
import { badArgs, gunId } from "../args.js";
import type { Op } from "../types.js";

export const gunBattery: Op<"gun.battery"> = {
  name: "gun.battery",
  need: "host",
  summary:
    "calibrate a gun's battery reading: volts (what a multimeter shows on the cell now), or full: true (just off " +
    "the charger); the gun keeps the factor in its gun.json",
  args: ["gun", "volts", "full"],
  parse(a) {
    const g = gunId(a);
    if (!g.ok) return g;
    if (a.full !== undefined && a.full !== true) return badArgs("full is true, or absent");
    if ((a.volts === undefined) === (a.full !== true)) return badArgs("give volts or full: true (not both)");
    if (a.volts === undefined) return ok({ gun: g.value, full: true });
    return typeof a.volts === "number" && a.volts >= BAT_CAL_V[0] && a.volts <= BAT_CAL_V[1]
      ? ok({ gun: g.value, volts: a.volts })
      : badArgs(`volts is what the cell reads now, ${BAT_CAL_V[0]}-${BAT_CAL_V[1]}`);
  },
  run: (ctx, _c, args) => ctx.battery.calibrate(args.gun, "volts" in args ? args.volts : undefined),
};
