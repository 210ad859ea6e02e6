// Each Super Power's rules, one entry per power: what sets it apart from the common rules, as the hooks the round
// machine, the engine, the pending list, the bots and the score ask. Nothing else in the rules tests for a power. A
// power new to the protocol's list (POWERS) fails `tsc` here until it has an entry; a power revealed by choice
// (CHOSEN_POWERS) must say when.
import { CHOSEN_POWERS, type ChosenPower, POWERS, type PowerId } from "@cng/protocol";
import { HOLDUP_STEPS, holdupBefore } from "./holdup.js";
import { DEADLY_WOUNDS, hasGun2 } from "./players.js";
import type { GameEvent, Player, Seat, State, Step } from "./types.js";

/** Why a chosen reveal is refused now: the engine's error code and its words for the owner `who`. */
export interface RevealRefusal {
  readonly code: "wrong-step" | "already-decided";
  why(who: string): string;
}

export interface ChosenReveal {
  /**
   * May the owner at `seat` reveal it now (RULES decision 9): how many of this step's owed decisions the reveal moves
   * to a later step, or why not.
   */
  check(s: State, seat: Seat, p: Player): number | RevealRefusal;
  /** at a physical table: the count the reveal must come before */
  before: "aim" | "courage";
}

interface PowerHooks {
  /** revealed, the owner makes this decision after everyone else's, in a step of its own */
  readonly last?: "bullet" | "aim";
  /** the wounds that kill the owner (DEADLY_WOUNDS otherwise) */
  readonly deadly?: number;
  /** a wound about to land on the owner is blocked (and shows the power) */
  blocksWound?(s: State, seat: Seat): boolean;
  /** a wound has landed on the owner: the power shows itself */
  showsWounded?(p: Player): boolean;
  /** at the end of a reveal step in which the owner was hurt: the owner throws the grenade */
  throwsGrenade?(p: Player): boolean;
  /** classic score: what each shame marker is worth to the owner (−$5,000 otherwise) */
  readonly shameWorth?: number;
  /** classic score: what each dead player is worth to the owner at the end */
  readonly deathWorth?: number;
  /** the owner's bbb was fired at a standing player: the Specialist's choice is owed */
  answersBbb?(p: Player): boolean;
  /** the classic split step: the owner decides whether to share though hurt */
  sharesHurt?(p: Player): boolean;
  /** the take-gun step: the owner may take the gun of a player who died this round */
  takesGun?(p: Player): boolean;
}

/** A chosen power must say when it may be revealed; the others may not be revealed by choice. */
export type PowerRules<P extends PowerId> = PowerHooks &
  (P extends ChosenPower ? { readonly chosen: ChosenReveal } : { readonly chosen?: undefined });

/** the owner's decisions owed in this step (gun 2's too) */
const ownDecisions = (p: Player): number => 1 + (hasGun2(p) ? 1 : 0);

/** the hold-up's steps before anyone lies down */
const ROUND_START: readonly Step[] = HOLDUP_STEPS.filter((step) => holdupBefore(step, "courage"));

const INSANE_LATE: RevealRefusal = {
  code: "wrong-step",
  why: (who) => `${who} can reveal the-insane only at a round start, before lying down`,
};
const KID_AIMED: RevealRefusal = {
  code: "already-decided",
  why: (who) => `${who} already aimed; the Kid reveals before aiming`,
};
const KID_LATE: RevealRefusal = { code: "wrong-step", why: (who) => `${who} can reveal the-kid only before aiming` };
const CUNNING_LATE: RevealRefusal = {
  code: "wrong-step",
  why: (who) => `${who} can reveal the-cunning only before picking a card`,
};
const CUNNING_PICKED: RevealRefusal = {
  code: "already-decided",
  why: (who) => `${who} already picked a card; the Cunning reveals before picking`,
};

