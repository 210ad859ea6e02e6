// The IMU mounting step of the calibration wizard (hub/src/guns/mount.ts).

import type { GunId } from "@cng/protocol";
import { mountAxes } from "@cng/protocol";
import type { MountPose } from "../../guns/mount.js";
import { gunId, only } from "../args.js";
import type { OpContext } from "../context.js";
import { fail, type Op } from "../types.js";

export const calibrateMount: Op<{ gun: GunId; pose?: MountPose; mount?: string }, OpContext> = {
  name: "calibrate.mount",
  need: "host",
  summary:
    "find how a gun's IMU sits in it: pose level (level, pointing forward), then pose up (pointing straight up) " +
    "stores the mounting in the gun; or set one: mount",
  parse(a) {
    const bad = only(a, ["gun", "pose", "mount"]);
    if (bad) return bad;
    const g = gunId(a);
    if (!g.ok) return g;
    if ((a.pose === undefined) === (a.mount === undefined)) return fail("bad-args", "give pose or mount (not both)");
    if (a.pose !== undefined && a.pose !== "level" && a.pose !== "up" && a.pose !== "cancel")
      return fail("bad-args", "pose is level, up or cancel");
    if (a.mount !== undefined && !mountAxes(a.mount))
      return fail("bad-args", "mount is the chip axis forward then the chip axis up, e.g. +x+z or -y+x");
    return {
      ok: true,
      args: { gun: g.v, pose: a.pose as MountPose | undefined, mount: a.mount as string | undefined },
    };
  },
  async run(ctx, _c, args) {
    // a new mounting starts the gun's filter again at yaw 0: not in the middle of a game
    const st = ctx.game.session.game?.state as { over?: boolean } | undefined;
    if (st && !st.over && args.pose !== "cancel") {
      return fail("game-running", "a game is running: change a gun's mounting once it is over");
    }
    const r = args.mount ? await ctx.mount.set(args.gun, args.mount) : await ctx.mount.step(args.gun, args.pose!);
    if (!r.ok) return fail(r.code, r.msg);
    const { ok: _ok, ...rest } = r;
    // the gun's yaw offset was learned with the old mounting: it goes, and the seat is calibrated again
    const changed = r.pose === "set" || (r.pose === "up" && r.mount !== r.was);
    const forgot = changed ? await ctx.play.forgetCalibration(args.gun) : false;
    return { ok: true, r: { ...rest, calibration: forgot ? "forgotten: calibrate this seat again" : null } };
  },
};
