// One whole game played by the simulator's people on a fleet of virtual guns that is already paired and calibrated,
// against a hub it reaches as a client over MQTT (`cng demo`, hub/src/bench/demo-game.ts, starts the hub and the fleet first).
import { decodeTableEvents, decodeTableState, type GameResult as Outcome, tableTopic } from "@cng/protocol";
import type { Decision, Edition, GameEvent, Seat } from "../rules/index.js";
import type { TableStatus } from "../table/ports.js";
import type { Recentre } from "../table/recentre.js";
import { DEFAULT_TIMING } from "../table/timing.js";
import { CommandClient } from "./commands.js";
import { type Fleet, simClientId } from "./fleet.js";
import { BotPlayer, type SecretMode } from "./player.js";
import { STRATEGIES, Strategy, type StrategyName } from "./strategies.js";
import type { TableState } from "./table-view.js";
import { waitOn } from "./wait.js";

export const NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou"];

export type Speed = "fast" | "normal";

/** Default (real table) count pace over fast's: how much quicker the simulated people are at fast speed. */
const FAST_TEMPO = 300 / 700;
/** the table's fast timing, with counts a person can still follow */
const FAST_COUNTS = { countPaceMs: 350, shortCountPaceMs: 300 };

export interface GameOptions {
  edition: Edition;
  players: number;
  seed: number;
  speed: Speed;
  powers?: boolean;
  cop?: boolean;
  /** per seat (cycled): default cautious, aggressive, greedy, random, ... */
  strategies?: StrategyName[];
  /** per seat, or one for all (default console) */
  secrets?: SecretMode | SecretMode[];
  /** the table's per-round re-centre (default: snapshots only) */
  recentre?: Recentre;
  /** pause before each round's count, ms (default: fast 150, normal 2500) */
  roundPauseMs?: number;
  /** give up after this long (default 10 minutes) */
  timeoutMs?: number;
  /** progress lines (round by round) */
  progress?: (line: string) => void;
  /** the table's steps and activities as they change, for people tuning timings */
  trace?: (line: string) => void;
  /** called once the game runs, with the players (tests use it to meddle) */
  onStart?: (players: BotPlayer[], gameId: number) => void;
  /**
   * a browser speaks the counts (`--voice LANG`): the table keeps the real table's lead-in even at fast speed. The
   * count's first word is due that long after the state announcing it leaves the hub, and at fast speed's 100 ms a
   * browser on a busy laptop was measured saying it up to 48 ms late.
   */
  spoken?: boolean;
  /** every table/state the host's screen gets (the weather bench reads the counts' times from it) */
  onState?: (s: TableState) => void;
}

export interface GameResult {
  game: number;
  /** the docs/scenarios.md output shape */
  result: Outcome;
  rounds: number;
  ms: number;
  players: BotPlayer[];
}

export interface Connection {
  url: string;
  table: string;
  pin: string;
  /** the broker login of the host's and the bots' clients (a dynamic-security broker: the admin's) */
  login?: { username: string; password: string };
}

function secretsOf(o: GameOptions): SecretMode[] {
  const s = o.secrets ?? "console";
  return Array.from({ length: o.players }, (_, i) => (Array.isArray(s) ? s[i % s.length]! : s));
}

function strategyOf(o: GameOptions, seat: Seat): StrategyName {
  const list = o.strategies?.length ? o.strategies : STRATEGIES;
  return list[seat % list.length]!;
}

/** One line per notable public event, for people watching. */
export function describeEvents(events: readonly GameEvent[], names: readonly string[]): string[] {
  const n = (s: Seat | null) => (s === null ? "nobody" : (names[s] ?? `seat ${s}`));
  const out: string[] = [];
  for (const e of events) {
    switch (e.type) {
      case "round-start":
        out.push(
          `round ${e.round}: Godfather ${n(e.godfather)}, loot ${e.loot.map((l) => (typeof l === "number" ? `$${l.toLocaleString("en-US")}` : l)).join(" ")}`,
        );
        break;
      case "shot":
        if (e.target !== null) out.push(`  ${n(e.seat)} fires a ${e.card} at ${n(e.target)}`);
        break;
      case "lie-down":
        out.push(`  ${n(e.seat)} lies down`);
        break;
      case "wound":
        out.push(`  ${n(e.seat)} is wounded (${e.wounds})`);
        break;
      case "death":
        out.push(`  ${n(e.seat)} dies`);
        break;
      case "split":
        if (e.sharers.length === 0) out.push("  nobody shares: the bills stay on the table");
        else if (e.each === 0) out.push(`  ${e.sharers.map(n).join(", ")} cannot split the bills equally: they stay`);
        else out.push(`  ${e.sharers.map(n).join(", ")} take $${e.each.toLocaleString("en-US")} each`);
        break;
      case "pick":
        out.push(`  ${n(e.seat)} takes ${e.card}`);
        break;
      case "power-revealed":
        out.push(`  ${n(e.seat)} reveals ${e.power}`);
        break;
      case "phone":
        if (e.alerted) out.push("  the cop calls the reinforcements");
        break;
      case "game-over":
        out.push(
          e.winners.length === 0
            ? "game over: nobody wins"
            : `game over: ${e.winners.map(n).join(", ")} win${e.winners.length === 1 ? "s" : ""}`,
        );
        break;
    }
  }
  return out;
}

