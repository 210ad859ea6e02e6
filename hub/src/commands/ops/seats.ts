// Seat tokens: a player's console proves its seat with one.

import type { Seat } from "../../rules/index.js";
import { all, bool, only, seat } from "../args.js";
import type { OpContext } from "../context.js";
import type { Op } from "../types.js";

export const seatToken: Op<{ seat: Seat; renew: boolean }, OpContext> = {
  name: "seat.token",
  need: "host",
  summary: "the console token of a seat (made on first use; `renew: true` replaces it)",
  parse(a) {
    const s = seat(a, "seat");
    const r = bool(a, "renew");
    return only(a, ["seat", "renew"]) ?? all([s, r], () => ({ seat: s.ok ? s.v : 0, renew: r.ok && r.v }));
  },
  run(ctx, _c, args) {
    return { ok: true, r: { seat: args.seat, token: ctx.secrets.seatToken(args.seat, args.renew) } };
  },
};
