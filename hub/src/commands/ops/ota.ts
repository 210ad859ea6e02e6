// Firmware updates over the air (hub/src/guns/ota.ts): start them; progress rides in each gun's status.

import { fwOlder, type GunId, isName, type OpArgs, type OpResult, ok, type Result, refuse } from "@cng/protocol";
import type { OtaBundle } from "../../guns/ota.js";
import { badArgs, bool } from "../args.js";
import type { Op } from "../types.js";

const isGunList = (g: unknown): g is GunId[] => Array.isArray(g) && g.length > 0 && g.length <= 64 && g.every(isName);

function parseUpdate(a: Record<string, unknown>): Result<OpArgs<"guns.update">> {
  const guns = a.guns;
  if (guns !== "all" && !isGunList(guns)) return badArgs('guns must be "all" or a list of gun ids');
  const b = a.board;
  if (b !== undefined && b !== null && (typeof b !== "string" || !/^[a-z0-9-]{1,32}$/.test(b)))
    return badArgs("board must be a board profile name");
  const force = bool(a, "force");
  if (!force.ok) return force;
  return ok({ guns, board: b ?? null, force: force.value });
}

export const gunsUpdate: Op<"guns.update"> = {
  name: "guns.update",
  need: "host",
  summary:
    "send the hub's firmware build to paired guns over the air (never during a game; `force`: also a version the gun already runs, or an older one); each gun's status carries `ota` progress",
  args: ["guns", "board", "force"],
  parse: parseUpdate,
  run(ctx, _c, args) {
    const st = ctx.game.session.game?.state;
    if (st && !st.over) return refuse("game-running", "a game is running: update the guns once it is over");
    const reg = ctx.guns.registry;
    const ids =
      args.guns === "all"
        ? reg
            .all()
            .filter((g) => g.paired)
            .map((g) => g.id)
        : args.guns;
    const { started, refused }: OpResult<"guns.update"> = { started: [], refused: [] };
    for (const id of ids) {
      const g = reg.get(id);
      if (!g?.paired) {
        refused.push({ gun: id, why: `${id} is not paired` });
        continue;
      }
      const board = g.info?.b;
      if (!board) {
        refused.push({ gun: id, why: `${id} has not said which board it is yet (offline?)` });
        continue;
      }
      if (args.board && board !== args.board) continue;
      const b: OtaBundle | string = ctx.otaBundle(board);
      if (typeof b === "string") {
        refused.push({ gun: id, why: b });
        continue;
      }
      if (!args.force && g.info?.fw === b.fw) {
        refused.push({ gun: id, why: `${id} already runs ${b.fw} (force: true sends it again)` });
        continue;
      }
      // the gun refuses an older version unless forced too: say so before sending anything
      if (!args.force && g.info?.fw && fwOlder(b.fw, g.info.fw)) {
        refused.push({ gun: id, why: `${id} runs ${g.info.fw}, newer than ${b.fw} (force: true goes back)` });
        continue;
      }
      const why = ctx.ota.problem(id, b);
      if (why) {
        refused.push({ gun: id, why });
        continue;
      }
      started.push({ gun: id, board, fw: b.fw, from: g.info?.fw ?? null });
      void ctx.ota.update(id, b, true, args.force);
    }
    if (started.length === 0 && refused.length === 0) {
      return refuse("no-guns", args.board ? `no paired gun is a ${args.board}` : "no paired gun to update");
    }
    return ok({ started, refused });
  },
};
