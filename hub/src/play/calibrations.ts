// Each gun's kept yaw calibration: loaded from the store at start, saved when the wizard finds one, published
// retained on the gun's `cal` topic (the gun shows it; the dashboard lists it), dropped when the gun's mounting
// changes.
import { type GunId, gunTopic } from "@cng/protocol";
import type { Bus } from "../bus/bus.js";
import type { Logger } from "../log.js";
import type { CalibrationStore, StoredCalibration } from "../store/calibrations.js";

export class GunCalibrations {
  private readonly cals = new Map<GunId, StoredCalibration>();

  constructor(
    private readonly store: CalibrationStore,
    private readonly bus: Bus,
    private readonly table: string,
    private readonly log: Logger,
  ) {
    for (const c of store.all()) this.cals.set(c.gun, c);
  }

  get(gun: GunId): StoredCalibration | undefined {
    return this.cals.get(gun);
  }

  /** The gun's yaw offset in degrees (0 when it has none). */
  offset(gun: GunId): number {
    return this.cals.get(gun)?.off ?? 0;
  }

  /** Publishes every kept calibration (at start: the retained topics may have been lost with the broker). */
  async publishAll(): Promise<void> {
    for (const c of this.cals.values()) await this.publish(c);
  }

  /** A new calibration from the wizard: kept, stored, published. */
  keep(c: StoredCalibration): void {
    this.store.save(c);
    this.cals.set(c.gun, c);
    void this.publish(c);
  }

  /** Drops the gun's calibration (store and retained topic); true when there was one. */
  async forget(gun: GunId): Promise<boolean> {
    if (!this.cals.has(gun)) return false;
    this.cals.delete(gun);
    this.store.forget(gun);
    try {
      await this.bus.clearRetained(gunTopic(this.table, gun, "cal"));
    } catch (e) {
      this.log.warn({ gun, err: (e as Error).message }, "could not clear a calibration");
    }
    return true;
  }

  private async publish(c: StoredCalibration): Promise<void> {
    try {
      await this.bus.publish(
        gunTopic(this.table, c.gun, "cal"),
        { v: 1, seat: c.seat, off: Math.round(c.off * 10) / 10, at: c.at },
        { retain: true },
      );
    } catch (e) {
      this.log.warn({ gun: c.gun, err: (e as Error).message }, "could not publish a calibration");
    }
  }
}
