// What a round step is, as data (boardgame.io's shape: a phase is a config object). A step says what it waits for
// and what happens at its ends; the decision it waits for says how it is checked and taken, how a random bot makes
// it, how a scenario file gives it and who makes it at a physical table. The round machine, the engine, the
// pending list, the bots, the scenario runner, the table and the views read these entries and nothing else about a
// step: `index.ts` holds one for every step and every decision, and `tsc` refuses one missing a part.
import { hasGun2 } from "../players.js";
import type { Rng } from "../rng.js";
import type {
  ApplyResult,
  Decision,
  DecisionType,
  Edition,
  GameEvent,
  Owed,
  Player,
  RuleErrorCode,
  Seat,
  State,
  Step,
} from "../types.js";

/** A step of a round (the game's end is not one). */
export type RoundStep = Exclude<Step, "over">;

export type DecisionOf<K extends DecisionType> = Extract<Decision, { type: K }>;

export type Refused = Extract<ApplyResult, { ok: false }>;

/** A decision taken: the next state (a copy), its events, and how many of the step's owed decisions it settles. */
export interface Taken {
  readonly s: State;
  readonly ev?: GameEvent[];
  /** 0: the step waits as before; when the owed count reaches 0 the round moves on */
  readonly settles: number;
}

export interface StepRule {
  /** the editions whose rounds run it, in the order of the protocol's STEPS */
  readonly editions: readonly Edition[];
  /** the decision it waits for */
  readonly decision: DecisionType;
  /** one decision at a time (a turn, or one player's): the engine waits for one more, whatever is owed */
  readonly oneAtATime: boolean;
  /** one player's turn after another (the table shows whose) */
  readonly turns: boolean;
  /** the table sees who is still choosing (a hold-up, a turn); otherwise the waiting stay unnamed */
  readonly waitingShown: boolean;
  /** Sets the step up; how many decisions it waits for (0: it is skipped). */
  enter(s: State): number;
  /** What happens once every decision is in. */
  leave?(s: State, ev: GameEvent[]): void;
  /** The decisions it waits for now, in seat order (a turn: only the player whose turn it is). */
  owed(s: State, out: Owed[]): void;
}

/** Who makes a decision at a physical table. */
export type MadeBy =
  | "guns" // read from the guns (the count, the trigger)
  | "cards" // the physical cards, learned at the reveal
  | "host" // the player's console, the host's dashboard or a bot
  | "choice"; // a player's own choice at any moment it is allowed (a power revealed)

/** A scenario round's field (docs/scenarios.md): by player name, or a list of names; `in` an object of the round. */
export interface ScenarioField {
  readonly key: string;
  readonly kind: "map" | "list";
  readonly in?: string;
}

/** What a decision's scenario reader is given: the round's fields and the runner's seat lookup. */
export interface ScenarioRound {
  /** the round's field read as its kind (empty when absent) */
  map(key: string): Record<string, unknown>;
  list(key: string): unknown[];
  /** the round's `privilege` object, or null */
  readonly privilege: { player: unknown; aim: unknown } | null;
  /** the seat of a player named in `what`, or a clear error */
  seatOf(name: unknown, what: string): Seat;
  /** the error a round's missing entry gives */
  missing(name: string, message: string): Error;
}

export interface ScenarioPart<K extends DecisionType> {
  readonly fields: readonly ScenarioField[];
  /** The decision the round gives for an owed entry, and the tag that marks its field entry used. */
  read(state: State, o: Owed, name: string, round: ScenarioRound): [DecisionOf<K>, string];
}

export interface BotStyle {
  /** chance to lie down at the courage count */
  lieDown: number;
  /** chance to aim at nobody */
  aimNobody: number;
  /** chance to reveal a chosen power when it may be revealed */
  reveal: number;
}

export interface DecisionRule<K extends DecisionType> {
  readonly made: MadeBy;
  /** Checks the decision of the living player `p` (named `who`) against the rules: taken, or refused. */
  apply(state: State, d: DecisionOf<K>, who: string, p: Player): Taken | Refused;
  /** A random bot's legal decision for an owed entry. */
  bot(state: State, o: Owed, rng: Rng, style: BotStyle): DecisionOf<K>;
  /** How a scenario file gives it; null: the format reads it itself (reveals before the round, picks in order). */
  readonly scenario: ScenarioPart<K> | null;
}

/**
 * A step each living player takes once per gun in play (the second gun's too): everyone whose power does not move
 * the decision after the others, or (`late`) only those whose power does.
 */
export function perGunStep(
  decision: "bullet" | "aim",
  late: boolean,
  goesLast: (p: Player) => boolean,
  open: (s: State, seat: Seat, gun: 1 | 2) => boolean,
): StepRule {
  return {
    editions: late ? ["classic"] : ["classic", "second"],
    decision,
    oneAtATime: false,
    turns: false,
    waitingShown: true,
    enter(s) {
      let owed = 0;
      for (const p of s.players) if (p.alive && goesLast(p) === late) owed += 1 + (hasGun2(p) ? 1 : 0);
      return owed;
    },
    owed(s, out) {
      const players = s.players;
      for (let seat = 0; seat < players.length; seat++) {
        const p = players[seat]!;
        if (!p.alive || goesLast(p) !== late) continue;
        if (open(s, seat, 1)) out.push({ seat, decision });
        if (hasGun2(p) && open(s, seat, 2)) out.push({ seat, decision, gun: 2 });
      }
    },
  };
}

export function fail(code: RuleErrorCode, player: Seat | null, message: string): Refused {
  return { ok: false, error: { code, player, message } };
}

export function isSeat(state: State, x: unknown): x is Seat {
  return typeof x === "number" && Number.isInteger(x) && x >= 0 && x < state.names.length;
}

/** A random living seat other than `seat` (and `avoid`), or null. */
export function randomTarget(state: State, seat: Seat, rng: Rng, avoid = -1): Seat | null {
  const players = state.players;
  const n = players.length;
  // probe a few random seats first: most players are usually alive
  for (let tries = 0; tries < 4; tries++) {
    const t = (seat + 1 + rng.int(n - 1)) % n;
    if (t !== avoid && players[t]!.alive) return t;
  }
  let count = 0;
  for (let t = 0; t < n; t++) if (t !== seat && t !== avoid && players[t]!.alive) count++;
  if (count === 0) return null;
  let r = rng.int(count);
  for (let t = 0; t < n; t++) {
    if (t === seat || t === avoid || !players[t]!.alive) continue;
    if (r-- === 0) return t;
  }
  return null;
}

/** A random card index of a hand, weighted by what it holds. */
export function randomCard(hand: readonly number[], rng: Rng): number {
  let r = rng.int(hand[0]! + hand[1]! + hand[2]!);
  for (let i = 0; i < 3; i++) {
    if (r < hand[i]!) return i;
    r -= hand[i]!;
  }
  return 2;
}
