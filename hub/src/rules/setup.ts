// Game setup: options in, the first round's state out (deck shuffled, powers and roles dealt, round 1 looted).
import { shuffleInPlace } from "./rng.js";
import { PLAYER_COUNT, startRound } from "./round.js";
import {
  BILLS,
  type Bill,
  type GameEvent,
  LOOT_CARDS,
  type LootCard,
  type Player,
  POWERS,
  type PowerId,
  type RuleError,
  type SetupOptions,
  type State,
} from "./types.js";

/** The classic money deck: 15 × $5,000, 15 × $10,000, 10 × $20,000. */
export function classicDeck(): Bill[] {
  const deck: Bill[] = [];
  for (let i = 0; i < 15; i++) deck.push(5000);
  for (let i = 0; i < 15; i++) deck.push(10000);
  for (let i = 0; i < 10; i++) deck.push(20000);
  return deck;
}

const SECOND_COUNTS: readonly [LootCard, number][] = [
  ["cash:5000", 15],
  ["cash:10000", 15],
  ["cash:20000", 10],
  ["diamond:1000", 5],
  ["diamond:5000", 3],
  ["diamond:10000", 1],
  ["painting", 10],
  ["clip", 3],
  ["first-aid", 2],
];

/** The 2nd-edition loot deck, 64 cards. */
export function secondDeck(): LootCard[] {
  const deck: LootCard[] = [];
  for (const [card, count] of SECOND_COUNTS) for (let i = 0; i < count; i++) deck.push(card);
  return deck;
}

export type SetupResult = { ok: true; state: State; events: GameEvent[] } | { ok: false; error: RuleError };

type Refusal = Extract<SetupResult, { ok: false }>;

function refuse(message: string, player: number | null = null): Refusal {
  return { ok: false, error: { code: "bad-options", player, message } };
}

/** Builds a new game, or refuses the options with a typed error. */
export function newGame(options: SetupOptions): SetupResult {
  const checked = checkOptions(options);
  if ("ok" in checked) return checked;
  const { edition, names, godfather, powers, cop } = checked;
  const n = names.length;
  // the seeded draws, always in this order: the deck, the powers, the cop
  const deck = dealDeck(edition, options.deck ?? [], checked.rng);
  if (!deck.ok) return deck.refused;
  const dealt = powers
    ? dealPowers(n, options.powerDeal ?? [], deck.rng)
    : { ok: true as const, dealt: [], rng: deck.rng };
  if (!dealt.ok) return dealt.refused;
  let rng = dealt.rng;
  let copSeat = -1;
  if (cop) {
    if (options.copSeat !== undefined) {
      if (!Number.isInteger(options.copSeat) || options.copSeat < 0 || options.copSeat >= n)
        return refuse("the cop must be a seat");
      copSeat = options.copSeat;
    } else {
      const order = names.map((_, i) => i);
      rng = shuffleInPlace(order, rng);
      copSeat = order[0]!;
    }
  }
  const hand = edition === "classic" ? ([1, 2, 5] as const) : ([0, 3, 5] as const);
  const players: Player[] = names.map((_, seat) => ({
    alive: true,
    wounds: 0,
    shame: 0,
    money: 0,
    hand,
    cashCards: 0,
    diamonds: 0,
    diamondValue: 0,
    paintings: 0,
    power: powers ? dealt.dealt[seat]! : null,
    revealed: false,
    spent: false,
    gun2: null,
    role: cop ? (seat === copSeat ? "cop" : "gangster") : null,
  }));
  const state = freshState({ edition, names: names.slice(), powers, cop, godfather, rng, deck: deck.deck, players });
  const events: GameEvent[] = [];
  startRound(state, events);
  return { ok: true, state, events };
}

