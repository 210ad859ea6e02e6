// Ops on guns: list, pairing, forgetting, the bridges of guns on a serial or Bluetooth link.
import { ok, type Result, refuse } from "@cng/protocol";
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

/** `{gun, n}`: a gun id and the nonce of its hello (16 hex digits, as the firmware makes it). */
function parseBridge(a: Record<string, unknown>): Result<{ gun: string; n: string }> {
  const g = gunId(a);
  if (!g.ok) return g;
  return typeof a.n === "string" && /^[0-9a-f]{16}$/.test(a.n)
    ? ok({ gun: g.value, n: a.n })
    : badArgs("n must be the nonce of the gun's hello: 16 hex digits");
}

export const gunBridge: Op<"gun.bridge"> = {
  name: "gun.bridge",
  need: "host",
  summary:
    "for the bridge of a paired gun on a serial or Bluetooth link: a login of its own, and the answer to its hello's nonce",
  args: ["gun", "n"],
  parse: parseBridge,
  run(ctx, _c, args) {
    // an external broker checks its own passwords: it knows the gun's key (dynamic security), not a token made here
    if (ctx.guns.mode !== "embedded")
      return refuse("external-broker", "a bridge token logs in on the hub's embedded broker only");
    const token = ctx.secrets.bridgeToken(args.gun);
    const m = ctx.secrets.linkProof(args.gun, args.n);
    if (token === undefined || m === undefined) return refuse("unknown-gun", `${args.gun} is not paired`);
    return ok({ gun: args.gun, token, m });
  },
};
