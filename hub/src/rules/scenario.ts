// Scenario files (docs/scenarios.md): a whole game's decisions in one JSON file, played through the engine alone.
// The runner feeds each round's batches to the engine as per-player decisions, in the order the engine asks
// for them (pending), and reports what the engine refuses.

import type { GameResult, GameResultPlayer } from "@cng/protocol";
import { apply } from "./engine.js";
import { owedDecisions } from "./pending.js";
import { CLASSIC_LOOT, SECOND_LOOT } from "./round.js";
import { money, scores } from "./score.js";
import { newGame } from "./setup.js";
import { DECISION_RULES, SCENARIO_FIELDS } from "./steps/index.js";
import {
  type Bill,
  type Bullet,
  type Decision,
  type LootCard,
  type Owed,
  POWERS,
  type PowerId,
  type SetupOptions,
  type State,
} from "./types.js";

export interface ScenarioError {
  round: number;
  player: string | null;
  message: string;
}

export type ScenarioResult = { ok: true; output: GameResult; state: State } | { ok: false; error: ScenarioError };

class Invalid extends Error {
  constructor(
    readonly round: number,
    readonly player: string | null,
    message: string,
  ) {
    super(message);
  }
}

type Obj = Record<string, unknown>;

function isObj(x: unknown): x is Obj {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** A round as the file gives it: its reveals, the draft's picks, the privilege, and every decision's fields. */
interface Round {
  reveal: Obj;
  picks: unknown[];
  privilege: { player: unknown; aim: unknown } | null;
  /** each decision's field (steps/): by player name, or a list of names */
  fields: Map<string, Obj | unknown[]>;
}

function readRound(raw: unknown, r: number): Round {
  if (!isObj(raw)) throw new Invalid(r, null, `round ${r} must be an object`);
  const obj = (v: unknown, k: string): Obj => {
    if (v === undefined) return {};
    if (!isObj(v)) throw new Invalid(r, null, `round ${r}: ${k} must be an object`);
    return v;
  };
  const list = (v: unknown, k: string): unknown[] => {
    if (v === undefined) return [];
    if (!Array.isArray(v)) throw new Invalid(r, null, `round ${r}: ${k} must be a list`);
    return v;
  };
  const privilege = raw.privilege;
  if (privilege !== undefined && privilege !== null && !isObj(privilege))
    throw new Invalid(r, null, `round ${r}: privilege must be {"player": …, "aim": …}`);
  const fields = new Map<string, Obj | unknown[]>();
  for (const f of SCENARIO_FIELDS) {
    const holder = f.in === undefined ? raw : obj(raw[f.in], f.in);
    const at = f.in === undefined ? f.key : `${f.in}.${f.key}`;
    fields.set(f.key, f.kind === "map" ? obj(holder[f.key], at) : list(holder[f.key], at));
  }
  return {
    reveal: obj(raw.reveal, "reveal"),
    picks: list(raw.picks, "picks"),
    privilege: isObj(privilege) ? { player: privilege.player, aim: privilege.aim } : null,
    fields,
  };
}

/** Plays a parsed scenario. Never throws. */
export function playScenario(input: unknown): ScenarioResult {
  try {
    return play(input);
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, error: { round: e.round, player: e.player, message: e.message } };
    throw e;
  }
}

