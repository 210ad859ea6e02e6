// Table ops: physical play run by the real-time Godfather (hub/src/play). See the README's "Table ops".

import { isOneOf, POWERS, TABLE_LANGS } from "@cng/protocol";
import type { Bullet, Decision, PowerId, Seat } from "../../rules/index.js";
import { isLang, type Lang } from "../../store/settings.js";
import { all, only, seat } from "../args.js";
import type { OpContext } from "../context.js";
import { type Caller, callerName, fail, type Op, type OpError } from "../types.js";

const BULLETS: readonly string[] = ["bbb", "bang", "click"];
const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === "object" && !Array.isArray(x);

/** The seat a player op acts for: a seat token's own, or the one the host names. */
function actingSeat(caller: Caller, named: number | null): { ok: true; seat: Seat } | ({ ok: false } & OpError) {
  if (caller.role === "seat") {
    if (named !== null && named !== caller.seat)
      return fail("forbidden", `seat ${caller.seat} may only act for itself`);
    return { ok: true, seat: caller.seat };
  }
  if (named === null) return fail("bad-args", "the host names the seat");
  return { ok: true, seat: named };
}

export const roundStart: Op<Record<string, never>, OpContext> = {
  name: "round.start",
  need: "host",
  summary: "start this round's hold-up (the 1-2-3 count)",
  parse: (a) => only(a, []) ?? { ok: true, args: {} },
  run: (ctx) => ctx.play.roundStart(),
};

export const secretBullet: Op<{ card: Bullet; gun: 2 | undefined; seat: Seat | null }, OpContext> = {
  name: "secret.bullet",
  need: "player",
  summary: "a console player's secret card for this round",
  parse(a) {
    const bad = only(a, ["card", "gun", "seat"]);
    if (bad) return bad;
    if (typeof a.card !== "string" || !BULLETS.includes(a.card)) return fail("bad-args", "card is bbb, bang or click");
    if (a.gun !== undefined && a.gun !== 2) return fail("bad-args", "gun is 2 (the second gun) or absent");
    const s = seat(a, "seat", true);
    return all([s], () => ({ card: a.card as Bullet, gun: a.gun as 2 | undefined, seat: s.ok ? s.v : null }));
  },
  run(ctx, caller, args) {
    const who = actingSeat(caller, args.seat);
    if (!who.ok) return who;
    return ctx.play.secret(who.seat, args.card, args.gun, callerName(caller));
  },
};

export const powerReveal: Op<{ power: PowerId; seat: Seat | null }, OpContext> = {
  name: "power.reveal",
  need: "player",
  summary: "reveal the seat's Super Power",
  parse(a) {
    const bad = only(a, ["power", "seat"]);
    if (bad) return bad;
    if (!isOneOf(POWERS, a.power)) return fail("bad-args", `power is one of ${POWERS.join(", ")}`);
    const s = seat(a, "seat", true);
    return all([s], () => ({ power: a.power as PowerId, seat: s.ok ? s.v : null }));
  },
  run(ctx, caller, args) {
    const who = actingSeat(caller, args.seat);
    if (!who.ok) return who;
    return ctx.play.revealPower(who.seat, args.power, callerName(caller));
  },
};

export const powerSpecialist: Op<{ use: boolean; discard: Bullet | null; seat: Seat | null }, OpContext> = {
  name: "power.specialist",
  need: "player",
  summary: "the Specialist's choice after her bbb was used: take it back (discarding a bang or click), or not",
  parse(a) {
    const bad = only(a, ["use", "discard", "seat"]);
    if (bad) return bad;
    if (typeof a.use !== "boolean") return fail("bad-args", "use must be true or false");
    const discard = a.discard ?? null;
    if (discard !== null && discard !== "bang" && discard !== "click")
      return fail("bad-args", "discard is bang, click, or null (no card left)");
    const s = seat(a, "seat", true);
    return all([s], () => ({ use: a.use as boolean, discard: discard as Bullet | null, seat: s.ok ? s.v : null }));
  },
  run(ctx, caller, args) {
    const who = actingSeat(caller, args.seat);
    if (!who.ok) return who;
    return ctx.play.specialist(who.seat, args.use, args.discard, callerName(caller));
  },
};

