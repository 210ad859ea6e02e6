// Every op the hub answers, by name.
import type { OpContext } from "./context.js";
import { gameDecide, gameNew, gameState } from "./ops/game.js";
import { gunForget, gunsList, pairAccept, pairReject } from "./ops/guns.js";
import { seatToken } from "./ops/seats.js";
import type { Op } from "./types.js";

// each op has its own argument type
export type AnyOp = Op<any, OpContext>;

export const OPS: AnyOp[] = [gunsList, pairAccept, pairReject, gunForget, seatToken, gameNew, gameDecide, gameState];

export function findOp(name: string): AnyOp | undefined {
  return OPS.find((o) => o.name === name);
}
