// Game ops: a new game, one decision, the state. Setups and decisions are decoded strictly here; the rules engine
// judges whether they can be played.
import { decodeGameSetup, type GameSetup, ok, refuse } from "@cng/protocol";
import { parseTableSetup, type TableSetup } from "../../play/setup.js";
import type { GameEvent } from "../../rules/index.js";
import { badArgs, decision, none } from "../args.js";
import type { OpContext } from "../context.js";
import { type Caller, callerName, type Op } from "../types.js";

export const gameNew: Op<"game.new", { setup: GameSetup; table: TableSetup | null }> = {
  name: "game.new",
  need: "host",
  summary: "start a new game (a new log) from setup options: edition, players, seed, options…, and `table`",
  // the setup's decoder refuses a field a setup does not have
  args: null,
  parse(a) {
    const { table, ...rest } = a;
    const setup = decodeGameSetup(rest);
    if (!setup.ok) return refuse("bad-options", setup.error.message);
    if (table === undefined || table === false) return ok({ setup: setup.value, table: null });
    const t = parseTableSetup(table);
    return t.ok ? ok({ setup: setup.value, table: t.value }) : t;
  },
  async run(ctx, _c, args) {
    // a gun restarts at the end of its update: not in the middle of a round
    const updating = ctx.ota.running();
    if (updating.length) {
      return refuse("updating", `guns are being updated (${updating.join(", ")}): start the game once they are done`);
    }
    const r = await ctx.play.newGame(args.setup, args.table);
    // a console stays with its player: one on a seat that someone else now takes is closed, its token void
    if (r.ok) for (const seat of ctx.secrets.seatTokensFor(args.setup.players)) ctx.kickSeats(seat);
    return r;
  },
};

export const gameDecide: Op<"game.decide"> = {
  name: "game.decide",
  need: "player",
  summary: "one rules decision; a seat token may only decide for its own seat",
  args: ["decision"],
  parse: decision,
  async run(ctx, caller, args) {
    if (ctx.play.table)
      return refuse("table-runs", "a table runs this game: use host.decide, secret.bullet, power.reveal");
    if (caller.role === "seat" && args.decision.seat !== caller.seat) {
      return refuse("forbidden", `seat ${caller.seat} may only decide for itself`);
    }
    const r = await ctx.game.decide(args.decision, callerName(caller));
    if (!r.ok) return r;
    const { game, events } = r.value;
    return ok({ game: game.id, decisions: game.decisions, events: visible(ctx, caller, events) });
  },
};

function visible(ctx: OpContext, caller: Caller, events: readonly GameEvent[]): GameEvent[] {
  const e = ctx.game.engine;
  return events.filter((ev) => {
    const to = e.eventAudience(ev);
    return to === null || (caller.role === "seat" && caller.seat === to);
  });
}

export const gameState: Op<"game.state"> = {
  name: "game.state",
  need: "anyone",
  summary: "the current game as the caller may see it (a seat token sees its own secrets)",
  args: [],
  parse: none,
  run(ctx, caller) {
    const g = ctx.game.session.game;
    if (!g) return ok({ game: null });
    const e = ctx.game.engine;
    const view = caller.role === "seat" ? e.playerView(g.state, caller.seat) : e.publicView(g.state);
    // The result (scores so far) is for the host's eyes: a player's money may be secret.
    const result = caller.role === "host" ? { result: e.output(g.state) } : {};
    return ok({ game: g.id, decisions: g.decisions, view, ...result });
  },
};

export const gameList: Op<"game.list"> = {
  name: "game.list",
  need: "anyone",
  summary: "every logged game, oldest first: id, when, decisions, edition, players, over, winners",
  args: [],
  parse: none,
  run: (ctx) => ok({ games: ctx.game.session.list() }),
};

export const gameHistory: Op<"game.history"> = {
  name: "game.history",
  need: "anyone",
  summary: "a game's public view at the end of each round and its public events per round (replayed from its log)",
  args: ["game"],
  parse(a) {
    const g = a.game;
    return typeof g === "number" && Number.isSafeInteger(g) && g >= 1
      ? ok({ game: g })
      : badArgs("game must be a game id");
  },
  run(ctx, _c, args) {
    const h = ctx.game.session.history(args.game);
    if (h === null) return refuse("unknown-game", `no game ${args.game}`);
    if (!h.ok) return refuse("internal", `game ${args.game} does not replay: ${h.error.message}`);
    return ok({ game: args.game, ...h.value });
  },
};
