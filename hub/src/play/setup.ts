// The `table` argument of game.new: checked from the network into a TableSetup (stored with the game, so a
// restart rebuilds the same table), and turned into the table's config.
import {
  BOT_NAMES,
  type BotName,
  isOneOf,
  type LayoutSpec,
  ok,
  RECENTRES,
  type Recentre,
  type Result,
  refuse,
  type SeatPoint,
  type SecretSpec,
  TABLE_TIMINGS,
  type TimingPreset,
} from "@cng/protocol";
import { customTable, roundTable, type SeatLayout } from "../aim/index.js";
import type { BotStyle } from "../rules/index.js";
import { RANDOM_STYLE } from "../rules/index.js";
import { randomBot } from "../table/bots.js";
import type { SecretSource, TableConfig } from "../table/ports.js";
import { DEFAULT_TIMING, FAST_TIMING, type TableTiming } from "../table/timing.js";

export const BOT_STYLES: { readonly [B in BotName]: BotStyle } = {
  random: RANDOM_STYLE,
  cautious: { lieDown: 0.5, aimNobody: 0.1, reveal: 0.1 },
  aggressive: { lieDown: 0.05, aimNobody: 0, reveal: 0.6 },
  greedy: { lieDown: 0.15, aimNobody: 0.02, reveal: 0.4 },
};

/** A table's setup as the game log keeps it (`timing` absent: the hub's default, filled in before it is kept). */
export interface TableSetup {
  layout: LayoutSpec | null;
  secrets: SecretSpec | SecretSpec[];
  timing?: TimingPreset;
  timingOverrides: Partial<TableTiming>;
  autoRound: boolean;
  /** absent: "snapshots" */
  recentre?: Recentre;
}

const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === "object" && !Array.isArray(x);
const bad = (msg: string) => refuse("bad-args", msg);

export function parseLayout(x: unknown): Result<LayoutSpec | null> {
  if (x === undefined || x === null) return ok(null);
  if (!isObj(x)) return bad("table.layout must be {round: N} or {points: [{x, y}, ...]}");
  if ("round" in x) {
    const n = x.round;
    return typeof n === "number" && Number.isInteger(n) && n >= 2 && n <= 16
      ? ok({ round: n })
      : bad("table.layout.round must be a whole number of seats, 2-16");
  }
  const pts = x.points;
  if (!Array.isArray(pts) || pts.length < 2 || pts.length > 16) return bad("table.layout.points: 2-16 {x, y}");
  const points: SeatPoint[] = [];
  for (const p of pts) {
    if (!isObj(p) || typeof p.x !== "number" || typeof p.y !== "number" || !Number.isFinite(p.x + p.y))
      return bad("table.layout.points: each point is {x, y} in metres");
    points.push({ x: p.x, y: p.y });
  }
  try {
    customTable(points);
  } catch (e) {
    return bad(`table.layout: ${(e as Error).message}`);
  }
  return ok({ points });
}

function parseSecret(x: unknown): Result<SecretSpec> {
  if (x === "physical" || x === "console") return ok(x);
  if (isObj(x) && isOneOf(BOT_NAMES, x.bot)) {
    const seed = x.seed;
    if (seed !== undefined && !(typeof seed === "number" && Number.isInteger(seed)))
      return bad("a bot's seed must be a whole number");
    return ok(seed === undefined ? { bot: x.bot } : { bot: x.bot, seed });
  }
  return bad(`a secret source is "physical", "console" or {bot: ${BOT_NAMES.join(" | ")}}`);
}

const TIMING_KEYS = Object.keys(DEFAULT_TIMING) as (keyof TableTiming)[];

/** `game.new`'s `table` (true: every default), decoded strictly; a layout is checked as the aim layer would build it. */
export function parseTableSetup(x: unknown): Result<TableSetup> {
  if (x === true) x = {};
  if (!isObj(x)) return bad("table must be an object");
  for (const k of Object.keys(x))
    if (!["layout", "secrets", "timing", "timingOverrides", "autoRound", "recentre"].includes(k))
      return bad(`unknown table option ${k.slice(0, 24)}`);
  const layout = parseLayout(x.layout);
  if (!layout.ok) return layout;
  let secrets: SecretSpec | SecretSpec[] = "physical";
  if (Array.isArray(x.secrets)) {
    if (x.secrets.length > 16) return bad("too many secret sources");
    const list: SecretSpec[] = [];
    for (const s of x.secrets) {
      const c = parseSecret(s);
      if (!c.ok) return c;
      list.push(c.value);
    }
    secrets = list;
  } else if (x.secrets !== undefined) {
    const c = parseSecret(x.secrets);
    if (!c.ok) return c;
    secrets = c.value;
  }
  const timing = x.timing;
  if (timing !== undefined && !isOneOf(TABLE_TIMINGS, timing))
    return bad(`table.timing is ${TABLE_TIMINGS.map((t) => JSON.stringify(t)).join(" or ")}`);
  const overrides: Partial<TableTiming> = {};
  if (x.timingOverrides !== undefined) {
    if (!isObj(x.timingOverrides)) return bad("table.timingOverrides must be an object");
    for (const [k, v] of Object.entries(x.timingOverrides)) {
      if (!TIMING_KEYS.includes(k as keyof TableTiming)) return bad(`unknown timing ${k.slice(0, 24)}`);
      if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 600_000)
        return bad(`timing ${k} must be whole ms, 0-600000`);
      overrides[k as keyof TableTiming] = v;
    }
  }
  const autoRound = x.autoRound ?? false;
  if (typeof autoRound !== "boolean") return bad("table.autoRound must be true or false");
  const recentre = x.recentre ?? "snapshots";
  if (!isOneOf(RECENTRES, recentre))
    return bad(`table.recentre is ${RECENTRES.map((r) => JSON.stringify(r)).join(", ")}`);
  const v: TableSetup = { layout: layout.value, secrets, timingOverrides: overrides, autoRound };
  if (timing !== undefined) v.timing = timing;
  if (recentre !== "snapshots") v.recentre = recentre;
  return ok(v);
}

export function layoutOf(spec: LayoutSpec | null, seats: number): SeatLayout {
  if (spec === null) return roundTable(seats);
  return "round" in spec ? roundTable(spec.round) : customTable(spec.points);
}

/** The table's config for a game of `players` seats; throws (with a message for the host) when it cannot fit. */
/** `seedBase` seeds the bots that name no seed (the game id: the same after a restart). */
export function tableConfig(setup: TableSetup, players: number, seedBase: number): TableConfig {
  const layout = layoutOf(setup.layout, players);
  if (layout.seats.length !== players)
    throw new Error(`the layout has ${layout.seats.length} seats, the game ${players} players`);
  const one = setup.secrets;
  const specs: SecretSpec[] = Array.isArray(one) ? one : Array.from({ length: players }, () => one);
  if (specs.length !== players) throw new Error(`give one secret source per player (${players})`);
  const secrets = specs.map((s, seat): SecretSource => {
    if (s === "physical" || s === "console") return { kind: s };
    const seed = s.seed ?? seedBase * 31 + seat + 1;
    return { kind: "bot", strategy: randomBot(seed, BOT_STYLES[s.bot]) };
  });
  const base = setup.timing === "fast" ? FAST_TIMING : DEFAULT_TIMING;
  return {
    layout,
    secrets,
    timing: { ...base, ...setup.timingOverrides },
    autoStart: setup.autoRound,
    recentre: setup.recentre ?? "snapshots",
  };
}
