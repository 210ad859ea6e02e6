// The whole game on one machine (`cng demo`, and the benches that play games): a hub on its embedded broker (or an
// external one), the simulator's virtual guns running the real firmware and its bot players, playing one game on it
// (sim/game.ts), then all stopped.
import { isOneOf, TABLE_LANGS } from "@cng/protocol";
import { admitGun } from "../broker/dynsec-admin.js";
import { type Hub, type HubOptions, startHub } from "../hub.js";
import type { GunRuntime } from "../sim/espruino/index.js";
import { Fleet } from "../sim/fleet.js";
import { type Connection, FAST_TEMPO, type GameOptions, type GameResult, playGame } from "../sim/game.js";
import type { HumanTraits } from "../sim/human.js";
import type { WeatherProfile } from "../sim/weather/profiles.js";
import { type Station, WeatherRelay } from "../sim/weather/relay.js";
import { type Clock, RealClock } from "../table/clock.js";

export type { Speed } from "../sim/game.js";

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
   * (tests/fakes/time.ts): a whole game in a fraction of its time, events in the order of the table's time.
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
