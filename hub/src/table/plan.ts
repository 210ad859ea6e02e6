// A round as the table knows it: the verdicts from the sensors, kept until the engine asks for them. The
// engine wants bullets before aims, but physical cards are learned only at the reveal; so the plan holds
// aims, the privilege and courage, and `planned` hands the engine whatever it asks for next, in its order.
// Aims and cards are kept per physical gun (its slot, see guns.ts): a taken gun's are its new owner's gun 2.
import type { Bullet, Decision, Owed, Seat, State } from "../rules/index.js";
import { type SecondGuns, slotOf } from "./guns.js";
import type { RevealWindow, TableRecord } from "./records.js";

export interface RoundPlan {
  round: number;
  started: boolean;
  /** the table's taken guns (shared, lasts the game) */
  guns: SecondGuns;
  /** by slot */
  aims: Map<Seat, Seat | null>;
  /** undefined: not decided yet; order null: no privilege this round */
  privilege?: { order: Seat | null; target: Seat | null };
  courage: Map<Seat, boolean>;
  /** the round's re-centre pose is over (or not asked for) */
  recentred: boolean;
  pulls: Partial<Record<RevealWindow, Seat[]>>;
  /** physical guns' cards by slot, worked out at the end of the reveal */
  bullets: Map<Seat, Bullet>;
}

export function newPlan(round: number, started: boolean, guns: SecondGuns = new Map()): RoundPlan {
  return { round, started, guns, aims: new Map(), courage: new Map(), recentred: false, pulls: {}, bullets: new Map() };
}

/** Takes one record into the plan (records of other rounds are ignored). */
export function absorb(plan: RoundPlan, r: TableRecord): void {
  // a taken gun stays taken for the rest of the game
  if (r.kind === "gun-taken") plan.guns.set(r.seat, r.from);
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
    case "recentred":
      plan.recentred = true;
      return;
  }
}

/** The decision the plan gives for an owed entry, or null when it does not know it (yet). */
export function planned(state: State, plan: RoundPlan, o: Owed): Decision | null {
  if (state.round !== plan.round) return null;
  const seat = o.seat;
  switch (o.decision) {
    case "bullet": {
      const slot = slotOf(plan.guns, seat, o.gun ?? 1);
      const card = slot === undefined ? undefined : plan.bullets.get(slot);
      if (card === undefined) return null;
      return o.gun === 2 ? { type: "bullet", seat, card, gun: 2 } : { type: "bullet", seat, card };
    }
    case "aim": {
      if (state.step === "reaim") {
        const p = plan.privilege;
        return p && p.order === seat && p.target !== null ? { type: "aim", seat, target: p.target } : null;
      }
      // a gun 2 whose physical gun the table does not know (no record of the take) follows gun 1's aim
      const slot = slotOf(plan.guns, seat, o.gun ?? 1) ?? seat;
      if (!plan.aims.has(slot)) return null;
      const target = plan.aims.get(slot)!;
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