/** A bot at each seat, on its seat's console with the token the host gives it, holding its seat's gun. */
async function joinPlayers(
  hub: Connection,
  fleet: Fleet,
  o: GameOptions,
  secrets: SecretMode[],
  players: BotPlayer[],
): Promise<void> {
  const host = fleet.host;
  const relay = async (decision: Decision) => {
    await host.request("host.decide", { decision });
  };
  for (let seat = 0; seat < o.players; seat++) {
    const { token } = await host.request("seat.token", { seat });
    players.push(
      await BotPlayer.join({
        url: hub.url,
        table: hub.table,
        seat,
        token,
        strategy: new Strategy(strategyOf(o, seat), o.seed, seat),
        gun: fleet.guns[seat]!,
        secrets: secrets[seat],
        ...(hub.login ? { login: hub.login } : {}),
        relay,
        log: (l) => o.progress?.(`  (${l})`),
      }),
    );
  }
}

/** The host's game.new for these options: the host starts each round itself (`autoRound: false`). */
function newGameArgs(o: GameOptions, names: string[], secrets: SecretMode[]) {
  return {
    edition: o.edition,
    players: names,
    seed: o.seed,
    powers: o.powers === true,
    cop: o.cop === true,
    table: {
      secrets,
      timing: o.speed === "fast" ? ("fast" as const) : ("default" as const),
      // fast counts, but long enough for a brisk swing the gyro can follow (see hand.ts)
      ...(o.speed === "fast"
        ? { timingOverrides: { ...FAST_COUNTS, ...(o.spoken ? { leadInMs: DEFAULT_TIMING.leadInMs } : {}) } }
        : {}),
      autoRound: false,
      ...(o.recentre ? { recentre: o.recentre } : {}),
    },
  };
}

/** Plays one whole game with bots on a paired, calibrated fleet; resolves with the result once it is over. */
export async function playGame(hub: Connection, fleet: Fleet, o: GameOptions): Promise<GameResult> {
  const clock = fleet.clock;
  const started = clock.now();
  const progress = o.progress ?? (() => {});
  const names = NAMES.slice(0, o.players);
  const secrets = secretsOf(o);
  if (fleet.guns.length < o.players) throw new Error(`${o.players} players need ${o.players} guns`);
  const host = fleet.host;
  const players: BotPlayer[] = [];
  try {
    await joinPlayers(hub, fleet, o, secrets, players);
    const watch = await CommandClient.connect(hub.url, {
      table: hub.table,
      clientId: simClientId("watch", hub.table),
      username: hub.login?.username ?? "host",
      password: hub.login?.password ?? hub.pin,
      auth: hub.pin,
    });
    let state: TableState | null = null;
    let gameId: number | null = null;
    const startedRounds = new Set<number>();
    let lastTrace = "";
    const pause = o.roundPauseMs ?? (o.speed === "fast" ? 50 : 2500);
    try {
      await watch.subscribeDecoded(tableTopic(hub.table, "events"), decodeTableEvents, (msg) => {
        if (gameId === null || msg.game === gameId)
          for (const line of describeEvents(msg.events, names)) progress(line);
      });
      await watch.subscribeDecoded(tableTopic(hub.table, "state"), decodeTableState, (m) => {
        state = m;
        o.onState?.(m);
        const t: TableStatus | null = state.table;
        if (o.trace && t) {
          const a = t.activity;
          const key = `${t.round}:${t.step}:${a ? `${a.kind}${"purpose" in a ? a.purpose : ""}` : "-"}`;
          if (key !== lastTrace) o.trace(`[${clock.now() - started} ms] ${key} waiting ${JSON.stringify(t.waiting)}`);
          lastTrace = key;
        }
        if (state.id !== gameId || !t || t.over) return;
        // the host starts each round's count after a short pause (people settle, the dashboard shows the loot)
        if (t.waiting.some((w) => w.for === "start") && !startedRounds.has(t.round)) {
          startedRounds.add(t.round);
          clock.setTimer(pause, () => {
            host.request("round.start").catch((e: Error) => {
              startedRounds.delete(t.round);
              progress(`  (round.start: ${e.message})`);
            });
          });
        }
      });
      const r = await host.request("game.new", newGameArgs(o, names, secrets));
      gameId = r.game;
      progress(
        `game ${gameId}: ${o.edition}, ${o.players} players (${names.map((n, s) => `${n} ${strategyOf(o, s)}`).join(", ")})` +
          `${o.powers ? ", powers" : ""}${o.cop ? ", cop" : ""}`,
      );
      o.onStart?.(players, gameId);
      await waitOn(
        clock,
        "the game to end",
        o.timeoutMs ?? 600_000,
        () => {
          const s = state as TableState | null;
          return s?.id === gameId && s.game?.over;
        },
        50,
      );
      const end = await host.request("game.state");
      if (end.game === null || end.result === undefined) throw new Error("game.state gave the host no result");
      const rounds = (state as TableState | null)?.game?.round ?? 0;
      return { game: end.game, result: end.result, rounds, ms: clock.now() - started, players };
    } finally {
      await watch.close();
    }
  } finally {
    for (const p of players) await p.leave();
  }
}

export { FAST_TEMPO };
