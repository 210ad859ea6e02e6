// The game's words, each written once: a list of the values, and its type derived from the list. The rules, the hub,
// the simulator, the decoders and the dashboard (served this module's build) all read these; a new word goes here and
// the type checker shows every place that must handle it. Plain arrays: ES5-safe, and nothing the firmware does not
// import ends up in its bundle.

/** The game's two editions. */
export const EDITIONS = ["classic", "second"] as const;
export type Edition = (typeof EDITIONS)[number];

/** The bullet cards, in the order the rules engine counts a hand. `bbb` ("Bang! Bang! Bang!") is `classic` only. */
export const BULLETS = ["bbb", "bang", "click"] as const;
export type Bullet = (typeof BULLETS)[number];

/** The classic bills, in dollars, smallest first. */
export const BILLS = [5000, 10000, 20000] as const;
export type Bill = (typeof BILLS)[number];

/** The 2nd edition's loot cards. */
export const LOOT_CARDS = [
  "cash:5000",
  "cash:10000",
  "cash:20000",
  "diamond:1000",
  "diamond:5000",
  "diamond:10000",
  "painting",
  "clip",
  "first-aid",
] as const;
export type LootCard = (typeof LOOT_CARDS)[number];

/** The Super Powers (classic). What each one does is the rules engine's (hub/src/rules/powers.ts). */
export const POWERS = [
  "six-feet-under", // money for every dead player at the end
  "the-unbreakable", // dies at one more wound
  "you-dont-need-it-anymore", // may take a dead player's gun
  "dragon-skin", // a second wound in a round is blocked
  "the-insane", // revealed: a grenade when hurt
  "the-kid", // revealed: aims after everyone else
  "the-cunning", // revealed: picks a card after every aim
  "super-coward", // shame earns money
  "the-specialist", // takes a used Bang! Bang! Bang! back
  "it-doesnt-even-hurt", // shares though hurt
] as const;
export type PowerId = (typeof POWERS)[number];

/** The powers their owner reveals by choice (RULES decision 9); the others show themselves when their moment comes. */
export const CHOSEN_POWERS = ["the-insane", "the-kid", "the-cunning"] as const satisfies readonly PowerId[];
export type ChosenPower = (typeof CHOSEN_POWERS)[number];

/** The cop variant's roles. */
export const ROLES = ["cop", "gangster"] as const;
export type Role = (typeof ROLES)[number];

/** The parts of a round, in the order a round runs them (each edition runs the ones it has). */
export const STEPS = [
  "bullet", // every living player picks a card (a revealed Cunning excepted); chosen powers may be revealed
  "aim", // every living player aims (a revealed Kid excepted)
  "kid-aim", // classic powers: the Kid aims, seeing the others
  "cunning-bullet", // classic powers: the Cunning picks, seeing every aim
  "privilege", // second: the Godfather may order one player to re-aim
  "reaim", // second: the ordered player re-aims
  "courage", // lie down or stay
  "split", // classic powers: owners of It-doesn't-even-hurt decide
  "phone", // classic cop variant: the phone passes among the sharers, one at a time
  "specialist", // classic powers: the Specialist names the card to discard
  "take-gun", // classic powers: You-don't-need-it-anymore may take a dead player's gun
  "draft", // second: the loot draft, one pick at a time
  "over",
] as const;
export type Step = (typeof STEPS)[number];

/** The kinds of decision a player (or the host for them) makes; their fields are in decision.ts. */
export const DECISION_TYPES = [
  "reveal", // a power revealed by choice
  "bullet", // the secret card
  "aim", // a target, or nobody
  "privilege", // second: the Godfather's order to re-aim, or none
  "courage", // lie down or stay
  "doesnt-hurt", // share though hurt, or not
  "phone", // the cop flips the phone, or passes it
  "specialist", // the Specialist takes her bbb back, or not
  "take-gun", // a dead player's gun, or none
  "pick", // second: a loot card or the New Godfather token
] as const;
export type DecisionType = (typeof DECISION_TYPES)[number];

/** The feedback a gun plays. The name is a label; the pattern travels with the cue. */
export const CUE_NAMES = [
  "beat", // a count's "1", "2"
  "go", // a count's "3": the snapshot
  "lock", // the live target's colour
  "ambig", // no clear target: re-aim
  "wound",
  "dead",
  "turn", // your turn
  "win",
  "err", // refused
  "ident", // this gun, or a seat number
  "off",
] as const;
export type CueName = (typeof CUE_NAMES)[number];

/** The IMU chips a gun may carry (`sim`: a simulated one). */
export const IMU_KINDS = ["mpu6050", "bno085", "lsm6ds3", "sim"] as const;
export type ImuKind = (typeof IMU_KINDS)[number];

/** The languages the dashboard, the consoles and the voice speak. */
export const TABLE_LANGS = ["en", "fr", "fi"] as const;
export type TableLang = (typeof TABLE_LANGS)[number];

/** Whether `x` is one of `list`'s values. */
export function isOneOf<T extends string | number>(list: readonly T[], x: unknown): x is T {
  for (let i = 0; i < list.length; i++) if (list[i] === x) return true;
  return false;
}
