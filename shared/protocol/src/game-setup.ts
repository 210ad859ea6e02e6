// `game.new`'s arguments: a game's setup (the rules engine's options), and how a physical table runs it. The game
// log keeps the setup, so a restarted hub decodes it again before the engine sees it.
import { among, type FieldsOf, flag, listOf, numberIn, opt, orNull, shape, text, whenNumber, word } from "./checks.js";
import type { Decoded } from "./errors.js";
import type { LayoutSpec, Seat } from "./table.js";
import { MAX_SEATS } from "./topics.js";
import { BILLS, type Bill, EDITIONS, type Edition, LOOT_CARDS, type LootCard, POWERS, type PowerId } from "./vocab.js";

/** A new game's options (docs/scenarios.md `setup`). */
export interface GameSetup {
  edition: Edition;
  /** names in seat order, clockwise */
  players: string[];
  /** default seat 0 */
  godfather?: Seat;
  /** shuffles the deck and deals powers and roles; default 0 */
  seed?: number;
  /** explicit draw order from the top (classic: bill values; second: card codes); completed from a seeded shuffle */
  deck?: (Bill | LootCard)[];
  powers?: boolean;
  cop?: boolean;
  /** fixed power deals by seat; the others are dealt from the seed */
  powerDeal?: (PowerId | null)[];
  /** fixed cop seat; otherwise dealt from the seed */
  copSeat?: Seat;
}

/** How a table's bots play (hub/src/play/setup.ts gives each its style). */
export const BOT_NAMES = ["random", "cautious", "aggressive", "greedy"] as const;
export type BotName = (typeof BOT_NAMES)[number];

/** Where a seat's secret card comes from: cards in hand, the player's console, or a bot. */
export type SecretSpec = "physical" | "console" | { bot: BotName; seed?: number };

/** A table's pace: the real one, or a quick one for tests and demos. */
export const TABLE_TIMINGS = ["default", "fast"] as const;
export type TimingPreset = (typeof TABLE_TIMINGS)[number];

/** How guns' yaw offsets are kept at a table (hub/src/table/recentre.ts). */
export const RECENTRES = ["pose", "snapshots", "none"] as const;
export type Recentre = (typeof RECENTRES)[number];

/** `game.new`'s `table`: a physical table runs the game (the commands README, "Table ops"). */
export interface TableArgs {
  layout?: LayoutSpec | null;
  /** one for every seat, or one per seat */
  secrets?: SecretSpec | SecretSpec[];
  timing?: TimingPreset;
  /** TableTiming's durations by name, ms */
  timingOverrides?: { [name: string]: number };
  autoRound?: boolean;
  recentre?: Recentre;
}

/** `game.new`'s arguments: the setup, and `table` (true: a table with every default). */
export type GameNewArgs = GameSetup & { table?: TableArgs | boolean };

const WHOLE = numberIn(-9007199254740991, 9007199254740991, true);
const FIELDS: FieldsOf<GameSetup> = {
  edition: word(EDITIONS),
  // the engine says how many players each edition is for
  players: listOf(text(4096), 4 * MAX_SEATS),
  godfather: opt(WHOLE),
  seed: opt(WHOLE),
  deck: opt(listOf(whenNumber(among(BILLS), word(LOOT_CARDS)), 256)),
  powers: opt(flag),
  cop: opt(flag),
  powerDeal: opt(listOf(orNull(word(POWERS)), 4 * MAX_SEATS)),
  copSeat: opt(WHOLE),
};
const SETUP = shape(FIELDS);

/**
 * A setup's shape, or why not: a field unknown, missing or of the wrong type. Whether the game can be played (player
 * counts, seats, cards left in the deck) is the rules engine's to say.
 */
export function decodeGameSetup(x: unknown, at?: string): Decoded<GameSetup> {
  const bad = SETUP(x, at === undefined ? "setup" : at);
  return bad === null ? { ok: true, value: x as GameSetup } : { ok: false, error: bad };
}
