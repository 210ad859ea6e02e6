// The request/response server: every op of the protocol's map, each request's PIN or token checked by the hub.
import type { SecretLimiter } from "../access/limiter.js";
import type { EmbeddedBroker } from "../broker/embedded.js";
import type { Bus } from "../bus/bus.js";
import { RequestAuth } from "../commands/auth.js";
import { PinLogin } from "../commands/pin-login.js";
import { CommandServer, type CommandSession } from "../commands/server.js";
import { otaBundle } from "../guns/bundles.js";
import type { OtaBundle } from "../guns/ota.js";
import type { GunParts } from "./guns.js";
import type { Playing } from "./play.js";
import type { Stored } from "./store.js";
import type { Wiring } from "./wiring.js";

export interface CommandsInput {
  readonly bus: Bus;
  readonly broker: EmbeddedBroker | undefined;
  readonly store: Stored;
  readonly limiter: SecretLimiter;
  readonly guns: GunParts;
  readonly playing: Playing;
  /** the bundle `guns.update` sends to a board's guns (default: the build's, hub/src/guns/bundles.ts) */
  readonly otaBundle: ((board: string) => OtaBundle | string) | undefined;
}

export async function startCommands({ config, log, now }: Wiring, input: CommandsInput): Promise<void> {
  const { bus, broker, store } = input;
  const { secrets, devices } = store;
  const { guns, mount, battery, ota } = input.guns;
  const commands = new CommandServer(
    bus,
    {
      table: config.table,
      guns,
      secrets,
      devices,
      kickDevice: (d) => broker?.kickDevice(d),
      kickSeats: (seat) => broker?.kickSeats(seat),
      now,
      pinLogin: new PinLogin(config.table, () => store.pin, input.limiter, devices, now),
      game: input.playing.game,
      play: input.playing.play,
      mount,
      battery,
      ota,
      otaBundle: input.otaBundle ?? otaBundle,
    },
    new RequestAuth(secrets, devices, () => store.pin, input.limiter, now),
    log.child({ part: "commands" }),
    (client) => broker?.sourceOf(client) ?? `client:${client}`,
    (client) => commandSession(broker?.sessionOf(client)),
  );
  await commands.start();
}

/** A broker session as the command server sees it: a host's or a seat's; nobody else acts without `auth`. */
function commandSession(s: ReturnType<EmbeddedBroker["sessionOf"]>): CommandSession | undefined {
  const p = s?.principal;
  const key = s?.key ? { key: s.key } : {};
  if (p?.role === "host") return { caller: p.device ? { role: "host", device: p.device } : { role: "host" }, ...key };
  if (p?.role === "seat") return { caller: { role: "seat", seat: p.seat }, ...key };
  return undefined;
}
