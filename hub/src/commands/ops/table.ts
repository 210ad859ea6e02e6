// Table ops: physical play run by the real-time Godfather (hub/src/play). See the README's "Table ops".
import { BULLETS, isOneOf, type LayoutSpec, ok, POWERS, type Result, refuse, TABLE_LANGS } from "@cng/protocol";
import { parseLayout } from "../../play/setup.js";
import type { Seat } from "../../rules/index.js";
import { isLang } from "../../store/settings.js";
import { badArgs, decision, none, seatOrNull } from "../args.js";
import { type Caller, callerName, type Op } from "../types.js";

/** The seat a player op acts for: a seat token's own, or the one the host names. */
function actingSeat(caller: Caller, named: Seat | null | undefined): Result<Seat> {
  if (caller.role === "seat") {
    if (named !== null && named !== undefined && named !== caller.seat)
      return refuse("forbidden", `seat ${caller.seat} may only act for itself`);
    return ok(caller.seat);
  }
  if (named === null || named === undefined) return badArgs("the host names the seat");
  return ok(named);
}

export const roundStart: Op<"round.start"> = {
  name: "round.start",
  need: "host",
  summary: "start this round's hold-up (the 1-2-3 count)",
  args: [],
  parse: none,
  run: (ctx) => ctx.play.roundStart(),
};

export const secretBullet: Op<"secret.bullet"> = {
  name: "secret.bullet",
  need: "player",
  summary: "a console player's secret card for this round",
  args: ["card", "gun", "seat"],
  parse(a) {
    if (!isOneOf(BULLETS, a.card)) return badArgs("card is bbb, bang or click");
    if (a.gun !== undefined && a.gun !== 2) return badArgs("gun is 2 (the second gun) or absent");
    const s = seatOrNull(a, "seat");
    return s.ok ? ok({ card: a.card, gun: a.gun, seat: s.value }) : s;
  },
  run(ctx, caller, args) {
    const who = actingSeat(caller, args.seat);
    if (!who.ok) return who;
    return ctx.play.secret(who.value, args.card, args.gun, callerName(caller));
  },
};

export const powerReveal: Op<"power.reveal"> = {
  name: "power.reveal",
  need: "player",
  summary: "reveal the seat's Super Power",
  args: ["power", "seat"],
  parse(a) {
    if (!isOneOf(POWERS, a.power)) return badArgs(`power is one of ${POWERS.join(", ")}`);
    const s = seatOrNull(a, "seat");
    return s.ok ? ok({ power: a.power, seat: s.value }) : s;
  },
  run(ctx, caller, args) {
    const who = actingSeat(caller, args.seat);
    if (!who.ok) return who;
    return ctx.play.revealPower(who.value, args.power, callerName(caller));
  },
};

export const powerSpecialist: Op<"power.specialist"> = {
  name: "power.specialist",
  need: "player",
  summary: "the Specialist's choice after her bbb was used: take it back (discarding a bang or click), or not",
  args: ["use", "discard", "seat"],
  parse(a) {
    if (typeof a.use !== "boolean") return badArgs("use must be true or false");
    const discard = a.discard ?? null;
    if (discard !== null && discard !== "bang" && discard !== "click")
      return badArgs("discard is bang, click, or null (no card left)");
    const s = seatOrNull(a, "seat");
    return s.ok ? ok({ use: a.use, discard, seat: s.value }) : s;
  },
  run(ctx, caller, args) {
    const who = actingSeat(caller, args.seat);
    if (!who.ok) return who;
    return ctx.play.specialist(who.value, args.use, args.discard ?? null, callerName(caller));
  },
};

export const hostDecide: Op<"host.decide"> = {
  name: "host.decide",
  need: "host",
  summary: "what sensors cannot give: draft picks, privilege pass or order, doesnt-hurt, take-gun, phone flips…",
  args: ["decision"],
  parse: decision,
  run: (ctx, _c, args) => ctx.play.hostDecide(args.decision),
};

export const tableLang: Op<"table.lang"> = {
  name: "table.lang",
  need: "host",
  summary: "the language the table reads and hears (en, fr, fi), or null: each browser its own",
  args: ["lang"],
  parse(a) {
    const lang = a.lang;
    if (lang !== null && !isLang(lang)) return badArgs(`lang is one of ${TABLE_LANGS.join(", ")}, or null`);
    return ok({ lang });
  },
  run: (ctx, _c, args) => ctx.play.setLang(args.lang),
};

export const tableStatus: Op<"table.status"> = {
  name: "table.status",
  need: "anyone",
  summary: "the table/state payload: game view, table status, seats, calibration",
  args: [],
  parse: none,
  run: (ctx) => ok(ctx.play.state()),
};

export const calibrateStart: Op<"calibrate.start", { seat: Seat | null; poses: 1 | 2 | 3; layout: LayoutSpec | null }> =
  {
    name: "calibrate.start",
    need: "host",
    summary: "the calibration wizard: each gun aims at 1-3 named seats and pulls",
    args: ["seat", "poses", "layout"],
    parse(a) {
      const s = seatOrNull(a, "seat");
      if (!s.ok) return s;
      const poses = a.poses ?? 1;
      if (poses !== 1 && poses !== 2 && poses !== 3) return badArgs("poses is 1, 2 or 3");
      const layout = parseLayout(a.layout);
      return layout.ok ? ok({ seat: s.value, poses, layout: layout.value }) : layout;
    },
    run: (ctx, _c, args) => ctx.play.calibrateStart(args.seat, args.poses, args.layout),
  };

export const calibrateCancel: Op<"calibrate.cancel"> = {
  name: "calibrate.cancel",
  need: "host",
  summary: "stop calibrating a seat (or every seat)",
  args: ["seat"],
  parse(a) {
    const s = seatOrNull(a, "seat");
    return s.ok ? ok({ seat: s.value }) : s;
  },
  run: (ctx, _c, args) => ok({ seats: ctx.play.wizard.cancel(args.seat ?? null) }),
};

export const calibrateStatus: Op<"calibrate.status"> = {
  name: "calibrate.status",
  need: "anyone",
  summary: "the calibration wizard's progress and results",
  args: [],
  parse: none,
  run: (ctx) => ok({ calibration: ctx.play.wizard.view() }),
};

export const gamePause: Op<"game.pause"> = {
  name: "game.pause",
  need: "host",
  summary: "pause the table: no count starts or runs, windows hold, gun inputs are ignored",
  args: [],
  parse: none,
  run: (ctx) => ctx.play.pause(),
};

export const gameResume: Op<"game.resume"> = {
  name: "game.resume",
  need: "host",
  summary: "resume a paused table; a count or window it interrupted starts again",
  args: [],
  parse: none,
  run: (ctx) => ctx.play.resume(),
};

export const gameUndo: Op<"game.undo"> = {
  name: "game.undo",
  need: "host",
  summary: "take back the last host-entered decision (draft pick, doesnt-hurt, specialist, take-gun, phone)",
  args: [],
  parse: none,
  run: (ctx) => ctx.play.undo(),
};