/** The options a game can be built from, or why not (nothing is drawn yet). */
function checkOptions(
  options: SetupOptions,
): Pick<State, "edition" | "names" | "godfather" | "powers" | "cop" | "rng"> | Refusal {
  const { edition, players: names } = options;
  if (edition !== "classic" && edition !== "second") return refuse(`unknown edition ${JSON.stringify(edition)}`);
  if (!Array.isArray(names)) return refuse("players must be a list of names");
  const { min, max } = PLAYER_COUNT[edition];
  if (names.length < min || names.length > max)
    return refuse(`edition ${edition} is for ${min}–${max} players, not ${names.length}`);
  const seen = new Set<string>();
  for (const name of names) {
    if (typeof name !== "string" || name.length === 0) return refuse("player names must be non-empty strings");
    if (seen.has(name)) return refuse(`two players are named ${name}`);
    seen.add(name);
  }
  const godfather = options.godfather ?? 0;
  if (!Number.isInteger(godfather) || godfather < 0 || godfather >= names.length)
    return refuse("the Godfather must be a seat");
  const powers = options.powers === true || options.powerDeal !== undefined;
  const cop = options.cop === true || options.copSeat !== undefined;
  if (edition === "second" && (powers || cop))
    return refuse("Super Powers and the cop variant belong to edition classic only (docs/rules.md, decision 12)");
  const seed = options.seed ?? 0;
  if (!Number.isInteger(seed)) return refuse("the seed must be an integer");
  return { edition, names, godfather, powers, cop, rng: seed | 0 };
}

type Refused = { ok: false; refused: Refusal };

/** The deck: the explicit top cards, then a seeded shuffle of what is left. */
function dealDeck(
  edition: State["edition"],
  top: readonly (Bill | LootCard)[],
  rng: number,
): { ok: true; deck: (Bill | LootCard)[]; rng: number } | Refused {
  const pool: (Bill | LootCard)[] = edition === "classic" ? classicDeck() : secondDeck();
  if (!Array.isArray(top)) return { ok: false, refused: refuse("deck must be a list") };
  for (const card of top) {
    const i = pool.indexOf(card);
    if (i < 0) {
      const known: readonly (Bill | LootCard)[] = edition === "classic" ? BILLS : LOOT_CARDS;
      return {
        ok: false,
        refused: refuse(
          known.includes(card)
            ? `the deck holds no more ${JSON.stringify(card)} cards`
            : `unknown ${edition} card ${JSON.stringify(card)}`,
        ),
      };
    }
    pool.splice(i, 1);
  }
  const next = shuffleInPlace(pool, rng);
  return { ok: true, deck: [...top, ...pool], rng: next };
}

/** The Super Powers: the fixed ones, then dealt from a seeded shuffle of the rest. */
function dealPowers(
  n: number,
  fixed: readonly (PowerId | null | undefined)[],
  rng: number,
): { ok: true; dealt: PowerId[]; rng: number } | Refused {
  const dealt: (PowerId | null)[] = new Array(n).fill(null);
  const left = POWERS.slice();
  for (let seat = 0; seat < n; seat++) {
    const power = fixed[seat];
    if (power === null || power === undefined) continue;
    const i = left.indexOf(power);
    if (i < 0) {
      const why = POWERS.includes(power) ? `power ${power} is dealt twice` : `unknown power ${JSON.stringify(power)}`;
      return { ok: false, refused: refuse(why, seat) };
    }
    left.splice(i, 1);
    dealt[seat] = power;
  }
  const next = shuffleInPlace(left, rng);
  for (let seat = 0; seat < n; seat++) if (dealt[seat] === null) dealt[seat] = left.pop()!;
  return { ok: true, dealt: dealt as PowerId[], rng: next };
}

/** A game's state before its first round, from what was dealt. */
function freshState(
  d: Pick<State, "edition" | "names" | "powers" | "cop" | "godfather" | "rng" | "deck" | "players">,
): State {
  // the keys in one order, the state's own (a state is written and compared as JSON)
  return {
    edition: d.edition,
    names: d.names,
    powers: d.powers,
    cop: d.cop,
    round: 0,
    step: "bullet",
    over: false,
    winners: [],
    godfather: d.godfather,
    rng: d.rng,
    deck: d.deck,
    deckPos: 0,
    bills: [0, 0, 0],
    cards: [],
    token: null,
    discardPile: [0, 0, 0],
    players: d.players,
    removedByDeath: 0,
    lootUsed: 0,
    owed: 0,
    card: [],
    card2: [],
    aim: [],
    aim2: [],
    courage: [],
    hurt: [],
    ordered: -1,
    grenade: false,
    dhUse: [],
    sharers: [],
    phone: null,
    switchboard: 0,
    copDownsSinceAlert: 0,
    specialists: [],
    diedNow: [],
    draft: null,
  };
}

/** Builds a new game; throws on bad options (use newGame for a typed result). */
export function setup(options: SetupOptions): State {
  const r = newGame(options);
  if (!r.ok) throw new Error(r.error.message);
  return r.state;
}
