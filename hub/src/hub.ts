// The hub controller: wires the broker (embedded or external), the hub's own MQTT client,
// guns, commands, the game log and the web server, one step a part (hub/src/wiring/). `startHub`
// is the one way in, for the CLI, tests and benchmarks alike.
import { randomBytes } from "node:crypto";
import { type TimingPreset, tableRoot } from "@cng/protocol";
import { SecretLimiter } from "./access/limiter.js";
import { type HubConfig, resolveConfig } from "./config.js";
import type { GameEngine } from "./game/engine.js";
import type { GameHost } from "./game/host.js";
import type { OtaBundle, OtaOptions, OtaService } from "./guns/ota.js";
import type { BrokerMode, GunService } from "./guns/service.js";
import type { GunStreams } from "./guns/streams.js";
import { type Logger, silentLogger } from "./log.js";
import type { BrokerAddress } from "./net/discovery.js";
import { lanUrls, onHttps } from "./net/lan.js";
import type { PlayService } from "./play/play.js";
import { type Clock, RealClock } from "./table/clock.js";
import { startCommands } from "./wiring/commands.js";
import { addDiscovery, addSerialGuns, addTableBox, bridgeCredentials, gunBrokerOf } from "./wiring/extras.js";
import { askPresence, startGuns } from "./wiring/guns.js";
import { connectBus, followVenue, startBroker, startDynsec } from "./wiring/mqtt.js";
import { setUpPlay, startPlay } from "./wiring/play.js";
import { openStore } from "./wiring/store.js";
import { startWebServer, tableVoice } from "./wiring/web.js";
import { Closers, type Later, localHost, type Wiring } from "./wiring/wiring.js";

export interface HubOptions extends Partial<HubConfig> {
  /** default: silent */
  log?: Logger;
  /** default: the rules engine in hub/src/rules */
  engine?: GameEngine;
  /** the table's timing when game.new's `table` names none (default: "default") */
  timing?: TimingPreset;
  /** serial port of a table box (Arduino with StandardFirmata): counts and results on an LED and a piezo */
  tableBox?: string;
  /** serial ports of guns on a USB cable, bridged onto the broker */
  serialGuns?: string[];
  /** updates over the air: timings (default OTA_DEFAULTS) */
  ota?: Partial<OtaOptions>;
  /** the bundle `guns.update` sends to a board's guns (default: the build's, hub/src/guns/bundles.ts) */
  otaBundle?: (board: string) => OtaBundle | string;
  /** the hub's time (default: real); tests that drive time pass a ManualClock (hub/src/table/clock.ts) */
  clock?: Clock;
}

export interface Hub {
  readonly config: HubConfig;
  readonly mode: BrokerMode;
  readonly table: string;
  /** the host PIN: `auth` in host requests, and the MQTT password of the `host` user */
  readonly pin: string;
  /** ports actually bound; `mqtt` is null with an external broker, `discovery` (UDP) null when off */
  readonly ports: { mqtt: number | null; http: number; https: number | null; discovery: number | null };
  /** where things are, for people and for clients on this machine */
  readonly urls: { dashboard: string; mqtt: string; ws: string | null };
  /**
   * where phones (dashboard URLs) and guns (broker `host:port`) reach the hub from the local network, at start; with
   * HTTPS, where phones get the CA to install
   */
  readonly lan: { dashboard: string[]; guns: string[]; ca?: string[] };
  readonly topicRoot: string;
  /** the hub's own MQTT client id: unguessable, and kept for the hub's login by the embedded broker */
  readonly clientId: string;
  readonly guns: GunService;
  /** paired guns' aim and trigger streams, decoded; set its consumers to take them */
  readonly streams: GunStreams;
  readonly game: GameHost;
  /** the real-time table, when the game has one */
  readonly play: PlayService;
  /** firmware updates over the air */
  readonly ota: OtaService;
  /**
   * For a bridge in this process that carries a paired gun (its hello names a nonce, no key): a login of its own and
   * the answer to the nonce, as the hub's serial bridges take them; null for a gun not paired here
   */
  readonly bridge: (gun: string, n: string) => { token: string; m: string } | null;
  close(): Promise<void>;
}

export async function startHub(options: HubOptions = {}): Promise<Hub> {
  const { log: givenLog, engine, timing, tableBox, serialGuns, ota, otaBundle, clock, ...settings } = options;
  const config = resolveConfig(settings);
  const log = givenLog ?? silentLogger();
  const time: Clock = clock ?? new RealClock();
  const w: Wiring = {
    config,
    mode: config.broker ? "external" : "embedded",
    log,
    now: () => time.now(),
    closers: new Closers(log),
  };
  const later: Later = { guns: null, game: null, venue: null, streamStats: null };
  try {
    const store = openStore(w);
    const hubSecret = randomBytes(24).toString("base64url");
    // one limiter for every wrong secret the hub is given, per source address and for the whole hub
    const limiter = new SecretLimiter({}, w.now);
    const broker = await startBroker(w, store, limiter, hubSecret, later);
    const speaker = tableVoice(w, store.settings);
    const web = await startWebServer(w, broker, speaker, later);
    const { bus, url } = await connectBus(w, broker, hubSecret);
    later.venue = await followVenue(w, bus);
    const provisioner = await startDynsec(w, bus);
    const gunParts = await startGuns(w, { bus, broker, store, provisioner, ota }, later);
    const playing = setUpPlay(w, { bus, store, guns: gunParts, engine, timing, clock: time }, later);
    if (tableBox) addTableBox(w, tableBox, playing.play);
    addSerialGuns(w, serialGuns ?? [], url, store.secrets);
    await startPlay(playing);
    await startCommands(w, { bus, broker, store, limiter, guns: gunParts, playing, otaBundle });
    const gunBroker = gunBrokerOf(w, broker);
    const discovery = await addDiscovery(w, gunBroker, store.registry, playing.play, store.secrets);
    await askPresence(w, store.registry, gunParts.guns);
    return {
      config,
      mode: w.mode,
      table: config.table,
      pin: store.pin,
      ...reach(config, broker?.port ?? null, web, discovery?.port ?? null, gunBroker),
      topicRoot: tableRoot(config.table),
      clientId: bus.client.options.clientId!,
      guns: gunParts.guns,
      streams: gunParts.streams,
      game: playing.game,
      play: playing.play,
      ota: gunParts.ota,
      bridge: bridgeCredentials(store.secrets),
      close: () => w.closers.closeAll(),
    };
  } catch (e) {
    await w.closers.closeAll();
    throw e;
  }
}

/** Where the hub is reached: the ports bound, the URLs for clients on this machine, the LAN's for phones and guns. */
function reach(
  config: HubConfig,
  mqtt: number | null,
  web: { port: number; httpsPort: number | null },
  discovery: number | null,
  gunBroker: BrokerAddress | null,
): Pick<Hub, "ports" | "urls" | "lan"> {
  const host = localHost(config.bind);
  const http = web.port;
  const https = web.httpsPort;
  const lan = lanUrls(config.bind, http, gunBroker);
  return {
    ports: { mqtt, http, https, discovery },
    urls: {
      dashboard: `http://${host}:${http}/`,
      mqtt: mqtt !== null ? `mqtt://${host}:${mqtt}` : config.broker!,
      ws: mqtt !== null ? `ws://${host}:${http}/mqtt` : null,
    },
    // with HTTPS, phones use it; the CA to install comes over plain HTTP
    lan:
      https === null
        ? lan
        : {
            ...lan,
            dashboard: onHttps(lan.dashboard, https),
            ca: lan.dashboard.map((u) => `${u}ca.crt`),
          },
  };
}
