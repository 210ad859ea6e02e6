// The whole game on one machine: a hub (or an external one), virtual guns running the real firmware, and bot
// players. `playGame` plays one game on a fleet that is already paired and calibrated; `runDemo` does the lot
// for `cng demo`.
import {
  decodeTableEvents,
  decodeTableState,
  isOneOf,
  type GameResult as Outcome,
  TABLE_LANGS,
  tableTopic,
} from "@cng/protocol";
import { admitGun } from "../broker/dynsec-admin.js";
import { type Hub, type HubOptions, startHub } from "../hub.js";
import type { Decision, Edition, GameEvent, Seat } from "../rules/index.js";
import { type Clock, RealClock } from "../table/clock.js";
import type { TableStatus } from "../table/ports.js";
import type { Recentre } from "../table/recentre.js";
import { DEFAULT_TIMING } from "../table/timing.js";
import { CommandClient } from "./commands.js";
import type { GunRuntime } from "./espruino/index.js";
import { Fleet, simClientId } from "./fleet.js";
import type { HumanTraits } from "./human.js";
import { BotPlayer, type SecretMode } from "./player.js";
import { STRATEGIES, Strategy, type StrategyName } from "./strategies.js";
import type { TableState } from "./table-view.js";
import { waitOn } from "./wait.js";
import type { WeatherProfile } from "./weather/profiles.js";
import { type Station, WeatherRelay } from "./weather/relay.js";

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

/** Plays one whole game with bots on a paired, calibrated fleet; resolves with the result once it is over. */
export async function playGame(hub: Connection, fleet: Fleet, o: GameOptions): Promise<GameResult> {
  const clock = fleet.clock;
  const started = clock.now();
  const progress = o.progress ?? (() => {});
  const names = NAMES.slice(0, o.players);
  const secrets = secretsOf(o);
  if (fleet.guns.length < o.players) throw new Error(`${o.players} players need ${o.players} guns`);
  const host = fleet.host;
  const relay = async (decision: Decision) => {
    await host.request("host.decide", { decision });
  };
  const players: BotPlayer[] = [];
  try {
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
          log: (l) => progress(`  (${l})`),
        }),
      );
    }
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
      const r = await host.request("game.new", {
        edition: o.edition,
        players: names,
        seed: o.seed,
        powers: o.powers === true,
        cop: o.cop === true,
        table: {
          secrets,
          timing: o.speed === "fast" ? "fast" : "default",
          // fast counts, but long enough for a brisk swing the gyro can follow (see hand.ts)
          ...(o.speed === "fast"
            ? { timingOverrides: { ...FAST_COUNTS, ...(o.spoken ? { leadInMs: DEFAULT_TIMING.leadInMs } : {}) } }
            : {}),
          autoRound: false,
          ...(o.recentre ? { recentre: o.recentre } : {}),
        },
      });
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

export interface DemoOptions extends GameOptions {
  /** the hub's settings (ports, data folder, ...) */
  hub?: HubOptions;
  board?: string;
  /** where the guns' firmware runs: Node's vm (default) or the real Espruino interpreter */
  runtime?: GunRuntime;
  traits?: HumanTraits;
  /** the people who watch their gun's colour correct a wrong one (default true) */
  feedback?: boolean;
  /** each chip's heading error beyond its model's noise (sim/fleet.ts) */
  imuErrors?: boolean;
  /** white noise σ on each BNO085 gun's reported yaw, degrees (the accuracy bench's σ, on the real firmware) */
  yawNoise?: number;
  /** poses per gun in the calibration wizard */
  poses?: 1 | 2 | 3;
  /** gun ids are `<prefix><seat>` (default sim; on a dynamic-security broker `<table>-sim`: ids are broker-wide) */
  idPrefix?: string;
  /** called once the hub is up, with the dashboard URL */
  onHub?: (hub: Hub) => void;
  /** after the game, before everything stops: e.g. keep the dashboard up until Ctrl-C */
  hold?: () => Promise<void>;
  /**
   * one time for the hub, the guns and the bots (default: real). Tests pass a ManualClock they drive
   * (tests/play/test-time.ts): a whole game in a fraction of its time, events in the order of the table's time.
   */
  clock?: Clock;
  /** the WiFi between the guns and phones and the hub (sim/weather): default none, loopback */
  weather?: WeatherProfile;
  /** once the fleet is paired and calibrated, before the game (the weather bench probes its triggers here) */
  beforeGame?: (fleet: Fleet) => Promise<void>;
}

/** Starts a hub with its embedded broker, the guns and the bots, plays one game, and stops it all. */
export interface DemoResult extends GameResult {
  hub: { dashboard: string; data: string };
  /** the guns that played: their board and where their firmware ran */
  guns: { id: string; board: string; runtime: GunRuntime }[];
  /** the relay's stations when the game had weather: their one-way delays, drop-outs */
  weather?: readonly Station[];
}

export async function runDemo(o: DemoOptions): Promise<DemoResult> {
  const progress = o.progress ?? (() => {});
  const hub = await startHub({ ...o.hub, ...(o.clock ? { clock: o.clock } : {}) });
  let fleet: Fleet | undefined;
  let relay: WeatherRelay | undefined;
  try {
    o.onHub?.(hub);
    const dynsec = hub.mode === "external" && hub.config.dynsec === true;
    const login =
      dynsec && hub.config.brokerUser && hub.config.brokerPassword
        ? { username: hub.config.brokerUser, password: hub.config.brokerPassword }
        : undefined;
    const conn: Connection = { url: hub.urls.mqtt, table: hub.table, pin: hub.pin, ...(login ? { login } : {}) };
    if (o.weather) {
      const u = new URL(conn.url);
      relay = new WeatherRelay(
        o.weather,
        { host: u.hostname, port: Number(u.port || 1883) },
        o.clock ?? new RealClock(),
        o.seed,
      );
    }
    fleet = await Fleet.start({
      ...(relay ? { weather: relay } : {}),
      ...conn,
      ...(login ? { admit: (guns) => admitGun({ ...login, url: conn.url, table: conn.table }, guns) } : {}),
      ...(o.idPrefix ? { idPrefix: o.idPrefix } : dynsec ? { idPrefix: `${hub.table.slice(0, 24)}-sim` } : {}),
      guns: o.players,
      seed: o.seed,
      board: o.board,
      runtime: o.runtime,
      traits: o.traits,
      ...(o.feedback === false ? { feedback: false } : {}),
      ...(o.imuErrors ? { imuErrors: true } : {}),
      ...(o.yawNoise ? { yawNoise: o.yawNoise } : {}),
      ...(o.clock ? { clock: o.clock } : {}),
      tempo: o.speed === "fast" ? FAST_TEMPO : 1,
      log: progress,
    });
    await fleet.calibrate(o.poses ?? 1);
    await o.beforeGame?.(fleet);
    const spoken = o.spoken ?? isOneOf(TABLE_LANGS, o.hub?.voice);
    const r = await playGame(conn, fleet, { ...o, spoken });
    await o.hold?.();
    const guns = fleet.guns.map((g) => ({ id: g.id, board: g.gun.board.name, runtime: g.gun.runtime }));
    return {
      ...r,
      hub: { dashboard: hub.urls.dashboard, data: hub.config.data },
      guns,
      ...(relay ? { weather: [...relay.all] } : {}),
    };
  } finally {
    await fleet?.stop();
    await relay?.close();
    await hub.close();
  }
}

export { FAST_TEMPO };
