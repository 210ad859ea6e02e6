// The table's database and what the hub keeps in it from the start: secrets, host devices, settings, the host PIN
// and the gun registry.
import { GunRegistry } from "../guns/registry.js";
import { type Db, dbPath, openDb } from "../store/db.js";
import { HostDevices } from "../store/devices.js";
import { SecretStore } from "../store/secrets.js";
import { Settings } from "../store/settings.js";
import type { Wiring } from "./wiring.js";

export interface Stored {
  readonly db: Db;
  readonly secrets: SecretStore;
  readonly devices: HostDevices;
  readonly settings: Settings;
  /** the host PIN: the configured one, else the one kept (made on first start) */
  readonly pin: string;
  readonly registry: GunRegistry;
}

export function openStore({ config, log, now, closers }: Wiring): Stored {
  const db = openDb(dbPath(config.data, config.table), { warn: (msg) => log.warn(msg) });
  closers.add(() => void db.close());
  const secrets = new SecretStore(db);
  return {
    db,
    secrets,
    devices: new HostDevices(db),
    settings: new Settings(db),
    pin: secrets.hostPin(config.pin),
    registry: new GunRegistry(secrets.guns(), config.lowBattery, now()),
  };
}
