// Which decision the host may take back (game.undo): only the last one, only one the host typed in (those the
// rules' entries say the host makes: a draft pick, doesnt-hurt, the Specialist's discard, take-gun, a phone flip; a
// privilege only without a table), and only while nothing the table did since depends on it. Aims, courage and reveal pulls come from sensors; bullets are
// secrets: none of them is undoable.
import type { DecisionType } from "@cng/protocol";
import type { Undone } from "../game/session.js";
import { HOST_DECISIONS } from "../rules/index.js";

/** The host's decisions as the refusal names them: the draft's pick first, then the others, "or" before the last. */
const HOST_WORDS = ((w: string[]) => `${w.slice(0, -1).join(", ")} or ${w.at(-1)}`)([
  ...(HOST_DECISIONS.includes("pick") ? ["draft pick"] : []),
  ...HOST_DECISIONS.filter((d) => d !== "pick"),
]);

export interface UndoContext {
  /** a table runs the game (its privilege comes from its own records: not undoable) */
  table: boolean;
  /** when the table last logged a record of its own (a start, a verdict, a window), or null */
  lastRecordAt: number | null;
}

/** Why `last` may not be undone, or null when it may. */
export function undoRefusal(last: Undone, ctx: UndoContext): string | null {
  const d = last.decision;
  const what = `the last decision (${d.type} of seat ${d.seat}, by ${last.by})`;
  const types: readonly DecisionType[] = ctx.table ? HOST_DECISIONS : [...HOST_DECISIONS, "privilege"];
  if (last.by !== "host" || !types.includes(d.type))
    return `${what} was not entered by the host: only a host's ${HOST_WORDS} input can be undone`;
  if (ctx.lastRecordAt !== null && ctx.lastRecordAt >= last.at)
    return `the table has gone on since ${what}: it can no longer be undone`;
  return null;
}