export const hostDecide: Op<{ decision: Decision }, OpContext> = {
  name: "host.decide",
  need: "host",
  summary: "what sensors cannot give: draft picks, privilege pass or order, doesnt-hurt, take-gun, phone flips…",
  parse(a) {
    const bad = only(a, ["decision"]);
    if (bad) return bad;
    const d = a.decision;
    if (!isObj(d) || typeof d.type !== "string" || d.type.length > 32)
      return fail("bad-args", "decision must be {type, seat, ...}");
    const s = seat(d, "seat");
    if (!s.ok) return s;
    if (d.type === "privilege" && d.order !== null) {
      const o = seat(d, "order");
      if (!o.ok) return o;
    }
    if (d.type === "phone" && typeof d.flip !== "boolean")
      return fail("bad-args", "decision.flip must be true or false");
    return { ok: true, args: { decision: d as unknown as Decision } };
  },
  run: (ctx, _c, args) => ctx.play.hostDecide(args.decision),
};

export const tableLang: Op<{ lang: Lang | null }, OpContext> = {
  name: "table.lang",
  need: "host",
  summary: "the language the table reads and hears (en, fr, fi), or null: each browser its own",
  parse(a) {
    const bad = only(a, ["lang"]);
    if (bad) return bad;
    if (a.lang !== null && !isLang(a.lang))
      return fail("bad-args", `lang is one of ${TABLE_LANGS.join(", ")}, or null`);
    return { ok: true, args: { lang: a.lang as Lang | null } };
  },
  run: (ctx, _c, args) => ctx.play.setLang(args.lang),
};

export const tableStatus: Op<Record<string, never>, OpContext> = {
  name: "table.status",
  need: "anyone",
  summary: "the table/state payload: game view, table status, seats, calibration",
  parse: (a) => only(a, []) ?? { ok: true, args: {} },
  run: (ctx) => ({ ok: true, r: ctx.play.state() }),
};

export const calibrateStart: Op<{ seat: Seat | null; poses: number; layout: unknown }, OpContext> = {
  name: "calibrate.start",
  need: "host",
  summary: "the calibration wizard: each gun aims at 1-3 named seats and pulls",
  parse(a) {
    const bad = only(a, ["seat", "poses", "layout"]);
    if (bad) return bad;
    const s = seat(a, "seat", true);
    const poses = a.poses ?? 1;
    if (poses !== 1 && poses !== 2 && poses !== 3) return fail("bad-args", "poses is 1, 2 or 3");
    return all([s], () => ({ seat: s.ok ? s.v : null, poses: poses as number, layout: a.layout }));
  },
  run: (ctx, _c, args) => ctx.play.calibrateStart(args.seat, args.poses, args.layout),
};

export const calibrateCancel: Op<{ seat: Seat | null }, OpContext> = {
  name: "calibrate.cancel",
  need: "host",
  summary: "stop calibrating a seat (or every seat)",
  parse(a) {
    const s = seat(a, "seat", true);
    return only(a, ["seat"]) ?? all([s], () => ({ seat: s.ok ? s.v : null }));
  },
  run: (ctx, _c, args) => ({ ok: true, r: { seats: ctx.play.wizard.cancel(args.seat) } }),
};

export const calibrateStatus: Op<Record<string, never>, OpContext> = {
  name: "calibrate.status",
  need: "anyone",
  summary: "the calibration wizard's progress and results",
  parse: (a) => only(a, []) ?? { ok: true, args: {} },
  run: (ctx) => ({ ok: true, r: { calibration: ctx.play.wizard.view() } }),
};

export const gamePause: Op<Record<string, never>, OpContext> = {
  name: "game.pause",
  need: "host",
  summary: "pause the table: no count starts or runs, windows hold, gun inputs are ignored",
  parse: (a) => only(a, []) ?? { ok: true, args: {} },
  run: (ctx) => ctx.play.pause(),
};

export const gameResume: Op<Record<string, never>, OpContext> = {
  name: "game.resume",
  need: "host",
  summary: "resume a paused table; a count or window it interrupted starts again",
  parse: (a) => only(a, []) ?? { ok: true, args: {} },
  run: (ctx) => ctx.play.resume(),
};

export const gameUndo: Op<Record<string, never>, OpContext> = {
  name: "game.undo",
  need: "host",
  summary: "take back the last host-entered decision (draft pick, doesnt-hurt, specialist, take-gun, phone)",
  parse: (a) => only(a, []) ?? { ok: true, args: {} },
  run: (ctx) => ctx.play.undo(),
};
