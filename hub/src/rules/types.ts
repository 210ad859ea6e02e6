// The rules engine's domain types. Everything here is plain JSON data: the hub logs it and sends it as is. The game's
// words (cards, powers, steps, decision kinds), the decisions it takes and what a player or a viewer also sees
// (events, views) are the protocol's: one definition for the engine, the hub and every reader.
import {
  BILLS,
  type Bill,
  BULLETS,
  type Bullet,
  type Decision,
  type DecisionType,
  type Edition,
  type GameEvent,
  type GameSetup,
  LOOT_CARDS,
  type LootCard,
  POWERS,
  type PowerId,
  type Result,
  type Role,
  type Seat,
  type Step,
} from "@cng/protocol";

export type { Bill, Bullet, Decision, DecisionType, Edition, GameEvent, LootCard, PowerId, Role, Seat, Step };
export { BILLS, BULLETS, LOOT_CARDS, POWERS };

/** Unused bullet cards by kind, indexed by BULLET_INDEX: [bbb, bang, click]. */
export type Hand = readonly [number, number, number];

export const BULLET_INDEX: Readonly<Record<Bullet, 0 | 1 | 2>> = { bbb: 0, bang: 1, click: 2 };

export type RuleErrorCode =
  | "bad-options" // setup refused
  | "bad-decision" // malformed decision (unknown seat, unknown card…)
  | "game-over"
  | "wrong-step" // this decision is not expected in the current step
  | "not-your-turn" // someone else owes this decision (draft, phone)
  | "already-decided"
  | "dead-player"
  | "card-used" // no unused card of that kind
  | "self-aim"
  | "bad-target" // dead, unknown, or (privilege) the same target
  | "not-on-table"
  | "not-allowed"; // the rules forbid it (privilege in classic, flip by a gangster, power not owned…)

/** A refused decision: the state is unchanged. */
export interface RuleError {
  code: RuleErrorCode;
  /** the player who made the refused decision, or null when none applies (setup) */
  player: Seat | null;
  message: string;
}

/** Per-player data that lasts the whole game. Replaced, never mutated, when it changes. */
export interface Player {
  alive: boolean;
  wounds: number;
  /** classic: shame markers */
  shame: number;
  /** classic: money held; second: cash held (face values) */
  money: number;
  hand: Hand;
  /** second: loot held, by kind */
  cashCards: number;
  diamonds: number;
  diamondValue: number;
  paintings: number;
  /** classic powers */
  power: PowerId | null;
  revealed: boolean;
  /** a one-use power is spent (grenade thrown, bbb taken back, shared while hurt, gun taken) */
  spent: boolean;
  /** the second gun's unused cards (You-don't-need-it-anymore), or null */
  gun2: Hand | null;
  /** cop variant */
  role: Role | null;
}

export interface PhoneState {
  order: Seat[];
  at: number;
  flipped: boolean;
}

export interface DraftState {
  /** the drafters in picking order, starting with the first picker */
  order: Seat[];
  /** index into order of the player to pick */
  at: number;
}

/**
 * The whole game. Plain JSON. Apply never mutates a state: it copies only what a decision changes.
 * Round arrays are indexed by seat.
 */
export interface State {
  edition: Edition;
  names: string[];
  powers: boolean;
  cop: boolean;
  round: number;
  step: Step;
  over: boolean;
  winners: Seat[];
  godfather: Seat;
  /** seeded PRNG state (mulberry32); the engine draws nothing during play today, but owns its randomness */
  rng: number;
  /** the whole draw order; `deckPos` cards are dealt. Secret: never in a view. */
  deck: (Bill | LootCard)[];
  deckPos: number;
  /** classic: bills on the table, counts of [5000, 10000, 20000] */
  bills: [number, number, number];
  /** second: loot cards on the table, in the order they came */
  cards: LootCard[];
  /** second: the New Godfather token, "available" or taken by a seat this round */
  token: Seat | null;
  /** the common discard pile, counts [bbb, bang, click] */
  discardPile: Hand;
  players: Player[];
  /** money (classic) or loot cards (second) that left the game with dead players */
  removedByDeath: number;
  /** second: clips and first-aid kits used up */
  lootUsed: number;

  // ---- this round ----
  /** decisions still owed in a simultaneous step */
  owed: number;
  card: (Bullet | null)[];
  card2: (Bullet | null)[];
  /** -2 not aimed yet, -1 nobody, else the target seat */
  aim: number[];
  aim2: number[];
  /** -1 undecided, 0 stays, 1 lies down */
  courage: number[];
  /** wounds taken this round */
  hurt: number[];
  /** second: the player the Godfather ordered to re-aim, or -1 */
  ordered: Seat;
  grenade: boolean;
  /** classic powers: -1 not asked / undecided, 0 no, 1 uses It-doesn't-even-hurt */
  dhUse: number[];
  /** players who shared (or could have) this round */
  sharers: Seat[];
  phone: PhoneState | null;
  /** cop variant */
  switchboard: number;
  copDownsSinceAlert: number;
  /** Specialists owed a discard this round */
  specialists: Seat[];
  /** players who died this round (their guns can be taken) */
  diedNow: Seat[];
  draft: DraftState | null;
}

export interface Owed {
  seat: Seat;
  decision: DecisionType;
  gun?: 2;
}

/** What the round waits for. Hub-internal: it names powers' owners, so it is not a player view. */
export interface Pending {
  round: number;
  step: Step;
  /** decisions the engine waits for before it moves on */
  owed: Owed[];
  /** decisions a player may make now without being waited for (chosen power reveals) */
  optional: Owed[];
  /** draft or phone: whose turn it is */
  turn: Seat | null;
}

export type ApplyResult = { ok: true; state: State; events: readonly GameEvent[] } | { ok: false; error: RuleError };

/** A decision the hub's session took in (logged and applied): the next state and what happened. */
export type Applied = Result<{ state: State; events: readonly GameEvent[] }>;

/** A new game's options: the protocol's (`game.new`'s arguments, docs/scenarios.md `setup`). */
export type SetupOptions = GameSetup;
