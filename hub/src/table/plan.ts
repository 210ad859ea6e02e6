// A round as the table knows it: the verdicts from the sensors, kept until the engine asks for them. The
// engine wants bullets before aims, but physical cards are learned only at the reveal; so the plan holds
// aims, the privilege and courage, and `planned` hands the engine whatever it asks for next, in its order.
import type { Bullet, Decision, Owed, Seat, State } from "../rules/index.js";
import type { RevealWindow, TableRecord } from "./records.js";

export interface RoundPlan {
  round: number;
  started: boolean;
  aims: Map<Seat, Seat | null>;
  /** undefined: not decided yet; order null: no privilege this round */
  privilege?: { order: Seat | null; target: Seat | null };
  courage: Map<Seat, boolean>;
  pulls: Partial<Record<RevealWindow, Seat[]>>;
  /** physical seats' cards, worked out at the end of the reveal */
  bullets: Map<Seat, Bullet>;
}

export function newPlan(round: number, started: boolean): RoundPlan {
  return { round, started, aims: new Map(), courage: new Map(), pulls: {}, bullets: new Map() };
}

/** Takes one record into the plan (records of other rounds are ignored). */
export function absorb(plan: RoundPlan, r: TableRecord): void {
  if (r.round !== plan.round) return;
  switch (r.kind) {
    case "start":
      plan.started = true;
      return;
    case "aim":
      plan.aims.set(r.seat, r.target);
      return;
    case "privilege":
      plan.privilege = { order: r.order, target: r.target };
      return;
    case "courage":
      plan.courage.set(r.seat, r.lieDown);
      return;
    case "pulls":
      plan.pulls[r.window] = r.seats.slice();
      return;
  }
}

/** The decision the plan gives for an owed entry, or null when it does not know it (yet). */
export function planned(state: State, plan: RoundPlan, o: Owed): Decision | null {
  if (state.round !== plan.round) return null;
  const seat = o.seat;
  switch (o.decision) {
    case "bullet": {
      if (o.gun === 2) return null;
      const card = plan.bullets.get(seat);
      return card === undefined ? null : { type: "bullet", seat, card };
    }
    case "aim": {
      if (state.step === "reaim") {
        const p = plan.privilege;
        return p && p.order === seat && p.target !== null ? { type: "aim", seat, target: p.target } : null;
      }
      // one physical gun per seat: a second gun (You-don't-need-it-anymore) follows the first one's aim
      if (!plan.aims.has(seat)) return null;
      const target = plan.aims.get(seat)!;
      return o.gun === 2 ? { type: "aim", seat, target, gun: 2 } : { type: "aim", seat, target };
    }
    case "privilege":
      return plan.privilege ? { type: "privilege", seat, order: plan.privilege.order } : null;
    case "courage": {
      const lieDown = plan.courage.get(seat);
      return lieDown === undefined ? null : { type: "courage", seat, lieDown };
    }
    default:
      return null;
  }
}