function play(input: unknown): ScenarioResult {
  if (!isObj(input)) throw new Invalid(0, null, "a scenario is a JSON object");
  const names = input.players;
  if (!Array.isArray(names) || !names.every((x) => typeof x === "string"))
    throw new Invalid(0, null, "players must be a list of names");
  const seatOf = (name: unknown, r: number, what: string): number => {
    const i = typeof name === "string" ? names.indexOf(name) : -1;
    if (i < 0)
      throw new Invalid(r, typeof name === "string" ? name : null, `${what}: unknown player ${JSON.stringify(name)}`);
    return i;
  };
  const opts = setupOf(input, names as string[], seatOf);
  const made = newGame(opts);
  if (!made.ok) {
    const p = made.error.player;
    throw new Invalid(0, p === null ? null : (names[p] ?? null), made.error.message);
  }
  let state = made.state;
  const rounds = input.rounds ?? [];
  if (!Array.isArray(rounds)) throw new Invalid(0, null, "rounds must be a list");

  rounds.forEach((raw, i) => {
    const r = i + 1;
    if (state.over) throw new Invalid(r, null, `round ${r} is listed after the game ended`);
    const round = readRound(raw, r);
    const used = new Set<string>();
    const step = (d: Decision, tag: string) => {
      const res = apply(state, d);
      if (!res.ok) {
        const p = res.error.player;
        throw new Invalid(r, p === null ? (names[d.seat] ?? null) : names[p]!, res.error.message);
      }
      used.add(tag);
      state = res.state;
    };
    for (const [name, power] of Object.entries(round.reveal)) {
      step({ type: "reveal", seat: seatOf(name, r, "reveal"), power: power as PowerId }, `reveal:${name}`);
    }
    let pick = 0;
    while (!state.over && state.round === r) {
      const o = owedDecisions(state)[0];
      if (o === undefined) throw new Invalid(r, null, `the engine waits for nothing in step ${state.step}`);
      const name = names[o.seat]!;
      if (o.decision === "pick") {
        const entry = round.picks[pick];
        if (entry === undefined) throw new Invalid(r, name, `the draft is not over: ${name} is to pick next`);
        step(
          pickDecision(entry, r, (n) => seatOf(n, r, "picks")),
          `pick:${pick}`,
        );
        pick++;
        continue;
      }
      const [d, tag] = fromRound(state, round, o, name, r, (n, what) => seatOf(n, r, what));
      step(d, tag);
    }
    checkLeftovers(state, round, used, pick, r, names as string[]);
  });
  return { ok: true, output: describe(state), state };
}

/** The game's options a scenario names: edition, players, Godfather, seed, deck, powers and roles. */
function setupOf(
  input: Obj,
  names: string[],
  seatOf: (name: unknown, r: number, what: string) => number,
): SetupOptions {
  const options = isObj(input.options) ? input.options : {};
  const opts: SetupOptions = {
    edition: input.edition as SetupOptions["edition"],
    players: names,
    powers: options.powers === true,
    cop: options.cop === true,
  };
  if (input.godfather !== undefined) opts.godfather = seatOf(input.godfather, 0, "godfather");
  if (input.seed !== undefined) opts.seed = input.seed as number;
  if (input.deck !== undefined) opts.deck = input.deck as SetupOptions["deck"];
  if (isObj(input.powers)) {
    const deal: (PowerId | null)[] = names.map(() => null);
    for (const [name, power] of Object.entries(input.powers)) {
      const seat = seatOf(name, 0, "powers");
      if (!POWERS.includes(power as PowerId)) throw new Invalid(0, name, `unknown power ${JSON.stringify(power)}`);
      deal[seat] = power as PowerId;
    }
    opts.powerDeal = deal;
  }
  if (isObj(input.roles)) {
    for (const [name, role] of Object.entries(input.roles)) {
      const seat = seatOf(name, 0, "roles");
      if (role === "cop") {
        if (opts.copSeat !== undefined) throw new Invalid(0, name, "there is exactly one cop");
        opts.copSeat = seat;
      } else if (role !== "gangster") throw new Invalid(0, name, `unknown role ${JSON.stringify(role)}`);
    }
    if (opts.copSeat === undefined) opts.cop = true;
  }
  return opts;
}

function pickDecision(entry: unknown, r: number, seatOf: (n: unknown) => number): Decision {
  if (!Array.isArray(entry) || entry.length < 2 || entry.length > 3)
    throw new Invalid(
      r,
      null,
      `a pick is [player, card] or [player, "clip", cardToDiscard], not ${JSON.stringify(entry)}`,
    );
  const seat = seatOf(entry[0]);
  const d: Decision = { type: "pick", seat, card: entry[1] as LootCard };
  if (entry.length === 3) d.discard = entry[2] as Bullet;
  return d;
}

