// What the table's voice says, in English, French and Finnish: the counts, "Bang!", wounds and deaths by name, the
// draft's turn, the round's result in one sentence, the winner. A phrase is asked for by a short id from a closed
// grammar (never free text: nobody makes the hub speak what it likes), and worded here with the current game's
// names; numbers, money and lists of names are worded by the platform (Intl), not by hand.
import type { Lang } from "../store/settings.js";

/** The fixed words: the counts and the shot. */
const WORDS = {
  en: {
    one: "One",
    two: "Two",
    three: "Three!",
    courage: "Courage!",
    bang: "Bang!",
    nosplit: "Nobody shares the loot.",
  },
  fr: {
    one: "Un",
    two: "Deux",
    three: "Trois !",
    courage: "Cojones !",
    bang: "Bang !",
    nosplit: "Personne ne partage le butin.",
  },
  fi: {
    one: "Yksi",
    two: "Kaksi",
    three: "Kolme!",
    courage: "Rohkeutta!",
    bang: "Bang!",
    nosplit: "Kukaan ei jaa saalista.",
  },
} as const;

type Word = keyof (typeof WORDS)["en"];

/** Sentences about players: `{names}` is a list of names, `{money}` an amount; singular and plural forms. */
const SENTENCES: Record<Lang, Record<string, { one: string; other: string }>> = {
  en: {
    wound: { one: "{names} is hit.", other: "{names} are hit." },
    dead: { one: "{names} is dead.", other: "{names} are dead." },
    turn: { one: "{names}, your pick.", other: "{names}, your pick." },
    win: { one: "{names} wins!", other: "{names} win!" },
    split: { one: "{names} takes {money}.", other: "{names} take {money} each." },
    share: { one: "{names} takes the loot.", other: "{names} share the loot." },
  },
  fr: {
    wound: { one: "{names} est touché.", other: "{names} sont touchés." },
    dead: { one: "{names} est mort.", other: "{names} sont morts." },
    turn: { one: "À toi de choisir, {names}.", other: "À vous de choisir, {names}." },
    win: { one: "{names} gagne !", other: "{names} gagnent !" },
    split: { one: "{names} prend {money}.", other: "{names} prennent {money} chacun." },
    share: { one: "{names} prend le butin.", other: "{names} se partagent le butin." },
  },
  fi: {
    wound: { one: "{names} haavoittui.", other: "{names} haavoittuivat." },
    dead: { one: "{names} kuoli.", other: "{names} kuolivat." },
    turn: { one: "{names}, sinun vuorosi valita.", other: "{names}, teidän vuoronne valita." },
    win: { one: "{names} voittaa!", other: "{names} voittavat!" },
    split: { one: "{names} saa {money}.", other: "{names} saavat kukin {money}." },
    share: { one: "{names} vie saaliin.", other: "{names} jakavat saaliin." },
  },
};

/** espeak-ng's voice for each language */
export const VOICES: Record<Lang, string> = { en: "en", fr: "fr", fi: "fi" };

/** The phrase ids the dashboard may ask for. */
export const PHRASE_RE =
  /^(one|two|three|courage|bang|nosplit|(wound|dead|turn|win|share)(\.\d{1,2}){1,8}|split\.\d{1,9}(\.\d{1,2}){1,8})$/;

/** Every fixed phrase, and a named one of each kind for a game of `players` (for tests and warming the cache). */
export function samplePhrases(players: number): string[] {
  const seats = Array.from({ length: Math.min(players, 3) }, (_, i) => i).join(".");
  return [
    ...Object.keys(WORDS.en),
    "wound.0",
    `wound.${seats}`,
    "dead.1",
    "turn.2",
    "win.0",
    `win.${seats}`,
    "split.20000.0",
    `split.15000.${seats}`,
    `share.${seats}`,
  ];
}

/**
 * The sentence for phrase `id` in `lang`, with `names` the current game's players; null when the id is not one
 * (unknown kind, a seat that is not in the game, an amount that is not whole thousands).
 */
export function phraseText(lang: Lang, id: string, names: readonly string[]): string | null {
  if (!PHRASE_RE.test(id)) return null;
  const [kind, ...rest] = id.split(".");
  if (kind! in WORDS[lang]) return rest.length === 0 ? WORDS[lang][kind as Word] : null;
  const nums = rest.map(Number);
  let money: number | undefined;
  if (kind === "split") {
    money = nums.shift()!;
    if (money % 1000 !== 0 || money > 1e7) return null;
  }
  if (nums.some((s) => s >= names.length) || new Set(nums).size !== nums.length) return null;
  const who = new Intl.ListFormat(lang, { type: "conjunction" }).format(nums.map((s) => names[s]!));
  const forms = SENTENCES[lang][kind!];
  if (!forms) return null;
  const form = nums.length === 1 ? forms.one : forms.other;
  const amount =
    money === undefined
      ? ""
      : new Intl.NumberFormat(lang, {
          style: "currency",
          currency: "USD",
          currencyDisplay: "narrowSymbol",
          maximumFractionDigits: 0,
        }).format(money);
  return form.replace("{names}", who).replace("{money}", amount);
}
