// Ops on guns: list, pairing, forgetting.

import type { GunId } from "@cng/protocol";
import type { Seat } from "../../rules/index.js";
import { all, gunId, only, seat } from "../args.js";
import type { OpContext } from "../context.js";
import { fail, type Op } from "../types.js";

export const gunsList: Op<Record<string, never>, OpContext> = {
  name: "guns.list",
  need: "anyone",
  summary: "every gun the hub knows: paired ones and pairing requests, with presence, info and warnings",
  parse: (a) => only(a, []) ?? { ok: true, args: {} },
  run(ctx) {
    const reg = ctx.guns.registry;
    return { ok: true, r: { guns: reg.all().map((g) => ({ id: g.id, ...reg.status(g) })) } };
  },
};

/** `{gun}`: a gun id and nothing else. */
function parseGun(a: Record<string, unknown>) {
  const g = gunId(a);
  return only(a, ["gun"]) ?? all([g], () => ({ gun: g.ok ? g.v : "" }));
}

/** `{gun, seat}`: a gun id and a seat (null: none). */
function parseGunSeat(a: Record<string, unknown>) {
  const bad = only(a, ["gun", "seat"]);
  if (bad) return bad;
  const g = gunId(a);
  const s = seat(a, "seat", true);
  return all([g, s], () => ({ gun: g.ok ? g.v : "", seat: s.ok ? s.v : null }));
}

export const pairAccept: Op<{ gun: GunId; seat: Seat | null }, OpContext> = {
  name: "pair.accept",
  need: "host",
  summary: "accept a connected gun's pairing request; it gets its secret as a `key` command (embedded broker)",
  parse: parseGunSeat,
  async run(ctx, _c, args) {
    const r = await ctx.guns.pair(args.gun, args.seat);
    return r.ok ? { ok: true, r: { gun: r.gun, seat: r.seat } } : fail(r.code, r.msg);
  },
};

export const pairReject: Op<{ gun: GunId }, OpContext> = {
  name: "pair.reject",
  need: "host",
  summary: "refuse a pairing request and close that gun's connection",
  parse: parseGun,
  async run(ctx, _c, args) {
    const r = await ctx.guns.reject(args.gun);
    return r.ok ? { ok: true, r: { gun: r.gun } } : fail(r.code, r.msg);
  },
};

export const gunForget: Op<{ gun: GunId }, OpContext> = {
  name: "gun.forget",
  need: "host",
  summary: "delete a paired gun's credentials and disconnect it; it must pair again",
  parse: parseGun,
  async run(ctx, _c, args) {
    const r = await ctx.guns.forget(args.gun);
    return r.ok ? { ok: true, r: { gun: r.gun } } : fail(r.code, r.msg);
  },
};

export const gunSeat: Op<{ gun: GunId; seat: Seat | null }, OpContext> = {
  name: "gun.seat",
  need: "host",
  summary: "move a paired gun to another seat (null: none)",
  parse: parseGunSeat,
  async run(ctx, _c, args) {
    const r = await ctx.guns.setSeat(args.gun, args.seat);
    return r.ok ? { ok: true, r: { gun: r.gun, seat: r.seat } } : fail(r.code, r.msg);
  },
};

export const pairListen: Op<{ seat: Seat | null }, OpContext> = {
  name: "pair.listen",
  need: "host",
  summary: "pair by pulling: the next gun asking to be paired whose trigger is pulled gets this seat (null: stop)",
  parse(a) {
    const bad = only(a, ["seat"]);
    if (bad) return bad;
    if (!("seat" in a)) return fail("bad-args", "seat is a seat number, or null to stop listening");
    const s = seat(a, "seat", true);
    return all([s], () => ({ seat: s.ok ? s.v : null }));
  },
  run: (ctx, _c, args) => ctx.play.pairListen(args.seat),
};
