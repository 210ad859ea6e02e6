// The MQTT side: the embedded broker (none with an external one), the hub's own client on whichever it is, the venue
// view read through that client, and mosquitto's dynamic security when asked for.

import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { SecretLimiter } from "../access/limiter.js";
import { DynsecControl, DynsecProvisioner, DynsecTable } from "../broker/dynsec.js";
import { type EmbeddedBroker, startEmbeddedBroker } from "../broker/embedded.js";
import { checkGunProof } from "../broker/gun-proof.js";
import { HUB_CLIENT_PREFIX } from "../broker/holders.js";
import { SeenNonces } from "../broker/nonces.js";
import { Bus } from "../bus/bus.js";
import type { Venue } from "../venue/venue.js";
import { hubVenueFile, watchVenue } from "../venue/watch.js";
import type { Stored } from "./store.js";
import { type Later, localHost, type Wiring } from "./wiring.js";

/** The embedded broker, logging in the hub (`hubSecret`), the host, host devices, seats and guns; undefined when the
 * broker is external. Its presence events go to the guns service once that is up. */
export async function startBroker(
  { config, mode, log, now, closers }: Wiring,
  store: Stored,
  limiter: SecretLimiter,
  hubSecret: string,
  later: Later,
): Promise<EmbeddedBroker | undefined> {
  if (mode !== "embedded") return undefined;
  const { devices, registry, secrets } = store;
  const nonces = new SeenNonces(now);
  const broker = await startEmbeddedBroker({
    table: config.table,
    bind: config.bind,
    port: config.mqttPort,
    log: log.child({ part: "broker" }),
    limiter,
    credentials: {
      hubSecret,
      hostPin: () => store.pin,
      hostDevice: (t) => devices.check(t, now()),
      isPaired: (g) => registry.isPaired(g),
      checkGun: (g, s) => secrets.checkGun(g, s),
      seatOfToken: (t) => secrets.seatOfToken(t),
      mayRequestPairing: (g) => registry.mayRequestPairing(g),
      hostDeviceKey: (d) => devices.keyHash(d, now()),
      seatToken: (s) => secrets.tokenOf(s),
      now,
      freshNonce: (n) => nonces.fresh(n),
      checkGunProof: (g, cid, p) => checkGunProof(secrets, g, cid, p),
    },
    events: {
      gunConnected: (g, pending) => later.guns?.connected(g, pending),
      gunDisconnected: (g, why) => later.guns?.disconnected(g, why),
      gunTwinRefused: (g) => later.guns?.twinRefused(g),
    },
  });
  closers.add(() => broker.close());
  return broker;
}

/** The hub's own client, on the embedded broker as `hub`, else on the external one with the configured login. */
export async function connectBus(
  { config, log, closers }: Wiring,
  broker: EmbeddedBroker | undefined,
  hubSecret: string,
): Promise<{ bus: Bus; url: string }> {
  const url = broker ? `mqtt://${localHost(config.bind)}:${broker.port}` : config.broker!;
  const bus = await Bus.connect({
    url,
    // unguessable, and on the embedded broker kept for the hub's login alone (broker/holders.ts): a client that took
    // the hub's id would throw the hub off its own broker
    clientId: `${HUB_CLIENT_PREFIX}${config.table}-${randomBytes(6).toString("hex")}`,
    username: broker ? "hub" : config.brokerUser,
    password: broker ? hubSecret : config.brokerPassword,
    log: log.child({ part: "bus" }),
  });
  closers.add(() => bus.close());
  return { bus, url };
}

/** The venue view (/venue): this table, or with an external broker every table on it. */
export function followVenue({ config, mode, log }: Wiring, bus: Bus): Promise<Venue> {
  return watchVenue(bus, {
    table: config.table,
    everyTable: mode === "external",
    file: join(config.data, hubVenueFile(config.table)),
    log: log.child({ part: "venue" }),
  });
}

/** mosquitto's dynamic-security plugin (`--dynsec`, external broker only): the hub makes each gun's broker login at
 * pairing. */
export async function startDynsec(
  { config, mode, log, closers }: Wiring,
  bus: Bus,
): Promise<DynsecProvisioner | undefined> {
  if (!config.dynsec || mode !== "external") return undefined;
  const control = new DynsecControl(bus, log.child({ part: "dynsec" }));
  await control.start();
  closers.add(() => control.close());
  const dt = new DynsecTable(control, config.table, log.child({ part: "dynsec" }));
  await dt.start();
  return new DynsecProvisioner(dt);
}
