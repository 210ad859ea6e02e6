// Each gun's last good calibration: its yaw offset at a gun time, from how many poses, how far they disagreed.
import type { GunId } from "@cng/protocol";
import type { Seat } from "../rules/index.js";
import type { Db } from "./db.js";

export interface StoredCalibration {
  gun: GunId;
  seat: Seat;
  /** degrees added to the raw yaw */
  off: number;
  /** gun ms of the calibration (the offset's reference time) */
  t: number;
  poses: number;
  spread: number;
  at: number;
}

export class CalibrationStore {
  constructor(private readonly db: Db) {}

  save(c: StoredCalibration): void {
    this.db
      .prepare(
        "INSERT OR REPLACE INTO calibrations (gun, seat, off, t, poses, spread, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(c.gun, c.seat, c.off, c.t, c.poses, c.spread, c.at);
  }

  all(): StoredCalibration[] {
    return this.db
      .prepare<[], StoredCalibration>("SELECT gun, seat, off, t, poses, spread, at FROM calibrations")
      .all();
  }

  forget(gun: GunId): void {
    this.db.prepare("DELETE FROM calibrations WHERE gun = ?").run(gun);
  }
}
