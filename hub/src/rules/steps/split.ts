// Classic: the equal split among the standing, unwounded players; with powers, the owners of It-doesn't-even-hurt
// first decide whether to share though hurt.
import { copyPlayer, copyState } from "../copy.js";
import { powerOf } from "../powers.js";
import { equalSplit } from "../split.js";
import type { Bill, GameEvent, Seat, State } from "../types.js";
import { type DecisionRule, fail, type StepRule } from "./rule.js";

export const DOESNT_HURT: DecisionRule<"doesnt-hurt"> = {
  made: "host",
  apply(state, d, who) {
    const seat = d.seat;
    if (state.step !== "split" || state.dhUse[seat] === -2)
      return fail("wrong-step", seat, `${who} has no It-doesn't-even-hurt choice to make now`);
    if (state.dhUse[seat] !== -1) return fail("already-decided", seat, `${who} already decided`);
    const s = copyState(state);
    const next = state.dhUse.slice();
    next[seat] = d.use ? 1 : 0;
    s.dhUse = next;
    return { s, settles: 1 };
  },
  bot: (_state, o, rng) => ({ type: "doesnt-hurt", seat: o.seat, use: rng.chance(0.5) }),
  scenario: {
    fields: [{ key: "doesntHurt", kind: "list", in: "split" }],
    read: (_state, o, name, round) => [
      { type: "doesnt-hurt", seat: o.seat, use: round.list("doesntHurt").includes(name) },
      `doesntHurt:${name}`,
    ],
  },
};

export const SPLIT_STEP: StepRule = {
  editions: ["classic"],
  decision: "doesnt-hurt",
  oneAtATime: false,
  turns: false,
  waitingShown: false,
  enter(s) {
    if (!s.powers || s.grenade) return 0;
    let owed = 0;
    const dh = s.dhUse.slice();
    s.players.forEach((p, seat) => {
      if (p.alive && powerOf(p).sharesHurt?.(p)) {
        dh[seat] = -1;
        owed++;
      }
    });
    s.dhUse = dh;
    return owed;
  },
  leave: classicSplit,
  owed(s, out) {
    for (let seat = 0; seat < s.players.length; seat++)
      if (s.dhUse[seat] === -1) out.push({ seat, decision: "doesnt-hurt" });
  },
};

/** Classic step 7: the equal split among the standing, unwounded players (and It-doesn't-even-hurt). */
function classicSplit(s: State, ev: GameEvent[]): void {
  if (s.edition !== "classic") return;
  const sharers: Seat[] = [];
  let players = s.players;
  if (!s.grenade) {
    players.forEach((p, seat) => {
      if (!p.alive) return;
      const standing = s.courage[seat] !== 1 && s.hurt[seat] === 0;
      if (standing || s.dhUse[seat] === 1) sharers.push(seat);
    });
  }
  if (s.dhUse.includes(1)) {
    players = players.slice();
    s.dhUse.forEach((use, seat) => {
      if (use !== 1) return;
      const p = players[seat]!;
      players[seat] = { ...p, spent: true, revealed: true };
      ev.push({ type: "power-revealed", seat, power: p.power! });
    });
  }
  s.sharers = sharers;
  const r = equalSplit(s.bills, sharers.length);
  if (r.each > 0) {
    if (players === s.players) players = players.slice();
    for (const seat of sharers) {
      const q = copyPlayer(players[seat]!);
      q.money += r.each;
      players[seat] = q;
    }
    s.bills = [s.bills[0] - r.used[0], s.bills[1] - r.used[1], s.bills[2] - r.used[2]];
  }
  s.players = players;
  const took: Bill[] = [];
  for (let i = 0; i < r.used[2]; i++) took.push(20000);
  for (let i = 0; i < r.used[1]; i++) took.push(10000);
  for (let i = 0; i < r.used[0]; i++) took.push(5000);
  ev.push({ type: "split", sharers, each: r.each, took });
}
