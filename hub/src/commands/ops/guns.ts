// Ops on guns: list, pairing, forgetting.
import { ok, type Result } from "@cng/protocol";
import { badArgs, gunId, none, seatOrNull } from "../args.js";
import type { Op } from "../types.js";

export const gunsList: Op<"guns.list"> = {
  name: "guns.list",
  need: "anyone",
  summary: "every gun the hub knows: paired ones and pairing requests, with presence, info and warnings",
  args: [],
  parse: none,
  run(ctx) {
    const reg = ctx.guns.registry;
    return ok({ guns: reg.all().map((g) => ({ id: g.id, ...reg.status(g) })) });
  },
};

/** `{gun}`: a gun id. */
function parseGun(a: Record<string, unknown>): Result<{ gun: string }> {
  const g = gunId(a);
  return g.ok ? ok({ gun: g.value }) : g;
}

/** `{gun, seat}`: a gun id and a seat (absent or null: none). */
function parseGunSeat(a: Record<string, unknown>): Result<{ gun: string; seat: number | null }> {
  const g = gunId(a);
  if (!g.ok) return g;
  const s = seatOrNull(a, "seat");
  return s.ok ? ok({ gun: g.value, seat: s.value }) : s;
}

export const pairAccept: Op<"pair.accept"> = {
  name: "pair.accept",
  need: "host",
  summary: "accept a connected gun's pairing request; it gets its secret as a `key` command (embedded broker)",
  args: ["gun", "seat"],
  parse: parseGunSeat,
  run: (ctx, _c, args) => ctx.guns.pair(args.gun, args.seat ?? null),
};

export const pairReject: Op<"pair.reject"> = {
  name: "pair.reject",
  need: "host",
  summary: "refuse a pairing request and close that gun's connection",
  args: ["gun"],
  parse: parseGun,
  async run(ctx, _c, args) {
    const r = await ctx.guns.reject(args.gun);
    return r.ok ? ok({ gun: r.value.gun }) : r;
  },
};

export const gunForget: Op<"gun.forget"> = {
  name: "gun.forget",
  need: "host",
  summary: "delete a paired gun's credentials and disconnect it; it must pair again",
  args: ["gun"],
  parse: parseGun,
  async run(ctx, _c, args) {
    const r = await ctx.guns.forget(args.gun);
    return r.ok ? ok({ gun: r.value.gun }) : r;
  },
};

export const gunSeat: Op<"gun.seat"> = {
  name: "gun.seat",
  need: "host",
  summary: "move a paired gun to another seat (null: none)",
  args: ["gun", "seat"],
  parse: parseGunSeat,
  run: (ctx, _c, args) => ctx.guns.setSeat(args.gun, args.seat),
};

export const pairListen: Op<"pair.listen"> = {
  name: "pair.listen",
  need: "host",
  summary: "pair by pulling: the next gun asking to be paired whose trigger is pulled gets this seat (null: stop)",
  args: ["seat"],
  parse(a) {
    if (!("seat" in a)) return badArgs("seat is a seat number, or null to stop listening");
    const s = seatOrNull(a, "seat");
    return s.ok ? ok({ seat: s.value }) : s;
  },
  run: (ctx, _c, args) => ctx.play.pairListen(args.seat),
};
