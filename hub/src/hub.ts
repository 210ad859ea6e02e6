// The hub controller: wires the broker (embedded or external), the hub's own MQTT client,
// guns, commands, the game log and the web server. `startHub` is the one way in, for the
// CLI, tests and benchmarks alike.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type TimingPreset, tableRoot } from "@cng/protocol";
import { SecretLimiter } from "./access/limiter.js";
import { MAX_CLIENT_PAYLOAD } from "./broker/acl.js";
import { DynsecControl, DynsecProvisioner, DynsecTable } from "./broker/dynsec.js";
import { type EmbeddedBroker, MAX_PACKET_BYTES, startEmbeddedBroker } from "./broker/embedded.js";
import { Bus } from "./bus/bus.js";
import { RequestAuth } from "./commands/auth.js";
import { CommandServer } from "./commands/server.js";
import { type HubConfig, resolveConfig } from "./config.js";
import { type GameEngine, rulesEngine } from "./game/engine.js";
import { GameHost } from "./game/host.js";
import { GameSession } from "./game/session.js";
import { BatteryCalibration } from "./guns/battery.js";
import { otaBundle } from "./guns/bundles.js";
import { MountWizard } from "./guns/mount.js";
import { type OtaBundle, type OtaOptions, OtaService } from "./guns/ota.js";
import { GunRegistry } from "./guns/registry.js";
import { type BrokerMode, GunService } from "./guns/service.js";
import { GunStreams } from "./guns/streams.js";
import { type Logger, silentLogger } from "./log.js";
import { answerDiscovery, brokerAddressOf } from "./net/discovery.js";
import { lanUrls } from "./net/lan.js";
import { PlayService } from "./play/play.js";
import { startSerialGunBridge } from "./serial/index.js";
import { boardNames, bundlePathFor, loadBoard } from "./sim/espruino/board.js";
import { CalibrationStore } from "./store/calibrations.js";
import { dbPath, openDb } from "./store/db.js";
import { HostDevices } from "./store/devices.js";
import { GameLog } from "./store/game-log.js";
import { SecretStore } from "./store/secrets.js";
import { isLang, Settings } from "./store/settings.js";
import { TableLog } from "./store/table-log.js";
import { type Clock, RealClock } from "./table/clock.js";
import { followFeedback, startTableBox } from "./tablebox/index.js";
import type { Venue } from "./venue/venue.js";
import { hubVenueFile, VENUE_PAGE, watchVenue } from "./venue/watch.js";
import { Speaker } from "./voice/speaker.js";
import { startWeb, type WebServer } from "./web/server.js";

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
  readonly ports: { mqtt: number | null; http: number; discovery: number | null };
  /** where things are, for people and for clients on this machine */
  readonly urls: { dashboard: string; mqtt: string; ws: string | null };
  /** where phones (dashboard URLs) and guns (broker `host:port`) reach the hub from the local network, at start */
  readonly lan: { dashboard: string[]; guns: string[] };
  readonly topicRoot: string;
  readonly guns: GunService;
  /** paired guns' aim and trigger streams, decoded; set its consumers to take them */
  readonly streams: GunStreams;
  readonly game: GameHost;
  /** the real-time table, when the game has one */
  readonly play: PlayService;
  /** firmware updates over the air */
  readonly ota: OtaService;
  close(): Promise<void>;
}

function localHost(bind: string): string {
  return bind === "0.0.0.0" || bind === "::" ? "127.0.0.1" : bind;
}

