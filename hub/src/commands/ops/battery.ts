// A gun's battery reading, calibrated once by the host (hub/src/guns/battery.ts).

import type { GunId } from "@cng/protocol";
import { BAT_CAL_V } from "@cng/protocol";
import { gunId, only } from "../args.js";
import type { OpContext } from "../context.js";
import { fail, type Op } from "../types.js";

export const gunBattery: Op<{ gun: GunId; volts?: number }, OpContext> = {
  name: "gun.battery",
  need: "host",
  summary:
    "calibrate a gun's battery reading: volts (what a multimeter shows on the cell now), or full: true (just off " +
    "the charger); the gun keeps the factor in its gun.json",
  parse(a) {
    const bad = only(a, ["gun", "volts", "full"]);
    if (bad) return bad;
    const g = gunId(a);
    if (!g.ok) return g;
    if ((a.volts === undefined) === (a.full !== true)) return fail("bad-args", "give volts or full: true (not both)");
    if (a.volts !== undefined && !(typeof a.volts === "number" && a.volts >= BAT_CAL_V[0] && a.volts <= BAT_CAL_V[1]))
      return fail("bad-args", `volts is what the cell reads now, ${BAT_CAL_V[0]}-${BAT_CAL_V[1]}`);
    return { ok: true, args: { gun: g.v, volts: a.volts as number | undefined } };
  },
  async run(ctx, _c, args) {
    const r = await ctx.battery.calibrate(args.gun, args.volts);
    if (!r.ok) return fail(r.code, r.msg);
    const { ok: _ok, ...rest } = r;
    return { ok: true, r: rest };
  },
};
