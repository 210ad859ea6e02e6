// Seat tokens: a player's console proves its seat with one.
import { ok } from "@cng/protocol";
import { bool, seat } from "../args.js";
import type { Op } from "../types.js";

export const seatToken: Op<"seat.token"> = {
  name: "seat.token",
  need: "host",
  summary:
    "the console token of a seat, for the game's player there (made on first use; `renew: true` replaces it and closes the consoles on the old one)",
  args: ["seat", "renew"],
  parse(a) {
    const s = seat(a, "seat");
    if (!s.ok) return s;
    const r = bool(a, "renew");
    return r.ok ? ok({ seat: s.value, renew: r.value }) : r;
  },
  async run(ctx, _c, args) {
    const player = ctx.game.session.game?.state.names[args.seat] ?? null;
    const { token, replaced } = ctx.secrets.seatToken(args.seat, args.renew === true, player);
    if (replaced) ctx.kickSeats(args.seat);
    // the view is sealed under the new token's key
    await ctx.game.publishViews();
    return ok({ seat: args.seat, token });
  },
};