export const POWER_RULES: { readonly [P in PowerId]: PowerRules<P> } = {
  "six-feet-under": { deathWorth: 10000 },
  "the-unbreakable": {
    deadly: DEADLY_WOUNDS + 1,
    showsWounded: (p) => p.wounds === DEADLY_WOUNDS,
  },
  "you-dont-need-it-anymore": { takesGun: (p) => !p.spent && p.gun2 === null },
  "dragon-skin": { blocksWound: (s, seat) => s.hurt[seat]! >= 1 },
  "the-insane": {
    chosen: { before: "courage", check: (s) => (ROUND_START.includes(s.step) ? 0 : INSANE_LATE) },
    throwsGrenade: (p) => p.revealed && !p.spent && p.alive,
  },
  "the-kid": {
    last: "aim",
    chosen: {
      before: "aim",
      check(s, seat, p) {
        if (s.step === "aim") return s.aim[seat] !== -2 || s.aim2[seat] !== -2 ? KID_AIMED : ownDecisions(p);
        return s.step === "bullet" ? 0 : KID_LATE;
      },
    },
  },
  "the-cunning": {
    last: "bullet",
    chosen: {
      before: "aim",
      check(s, seat, p) {
        if (s.step !== "bullet") return CUNNING_LATE;
        return s.card[seat] !== null || s.card2[seat] !== null ? CUNNING_PICKED : ownDecisions(p);
      },
    },
  },
  "super-coward": { shameWorth: 5000 },
  "the-specialist": { answersBbb: (p) => !p.spent },
  "it-doesnt-even-hurt": { sharesHurt: (p) => !p.spent },
};

type HookName = keyof PowerHooks;
/** An entry with every hook present, undefined where the power has none. */
type Hooks = { readonly [K in HookName]: PowerHooks[K] | undefined } & {
  readonly chosen: ChosenReveal | undefined;
};

/** Every entry in the one shape of `Hooks`: the engine's hot paths then read them without a megamorphic lookup. */
function hooks(r: PowerHooks & { readonly chosen?: ChosenReveal }): Hooks {
  return {
    last: r.last,
    deadly: r.deadly,
    blocksWound: r.blocksWound,
    showsWounded: r.showsWounded,
    throwsGrenade: r.throwsGrenade,
    shameWorth: r.shameWorth,
    deathWorth: r.deathWorth,
    answersBbb: r.answersBbb,
    sharesHurt: r.sharesHurt,
    takesGun: r.takesGun,
    chosen: r.chosen,
  };
}
const NONE = hooks({});
/** in POWERS' order: a power's id is found by a few identity compares, cheaper than a keyed lookup */
const BY_INDEX: readonly Hooks[] = POWERS.map((id) => hooks(POWER_RULES[id]));

/** A player's power's rules, or none. */
export function powerOf(p: Player): Hooks {
  return p.power === null ? NONE : BY_INDEX[POWERS.indexOf(p.power)]!;
}

/** the powers that move the owner's aim, or card, after everyone else's (the bots ask per seat, per decision) */
const AIMS_LAST: readonly PowerId[] = POWERS.filter((id) => POWER_RULES[id].last === "aim");
const PICKS_LAST: readonly PowerId[] = POWERS.filter((id) => POWER_RULES[id].last === "bullet");
const CHOSEN: readonly PowerId[] = CHOSEN_POWERS;
const CHOSEN_REVEALS: readonly ChosenReveal[] = CHOSEN_POWERS.map((id) => POWER_RULES[id].chosen);

/** Alive with a revealed power that moves `decision` after everyone else's (the Kid's aim, the Cunning's card). */
export function decidesLast(p: Player, decision: "bullet" | "aim"): boolean {
  return p.alive && p.revealed && p.power !== null && (decision === "aim" ? AIMS_LAST : PICKS_LAST).includes(p.power);
}

/** Alive with a revealed power that makes them aim after everyone else (kid-aim). */
export function aimsLast(p: Player): boolean {
  return decidesLast(p, "aim");
}
/** Alive with a revealed power that makes them pick their card after every aim (cunning-bullet). */
export function picksLast(p: Player): boolean {
  return decidesLast(p, "bullet");
}

/** The wounds that kill this player. */
export function deadlyWounds(p: Player): number {
  return powerOf(p).deadly ?? DEADLY_WOUNDS;
}

/** Alive, and may take a dead player's gun in the take-gun step. */
export function canTakeGun(p: Player): boolean {
  return p.alive && powerOf(p).takesGun?.(p) === true;
}

/** When a power may be revealed by choice, or undefined: it is not one revealed by choice. */
export function chosenReveal(power: PowerId): ChosenReveal | undefined {
  return POWER_RULES[power].chosen;
}

/** When this player's power may be revealed by choice, or undefined (the bots ask for every player, every decision). */
export function chosenOf(p: Player): ChosenReveal | undefined {
  const i = p.power === null ? -1 : CHOSEN.indexOf(p.power);
  return i < 0 ? undefined : CHOSEN_REVEALS[i];
}

/** The power shows itself (once): `p` is the round's own copy of the player. */
export function showPower(p: Player, seat: Seat, ev: GameEvent[]): void {
  if (p.revealed || p.power === null) return;
  p.revealed = true;
  ev.push({ type: "power-revealed", seat, power: p.power });
}
