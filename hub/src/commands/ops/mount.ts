// The IMU mounting step of the calibration wizard (hub/src/guns/mount.ts).
import { isOneOf, MOUNT_POSES, mountAxes, ok, refuse } from "@cng/protocol";
import { badArgs, gunId } from "../args.js";
import type { Op } from "../types.js";

export const calibrateMount: Op<"calibrate.mount"> = {
  name: "calibrate.mount",
  need: "host",
  summary:
    "find how a gun's IMU sits in it: pose level (level, pointing forward), then pose up (pointing straight up) " +
    "stores the mounting in the gun; or set one: mount",
  args: ["gun", "pose", "mount"],
  parse(a) {
    const g = gunId(a);
    if (!g.ok) return g;
    if ((a.pose === undefined) === (a.mount === undefined)) return badArgs("give pose or mount (not both)");
    if (a.pose !== undefined) {
      return isOneOf(MOUNT_POSES, a.pose) ? ok({ gun: g.value, pose: a.pose }) : badArgs("pose is level, up or cancel");
    }
    return typeof a.mount === "string" && mountAxes(a.mount)
      ? ok({ gun: g.value, mount: a.mount })
      : badArgs("mount is the chip axis forward then the chip axis up, e.g. +x+z or -y+x");
  },
  async run(ctx, _c, args) {
    const pose = "pose" in args ? args.pose : null;
    // a new mounting starts the gun's filter again at yaw 0: not in the middle of a game
    const st = ctx.game.session.game?.state;
    if (st && !st.over && pose !== "cancel") {
      return refuse("game-running", "a game is running: change a gun's mounting once it is over");
    }
    const r = "mount" in args ? await ctx.mount.set(args.gun, args.mount) : await ctx.mount.step(args.gun, args.pose);
    if (!r.ok) return r;
    const step = r.value;
    // the gun's yaw offset was learned with the old mounting: it goes, and the seat is calibrated again
    const changed = step.pose === "set" || (step.pose === "up" && step.mount !== step.was);
    const forgot = changed ? await ctx.play.forgetCalibration(args.gun) : false;
    return ok({ ...step, calibration: forgot ? "forgotten: calibrate this seat again" : null });
  },
};
