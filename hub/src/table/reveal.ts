// Physical cards: the table learns a card only when its player pulls in a reveal window. Which seats may
// reveal in a window, and the cards to hand the engine afterwards, are worked out by applying the round
// hypothetically to the (pure, cheap) engine: the engine stays the referee. Guns are named by slot (guns.ts):
// a taken gun reveals its owner's gun-2 card.
import {
  apply,
  BULLET_INDEX,
  type Bullet,
  type GameEvent,
  type Hand,
  owedDecisions,
  type Seat,
  type State,
} from "../rules/index.js";
import { handOfSlot, type SecondGuns, slotOf } from "./guns.js";
import { planned, type RoundPlan } from "./plan.js";
import type { RevealWindow } from "./records.js";

const has = (hand: Hand, card: Bullet): boolean => hand[BULLET_INDEX[card]] > 0;

/**
 * The card to hand the engine for a card discarded unrevealed: the table never saw it, so it keeps the
 * player's counts most permissive (a click if any is left, else a bang, else the bbb).
 */
export function permissiveCard(hand: Hand): Bullet {
  return has(hand, "click") ? "click" : has(hand, "bang") ? "bang" : "bbb";
}

/** The events of the rest of the round if the physical seats played `bullets` (nothing is changed). */
export function simulate(state: State, plan: RoundPlan, bullets: Map<Seat, Bullet>, nobody: Seat[] = []): GameEvent[] {
  const trial: RoundPlan = { ...plan, bullets, aims: new Map(plan.aims) };
  for (const seat of nobody) trial.aims.set(seat, null);
  let s = state;
  const events: GameEvent[] = [];
  for (;;) {
    let made = false;
    for (const o of owedDecisions(s)) {
      const d = planned(s, trial, o);
      if (d === null) continue;
      const r = apply(s, d);
      if (!r.ok) throw new Error(`the table's own plan was refused: ${r.error.message}`);
      events.push(...r.events);
      s = r.state;
      made = true;
      break;
    }
    if (!made || s.round !== plan.round) return events;
  }
}

/** The slots of the guns that shot one of `cards`. */
function shooters(events: readonly GameEvent[], cards: readonly Bullet[], guns: SecondGuns): Set<Seat> {
  const out = new Set<Seat>();
  for (const e of events) {
    if (e.type !== "shot" || !cards.includes(e.card)) continue;
    const slot = slotOf(guns, e.seat, e.gun);
    if (slot !== undefined) out.add(slot);
  }
  return out;
}

/**
 * Seats whose pull the window would take: their card is revealed in that step. `physical` are the seats whose
 * card the table does not know; `bbb` the pulls of the classic bbb window (for the bang window).
 */
export function windowSeats(
  state: State,
  plan: RoundPlan,
  physical: Seat[],
  window: RevealWindow,
  bbb: Seat[] = [],
): Seat[] {
  const probe = new Map<Seat, Bullet>();
  const nobody: Seat[] = [];
  for (const seat of physical) {
    const hand = handOfSlot(state, plan.guns, seat);
    if (window === "bbb") probe.set(seat, has(hand, "bbb") ? "bbb" : permissiveCard(hand));
    else if (bbb.includes(seat)) probe.set(seat, "bbb");
    else if (has(hand, "bang")) probe.set(seat, "bang");
    else if (has(hand, "click")) probe.set(seat, "click");
    else {
      probe.set(seat, "bbb");
      nobody.push(seat);
    }
  }
  const shot = shooters(
    simulate(state, plan, probe, nobody),
    window === "bbb" ? ["bbb"] : ["bang", "click"],
    plan.guns,
  );
  return physical.filter((s) => shot.has(s) && (window === "bang" || !bbb.includes(s)));
}

/** Whether a pull in this window is a card the player still holds (a fourth Bang! is not). */
export function pullAllowed(state: State, guns: SecondGuns, slot: Seat, window: RevealWindow): boolean {
  return has(handOfSlot(state, guns, slot), window);
}

export interface LearnedCards {
  bullets: Map<Seat, Bullet>;
  /** seats handed a Bang! they did not pull (no click left): their aim goes to nobody so it changes nothing */
  nobody: Seat[];
}

/** The physical seats' cards once every window has closed. */
export function learnedCards(
  state: State,
  plan: RoundPlan,
  physical: Seat[],
  pulls: Partial<Record<RevealWindow, Seat[]>>,
): LearnedCards {
  const bbb = pulls.bbb ?? [];
  const bang = pulls.bang ?? [];
  const inBang = new Set(windowSeats(state, plan, physical, "bang", bbb));
  const bullets = new Map<Seat, Bullet>();
  const nobody: Seat[] = [];
  for (const seat of physical) {
    const hand = handOfSlot(state, plan.guns, seat);
    if (bbb.includes(seat)) bullets.set(seat, "bbb");
    else if (bang.includes(seat)) bullets.set(seat, "bang");
    else if (has(hand, "click")) bullets.set(seat, "click");
    else {
      // no click left: the card is a bang or the bbb that did not show; aimed at nobody it changes nothing
      bullets.set(seat, has(hand, "bang") ? "bang" : "bbb");
      if (inBang.has(seat) || state.edition === "classic") nobody.push(seat);
    }
  }
  return { bullets, nobody };
}
