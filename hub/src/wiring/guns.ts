// The guns' side: the gun service (presence, pairing, status), the calibration wizard's mounting step, the battery
// calibration, updates over the air, and the hot streams.
import type { DynsecProvisioner } from "../broker/dynsec.js";
import type { EmbeddedBroker } from "../broker/embedded.js";
import type { Bus } from "../bus/bus.js";
import { BatteryCalibration } from "../guns/battery.js";
import { MountWizard } from "../guns/mount.js";
import { type OtaOptions, OtaService } from "../guns/ota.js";
import type { GunRegistry } from "../guns/registry.js";
import { GunService } from "../guns/service.js";
import { GunStreams } from "../guns/streams.js";
import type { Stored } from "./store.js";
import type { Later, Wiring } from "./wiring.js";

export interface GunParts {
  readonly guns: GunService;
  /** the IMU mounting step of the calibration wizard (calibrate.mount) */
  readonly mount: MountWizard;
  /** a gun's battery reading calibrated from the true volts (gun.battery) */
  readonly battery: BatteryCalibration;
  readonly ota: OtaService;
  readonly streams: GunStreams;
}

export interface GunsInput {
  readonly bus: Bus;
  readonly broker: EmbeddedBroker | undefined;
  readonly store: Stored;
  readonly provisioner: DynsecProvisioner | undefined;
  readonly ota: Partial<OtaOptions> | undefined;
}

export async function startGuns(w: Wiring, input: GunsInput, later: Later): Promise<GunParts> {
  const { config, mode, log, now, closers } = w;
  const { bus, broker, provisioner } = input;
  const { registry, secrets } = input.store;
  const guns = new GunService(
    bus,
    config.table,
    registry,
    secrets,
    log.child({ part: "guns" }),
    mode,
    {
      kick: (g) => broker?.kick(g),
      paired: (g) => broker?.paired(g),
      hearsCommands: (g) => broker?.hearsCommands(g) ?? false,
    },
    now,
    provisioner,
  );
  later.guns = guns;
  if (provisioner) guns.onPresence((g, on) => provisioner.presence(g, on));
  await guns.start();
  const mount = new MountWizard(bus, config.table, guns, log.child({ part: "mount" }));
  await mount.start();
  closers.add(() => mount.close());
  const battery = new BatteryCalibration(bus, config.table, guns, log.child({ part: "battery" }));
  await battery.start();
  closers.add(() => battery.close());
  const ota = new OtaService(bus, config.table, registry, log.child({ part: "ota" }), input.ota, now, (g) =>
    secrets.gunKeyHash(g),
  );
  await ota.start();
  closers.add(() => ota.stop());
  guns.onPresence((g, on) => ota.presence(g, on));
  guns.onGunInfo((g, info) => ota.info(g, info.fw));
  ota.onProgress((g, p) => {
    const r = registry.setOta(g, p);
    if (r) void guns.publishStatus(r);
  });
  // embedded: the hot streams come straight from the broker; external: through the hub's client
  const streams = new GunStreams(broker ?? bus, config.table, registry, guns, now, log.child({ part: "guns" }));
  await streams.start();
  later.streamStats = streams.stats;
  return { guns, mount, battery, ota, streams };
}

/** With an external broker the hub sees no connects: the registry's guns are asked to say they are there. */
export async function askPresence({ mode }: Wiring, registry: GunRegistry, guns: GunService): Promise<void> {
  if (mode === "external") for (const g of registry.all()) await guns.command(g.id, { c: "info" });
}
