// Game ops: a new game, one decision, the state. The rules engine judges the contents.
import type { GameEvent } from "../../rules/index.js";
import { all, object, only } from "../args.js";
import type { OpContext } from "../context.js";
import { type Caller, callerName, fail, type Op } from "../types.js";

export const gameNew: Op<{ setup: Record<string, unknown> }, OpContext> = {
  name: "game.new",
  need: "host",
  summary: "start a new game (a new log) from setup options: edition, players, seed, options…, and `table`",
  parse: (a) => ({ ok: true, args: { setup: a } }),
  run(ctx, _c, args) {
    // a gun restarts at the end of its update: not in the middle of a round
    const updating = ctx.ota.running();
    if (updating.length) {
      return fail("updating", `guns are being updated (${updating.join(", ")}): start the game once they are done`);
    }
    return ctx.play.newGame(args.setup);
  },
};

export const gameDecide: Op<{ decision: Record<string, unknown> }, OpContext> = {
  name: "game.decide",
  need: "player",
  summary: "one rules decision; a seat token may only decide for its own seat",
  parse(a) {
    const d = object(a, "decision");
    return only(a, ["decision"]) ?? all([d], () => ({ decision: d.ok ? d.v : {} }));
  },
  async run(ctx, caller, args) {
    if (ctx.play.table)
      return fail("table-runs", "a table runs this game: use host.decide, secret.bullet, power.reveal");
    if (caller.role === "seat" && ctx.game.engine.decisionSeat(args.decision) !== caller.seat) {
      return fail("forbidden", `seat ${caller.seat} may only decide for itself`);
    }
    const r = await ctx.game.decide(args.decision, callerName(caller));
    if (!r.ok) return fail(r.error.code, r.error.message);
    return { ok: true, r: { game: r.game.id, decisions: r.game.decisions, events: visible(ctx, caller, r.events) } };
  },
};

function visible(ctx: OpContext, caller: Caller, events: readonly GameEvent[]): GameEvent[] {
  const e = ctx.game.engine;
  return events.filter((ev) => {
    const to = e.eventAudience(ev);
    return to === null || (caller.role === "seat" && caller.seat === to);
  });
}

export const gameState: Op<Record<string, never>, OpContext> = {
  name: "game.state",
  need: "anyone",
  summary: "the current game as the caller may see it (a seat token sees its own secrets)",
  parse: (a) => only(a, []) ?? { ok: true, args: {} },
  run(ctx, caller) {
    const g = ctx.game.session.game;
    if (!g) return { ok: true, r: { game: null } };
    const e = ctx.game.engine;
    const view = caller.role === "seat" ? e.playerView(g.state, caller.seat) : e.publicView(g.state);
    // The result (scores so far) is for the host's eyes: a player's money may be secret.
    const result = caller.role === "host" ? { result: e.output(g.state) } : {};
    return { ok: true, r: { game: g.id, decisions: g.decisions, view, ...result } };
  },
};

export const gameList: Op<Record<string, never>, OpContext> = {
  name: "game.list",
  need: "anyone",
  summary: "every logged game, oldest first: id, when, decisions, edition, players, over, winners",
  parse: (a) => only(a, []) ?? { ok: true, args: {} },
  run: (ctx) => ({ ok: true, r: { games: ctx.game.session.list() } }),
};

export const gameHistory: Op<{ game: number }, OpContext> = {
  name: "game.history",
  need: "anyone",
  summary: "a game's public view at the end of each round and its public events per round (replayed from its log)",
  parse(a) {
    const bad = only(a, ["game"]);
    if (bad) return bad;
    const g = a.game;
    if (typeof g !== "number" || !Number.isSafeInteger(g) || g < 1) return fail("bad-args", "game must be a game id");
    return { ok: true, args: { game: g } };
  },
  run(ctx, _c, args) {
    const h = ctx.game.session.history(args.game);
    if (h === null) return fail("unknown-game", `no game ${args.game}`);
    if (!h.ok) return fail("internal", `game ${args.game} does not replay: ${h.error.message}`);
    return { ok: true, r: { game: args.game, ...h.history } };
  },
};
