// A player's decision, as the rules engine takes it and the game log keeps it: one shape per kind, and its strict
// decoder. Decisions come from the network (`game.decide`, `host.decide`) and from the log; the engine is given
// only what decodeDecision let through, so every field it reads is there with its type.
import { among, type FieldsOf, flag, opt, orNull, SEAT, SEAT_OR_NULL, variant, whenGodfather, word } from "./checks.js";
import type { Decoded } from "./errors.js";
import type { Seat } from "./table.js";
import { BULLETS, type Bullet, LOOT_CARDS, type LootCard, POWERS, type PowerId } from "./vocab.js";

/** One player's decision. `gun: 2` addresses the second gun of You-don't-need-it-anymore. */
export type Decision =
  | { type: "reveal"; seat: Seat; power: PowerId }
  | { type: "bullet"; seat: Seat; card: Bullet; gun?: 2 }
  | { type: "aim"; seat: Seat; target: Seat | null; gun?: 2 }
  | { type: "privilege"; seat: Seat; order: Seat | null }
  | { type: "courage"; seat: Seat; lieDown: boolean }
  | { type: "doesnt-hurt"; seat: Seat; use: boolean }
  | { type: "phone"; seat: Seat; flip: boolean }
  /**
   * The Specialist, after her `bbb` was used: `use: false` keeps her power for later (her choice); used, she names the
   * unused card to discard (null: she has none left) and takes the `bbb` back. `use` absent means used.
   */
  | { type: "specialist"; seat: Seat; discard: Bullet | null; use?: boolean }
  | { type: "take-gun"; seat: Seat; from: Seat | null }
  | { type: "pick"; seat: Seat; card: LootCard | "godfather"; discard?: Bullet };

type Kind = Decision["type"];
type Of<K extends Kind> = Extract<Decision, { type: K }>;

const BULLET = word(BULLETS);
const GUN_2 = opt(among([2]));

/** Each kind's fields besides `type`, held to its type: a field added to one fails `tsc` until it is checked. */
const FIELDS: { [K in Kind]: FieldsOf<Of<K>, "type"> } = {
  reveal: { seat: SEAT, power: word(POWERS) },
  bullet: { seat: SEAT, card: BULLET, gun: GUN_2 },
  aim: { seat: SEAT, target: SEAT_OR_NULL, gun: GUN_2 },
  privilege: { seat: SEAT, order: SEAT_OR_NULL },
  courage: { seat: SEAT, lieDown: flag },
  "doesnt-hurt": { seat: SEAT, use: flag },
  phone: { seat: SEAT, flip: flag },
  specialist: { seat: SEAT, discard: orNull(BULLET), use: opt(flag) },
  "take-gun": { seat: SEAT, from: SEAT_OR_NULL },
  pick: { seat: SEAT, card: whenGodfather(word(LOOT_CARDS)), discard: opt(BULLET) },
};
const DECISION = variant("type", FIELDS);

/**
 * A decision, or why not: not an object, an unknown `type`, a field missing, extra, or of the wrong type or range.
 * The error's field is its path from `at` (default `decision`), e.g. `decision.card`.
 */
export function decodeDecision(x: unknown, at?: string): Decoded<Decision> {
  const bad = DECISION(x, at === undefined ? "decision" : at);
  return bad === null ? { ok: true, value: x as Decision } : { ok: false, error: bad };
}

/**
 * A button the host's dashboard shows for a decision the guns cannot give (the simulator's host presses them too):
 * its label, the word `host.<word>` in the dashboard's word files, and the decision's fields it sends.
 */
export interface HostChoice<K extends Kind> {
  readonly word: string;
  /** bullet cards the label names, by placeholder */
  readonly cards?: Readonly<Record<string, Bullet>>;
  /** one button per dead player, named `{name}` in the label, whose seat `fields` is given */
  readonly each?: "dead";
  fields(seat: Seat): Omit<Of<K>, "type" | "seat">;
}

/** The host's choices for each decision entered as buttons (the draft and the privilege have forms of their own). */
export const HOST_CHOICES: { readonly [K in Kind]?: readonly HostChoice<K>[] } = {
  "doesnt-hurt": [
    { word: "useIt", fields: () => ({ use: true }) },
    { word: "dontUseIt", fields: () => ({ use: false }) },
  ],
  // her bbb was used: she takes it back giving up a bang or a click (none when she has no card left), or not
  specialist: [
    { word: "specialistGiveUp", cards: { bbb: "bbb", card: "bang" }, fields: () => ({ discard: "bang" }) },
    { word: "specialistGiveUp", cards: { bbb: "bbb", card: "click" }, fields: () => ({ discard: "click" }) },
    { word: "specialistTake", cards: { bbb: "bbb" }, fields: () => ({ discard: null }) },
    { word: "specialistKeep", fields: () => ({ discard: null, use: false }) },
  ],
  "take-gun": [
    { word: "noGun", fields: () => ({ from: null }) },
    { word: "gunOf", each: "dead", fields: (from) => ({ from }) },
  ],
  phone: [
    { word: "phoneFlip", fields: () => ({ flip: true }) },
    { word: "phonePass", fields: () => ({ flip: false }) },
  ],
};

/** The decision a host choice sends for `seat` (`at`: the seat an `each` button names, else `seat`). */
export function hostDecision<K extends Kind>(type: K, seat: Seat, c: HostChoice<K>, at: Seat = seat): Of<K> {
  // no object spread: the protocol is compiled to ES5 for the firmware, where a spread needs a helper
  const d: Record<string, unknown> = { type, seat };
  const fields = c.fields(at) as Record<string, unknown>;
  for (const k in fields) d[k] = fields[k];
  return d as Of<K>;
}