/** The decision a round's batches give for one owed entry (its entry's reader), and a tag to mark the entry used. */
function fromRound(
  state: State,
  round: Round,
  o: Owed,
  name: string,
  r: number,
  seatOf: (n: unknown, what: string) => number,
): [Decision, string] {
  const reader = DECISION_RULES[o.decision].scenario;
  if (reader === null) throw new Invalid(r, name, `unexpected decision ${o.decision}`);
  const given = (key: string) => round.fields.get(key);
  return reader.read(state, o, name, {
    map: (key) => {
      const v = given(key);
      return v === undefined || Array.isArray(v) ? {} : v;
    },
    list: (key) => {
      const v = given(key);
      return Array.isArray(v) ? v : [];
    },
    privilege: round.privilege,
    seatOf,
    missing: (who, message) => new Invalid(r, who, message),
  });
}

/** Entries the round never asked for: a dead player deciding, a decision after the game ended, and so on. */
function checkLeftovers(
  state: State,
  round: Round,
  used: Set<string>,
  picks: number,
  r: number,
  names: string[],
): void {
  const check = (field: string, who: unknown[]) => {
    for (const name of who) {
      if (typeof name !== "string" || !names.includes(name))
        throw new Invalid(
          r,
          typeof name === "string" ? name : null,
          `${field}: unknown player ${JSON.stringify(name)}`,
        );
      if (used.has(`${field}:${name}`)) continue;
      const p = state.players[names.indexOf(name)]!;
      if (!p.alive) throw new Invalid(r, name, `${field}: ${name} is dead and cannot decide`);
      if (state.over) throw new Invalid(r, name, `${field}: the game ended before ${name}'s decision was needed`);
      throw new Invalid(r, name, `${field}: round ${r} never asked ${name} for this`);
    }
  };
  for (const [field, given] of round.fields) check(field, Array.isArray(given) ? given : Object.keys(given));
  if (round.privilege !== null && !used.has("privilege")) {
    const name = typeof round.privilege.player === "string" ? round.privilege.player : null;
    throw new Invalid(
      r,
      name,
      state.over ? "privilege: the game ended before it" : "privilege: no privilege step came",
    );
  }
  if (picks < round.picks.length) {
    const extra = round.picks[picks];
    const name = Array.isArray(extra) && typeof extra[0] === "string" ? extra[0] : null;
    throw new Invalid(
      r,
      name,
      state.over ? "picks: the game ended before the draft" : "picks: the draft was already over",
    );
  }
}

/** The docs/scenarios.md output: the game as it stands after the last round played (before the next loot). */
export function describe(state: State): GameResult {
  const classic = state.edition === "classic";
  // The engine starts the next round (and lays its loot) as soon as a round ends; report the table before that.
  const started = !state.over && state.round > 0;
  const played = started ? state.round - 1 : state.round;
  const score = scores(state);
  const players: Record<string, GameResultPlayer> = {};
  state.players.forEach((p, seat) => {
    const out: GameResultPlayer = {
      alive: p.alive,
      wounds: p.wounds,
      shame: p.shame,
      money: money(state, seat),
      score: score[seat]!,
    };
    if (!classic) out.loot = { cash: p.cashCards, diamonds: p.diamonds, paintings: p.paintings };
    if (state.powers) out.power = p.power;
    if (state.cop) out.role = p.role;
    players[state.names[seat]!] = out;
  });
  let table: GameResult["table"];
  if (classic) {
    const counts = [state.bills[0], state.bills[1], state.bills[2]];
    if (started)
      for (const b of state.deck.slice(state.deckPos - CLASSIC_LOOT, state.deckPos))
        counts[b === 5000 ? 0 : b === 10000 ? 1 : 2]!--;
    const bills: Bill[] = [];
    for (let i = 0; i < counts[2]!; i++) bills.push(20000);
    for (let i = 0; i < counts[1]!; i++) bills.push(10000);
    for (let i = 0; i < counts[0]!; i++) bills.push(5000);
    table = { bills };
  } else {
    table = { cards: started ? state.cards.slice(0, state.cards.length - SECOND_LOOT) : state.cards.slice() };
  }
  const out: GameResult = {
    edition: state.edition,
    round: played,
    over: state.over,
    winners: state.winners.map((s) => state.names[s]!),
    table,
    players,
  };
  if (!classic) out.godfather = state.names[state.godfather]!;
  if (state.cop) out.switchboard = state.switchboard;
  return out;
}
