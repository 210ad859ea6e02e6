// What a hub may add: a table box, guns on a USB cable, the answer to guns looking for their hub on the network.
import type { GunId } from "@cng/protocol";
import type { EmbeddedBroker } from "../broker/embedded.js";
import type { GunRegistry } from "../guns/registry.js";
import { answerDiscovery, type BrokerAddress, brokerAddressOf, type DiscoveryResponder } from "../net/discovery.js";
import type { PlayService } from "../play/play.js";
import { type BridgeLogin, startSerialGunBridge } from "../serial/index.js";
import type { SecretStore } from "../store/secrets.js";
import { followFeedback, startTableBox } from "../tablebox/index.js";
import type { Wiring } from "./wiring.js";

/** A table box (Arduino with StandardFirmata) on `port`, showing the table's cues. */
export function addTableBox({ log, closers }: Wiring, port: string, play: PlayService): void {
  // the hub never waits for the box: missing or unplugged, it says so and carries on
  const box = startTableBox({ port, log: log.child({ part: "tablebox" }) });
  closers.add(() => box.close());
  closers.add(play.dispatcher.subscribe(followFeedback(box)));
}

/**
 * What the hub's own bridges get for a paired gun, in-process from its store: a login of the bridge's own and the
 * answer to the gun's nonce (the dashboard's asks the same of the `gun.bridge` op); null for a gun not paired here.
 */
export function bridgeCredentials(secrets: SecretStore): (gun: GunId, n: string) => BridgeLogin | null {
  return (gun, n) => {
    const m = secrets.linkProof(gun, n);
    const token = m === undefined ? undefined : secrets.bridgeToken(gun);
    return m === undefined || token === undefined ? null : { token, m };
  };
}

/** Guns on USB cables (`paths`), each bridged onto the broker at `mqttUrl`. */
export function addSerialGuns(
  { config, log, closers }: Wiring,
  paths: readonly string[],
  mqttUrl: string,
  secrets: SecretStore,
): void {
  for (const path of paths) {
    const bridge = startSerialGunBridge({
      path,
      mqttUrl,
      table: config.table,
      log: log.child({ part: "serial", path }),
      credentials: bridgeCredentials(secrets),
    });
    closers.add(() => bridge.close());
  }
}

/** Where guns reach the broker: the embedded one on the hub's bind address, else the external one's (null: not
 * plain mqtt://HOST:PORT). */
export function gunBrokerOf({ config }: Wiring, broker: EmbeddedBroker | undefined): BrokerAddress | null {
  return broker ? { host: config.bind, port: broker.port } : brokerAddressOf(config.broker!);
}

/** Guns whose flashed hub address does not answer ask the local network for the table's hub (net/discovery.ts). */
export async function addDiscovery(
  { config, log, closers }: Wiring,
  gunBroker: BrokerAddress | null,
  registry: GunRegistry,
  play: PlayService,
  secrets: SecretStore,
): Promise<DiscoveryResponder | undefined> {
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
    // a paired gun's key hash proves the answer to it (firmware/src/find.ts takes no other)
    (gun) => secrets.gunKeyHash(gun),
  );
  if (discovery) closers.add(() => discovery.close());
  return discovery;
}