export async function startHub(options: HubOptions = {}): Promise<Hub> {
  const {
    log: givenLog,
    engine: givenEngine,
    timing,
    tableBox,
    serialGuns,
    ota: otaOptions,
    otaBundle: givenBundle,
    clock: givenClock,
    ...settings
  } = options;
  const config = resolveConfig(settings);
  const log = givenLog ?? silentLogger();
  const engine = givenEngine ?? (rulesEngine as GameEngine);
  const mode: BrokerMode = config.broker ? "external" : "embedded";
  const time: Clock = givenClock ?? new RealClock();
  const clock = () => time.now();

  const cleanups: (() => Promise<void> | void)[] = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) {
      try {
        await c();
      } catch (e) {
        log.warn({ err: (e as Error).message }, "error while closing");
      }
    }
    cleanups.length = 0;
  };

  try {
    const db = openDb(dbPath(config.data, config.table), { warn: (msg) => log.warn(msg) });
    cleanups.push(() => void db.close());
    const secrets = new SecretStore(db);
    const devices = new HostDevices(db);
    const pin = secrets.hostPin(config.pin);
    const registry = new GunRegistry(secrets.guns(), config.lowBattery, clock());
    const hubSecret = randomBytes(24).toString("base64url");
    let guns: GunService | undefined;

    // one limiter for every wrong secret the hub is given, per source address and for the whole hub
    const limiter = new SecretLimiter({}, clock);
    let broker: EmbeddedBroker | undefined;
    if (mode === "embedded") {
      broker = await startEmbeddedBroker({
        table: config.table,
        bind: config.bind,
        port: config.mqttPort,
        log: log.child({ part: "broker" }),
        limiter,
        credentials: {
          hubSecret,
          hostPin: () => pin,
          hostDevice: (t) => devices.check(t, clock()),
          isPaired: (g) => registry.isPaired(g),
          checkGun: (g, s) => secrets.checkGun(g, s),
          seatOfToken: (t) => secrets.seatOfToken(t),
          mayRequestPairing: (g) => registry.mayRequestPairing(g),
        },
        events: {
          gunConnected: (g, pending) => guns?.connected(g, pending),
          gunDisconnected: (g, why) => guns?.disconnected(g, why),
          gunTwinRefused: (g) => guns?.twinRefused(g),
        },
      });
      cleanups.push(() => broker?.close());
    }

    // the table's voice: espeak-ng on this machine, else the browser's own; --voice LANG is the table's language too
    const speaker = new Speaker({ off: config.voice === "off" });
    if (speaker.engine === "browser") {
      log.warn(
        "espeak-ng not found: the dashboard speaks with the browser's own voice, less on the beat (apt-get install espeak-ng)",
      );
    }
    const settings = new Settings(db);
    if (isLang(config.voice)) settings.setLang(config.voice);
    const voice = async (lang: string, phrase: string, asText: boolean) => {
      const names = (game?.session.game?.state as { names?: string[] } | undefined)?.names ?? [];
      const none = { status: 404, type: "text/plain", body: Buffer.from("no such phrase\n") };
      if (!isLang(lang)) return none;
      if (asText) {
        const text = speaker.text(lang, phrase, names);
        return text === null
          ? none
          : { status: 200, type: "application/json", body: Buffer.from(JSON.stringify({ text })) };
      }
      const r = await speaker.render(lang, phrase, names);
      return r.ok ? { status: 200, type: "audio/wav", body: r.wav } : { ...none, status: r.status };
    };

    // where phones reach the dashboard from the local network (facts: the host's phone console links use it)
    let phones: string[] = [];
    // the venue view (/venue): the tables on this hub's broker, once the hub's client is up; the streams' counters
    let venue: Venue | null = null;
    let streamCounts: object | null = null;
    const web: WebServer = await startWeb({
      bind: config.bind,
      port: config.httpPort,
      log: log.child({ part: "web" }),
      maxWsPayload: MAX_PACKET_BYTES,
      mqtt: broker ? (s, address) => broker.handle(s, address) : undefined,
      voice,
      firmware: firmwareSource(),
      venue: { page: VENUE_PAGE, snapshot: () => venue?.snapshot() ?? { tables: [], leaderboard: [] } },
      facts: () => ({
        table: config.table,
        topicRoot: tableRoot(config.table),
        mode,
        mqttPort: broker?.port ?? null,
        ws: broker ? "/mqtt" : null,
        maxRequestBytes: MAX_CLIENT_PAYLOAD,
        voice: { engine: speaker.engine },
        lan: phones,
        streams: streamCounts,
      }),
    });
    cleanups.push(() => web.close());
    phones = lanUrls(config.bind, web.port, null).dashboard;

    const busUrl = broker ? `mqtt://${localHost(config.bind)}:${broker.port}` : config.broker!;
    const bus = await Bus.connect({
      url: busUrl,
      clientId: `cng-hub-${config.table}`,
      username: broker ? "hub" : config.brokerUser,
      password: broker ? hubSecret : config.brokerPassword,
      log: log.child({ part: "bus" }),
    });
    cleanups.push(() => bus.close());
    venue = await watchVenue(bus, {
      table: config.table,
      everyTable: mode === "external",
      file: join(config.data, hubVenueFile(config.table)),
      log: log.child({ part: "venue" }),
    });

    // mosquitto's dynamic-security plugin: the hub makes each gun's broker login at pairing
    let provisioner: DynsecProvisioner | undefined;
    if (config.dynsec && mode === "external") {
      const control = new DynsecControl(bus, log.child({ part: "dynsec" }));
      await control.start();
      cleanups.push(() => control.close());
      const dt = new DynsecTable(control, config.table, log.child({ part: "dynsec" }));
      await dt.start();
      provisioner = new DynsecProvisioner(dt);
    }

    guns = new GunService(
      bus,
      config.table,
      registry,
      secrets,
      log.child({ part: "guns" }),
      mode,
      (g) => broker?.kick(g),
      clock,
      provisioner,
    );
    if (provisioner) guns.onPresence((g, on) => provisioner.presence(g, on));
    await guns.start();
    // the IMU mounting step of the calibration wizard (calibrate.mount)
    const mount = new MountWizard(bus, config.table, guns, log.child({ part: "mount" }));
    await mount.start();
    cleanups.push(() => mount.close());
    // a gun's battery reading calibrated from the true volts (gun.battery)
    const battery = new BatteryCalibration(bus, config.table, guns, log.child({ part: "battery" }));
    await battery.start();
    cleanups.push(() => battery.close());
    // embedded: the hot streams come straight from the broker; external: through the hub's client
    const ota = new OtaService(bus, config.table, registry, log.child({ part: "ota" }), otaOptions, clock);
    await ota.start();
    cleanups.push(() => ota.stop());
    guns.onPresence((g, on) => ota.presence(g, on));
    guns.onGunInfo((g, info) => ota.info(g, info.fw));
    ota.onProgress((g, p) => {
      const r = registry.setOta(g, p);
      if (r) void guns?.publishStatus(r);
    });
    const streams = new GunStreams(broker ?? bus, config.table, registry, guns, clock, log.child({ part: "guns" }));
    await streams.start();
    streamCounts = streams.stats;

    const session = new GameSession(new GameLog(db), engine, clock);
    const game = new GameHost(session, bus, config.table, log.child({ part: "game" }));
    const resumed = session.resume();
    if (resumed) log.info({ game: resumed.id, decisions: resumed.decisions }, "resumed the game from its log");
    const play = new PlayService({
      bus,
      streams,
      table: config.table,
      guns,
      game,
      tableLog: new TableLog(db),
      calibrations: new CalibrationStore(db),
      log: log.child({ part: "table" }),
      defaultTiming: timing ?? "default",
      settings,
      clock: time,
    });
    cleanups.push(() => play.close());
    if (tableBox) {
      // the hub never waits for the box: missing or unplugged, it says so and carries on
      const box = startTableBox({ port: tableBox, log: log.child({ part: "tablebox" }) });
      cleanups.push(() => box.close());
      cleanups.push(play.dispatcher.subscribe(followFeedback(box)));
    }
    for (const path of serialGuns ?? []) {
      const bridge = startSerialGunBridge({
        path,
        mqttUrl: busUrl,
        table: config.table,
        log: log.child({ part: "serial", path }),
      });
      cleanups.push(() => bridge.close());
    }
    if (resumed) await game.publish(resumed);
    await play.start();

    const commands = new CommandServer(
      bus,
      {
        table: config.table,
        guns,
        secrets,
        devices,
        kickDevice: (d) => broker?.kickDevice(d),
        now: clock,
        game,
        play,
        mount,
        battery,
        ota,
        otaBundle: givenBundle ?? otaBundle,
      },
      new RequestAuth(secrets, devices, () => pin, limiter, clock),
      log.child({ part: "commands" }),
      (client) => broker?.sourceOf(client) ?? `client:${client}`,
    );
    await commands.start();

    // guns whose flashed hub address does not answer ask the local network for the table's hub (net/discovery.ts)
    const gunBroker = broker ? { host: config.bind, port: broker.port } : brokerAddressOf(config.broker!);
    const discovery = await answerDiscovery(
      config.discovery,
      config.table,
      gunBroker,
      log.child({ part: "discovery" }),
      // its own guns; any gun while it has none yet or listens for a pull to pair one (a table of the same name
      // elsewhere on the network does not draw this hub's guns over, nor this hub theirs)
      (gun) =>
        (gun !== undefined && registry.isPaired(gun)) ||
        !registry.all().some((g) => g.paired) ||
        play.pairListening !== null,
    );
    if (discovery) cleanups.push(() => discovery.close());

    // With an external broker the hub sees no connects: ask paired guns to say they are there.
    if (mode === "external") for (const g of registry.all()) await guns.command(g.id, { c: "info" });

    const host = localHost(config.bind);
    const hub: Hub = {
      config,
      mode,
      table: config.table,
      pin,
      ports: { mqtt: broker?.port ?? null, http: web.port, discovery: discovery?.port ?? null },
      urls: {
        dashboard: `http://${host}:${web.port}/`,
        mqtt: broker ? `mqtt://${host}:${broker.port}` : config.broker!,
        ws: broker ? `ws://${host}:${web.port}/mqtt` : null,
      },
      lan: lanUrls(config.bind, web.port, gunBroker),
      topicRoot: tableRoot(config.table),
      guns,
      streams,
      game,
      play,
      ota,
      close: cleanup,
    };
    return hub;
  } catch (e) {
    await cleanup();
    throw e;
  }
}

/** The board profiles and their built bundles, for the dashboard's browser flasher (/api/boards, /api/firmware). */
function firmwareSource() {
  return {
    boards: () =>
      boardNames().map((name) => {
        const b = loadBoard(name);
        // bat: the profile measures a LiPo through a divider (gun.json may say "bat": false, or a factor)
        return { name, chip: b.chip, links: b.links ?? ["wifi"], has: b.has ?? [], con: b.con, bat: !!b.bat };
      }),
    bundle: (board: string) => {
      if (!boardNames().includes(board)) return null;
      try {
        return readFileSync(bundlePathFor(board));
      } catch {
        return null;
      }
    },
  };
}
