// The per-round re-centre pose (table option `recentre: "pose"`): at a round's start every living player but
// the Godfather points at the Godfather and pulls. The benchmark (`cng bench accuracy`) shows snapshots alone do
// not hold 0.05 °/s gyro drift at 8 seats; one deliberate pose a round does. A gun that does not pull keeps
// its old offset.
import type { GunMs } from "@cng/protocol";
import { type AimOptions, type Deg, type OffsetTrack, readWindow, recentreFromPose } from "../aim/index.js";
import type { SeatSensors } from "./sensors.js";

export type Recentre = "pose" | "snapshots";

/** The gun's track re-centred from a pull at gun time `t` aimed at `bearing`, or null (no steady reading). */
export function recentred(sen: SeatSensors, t: GunMs, bearing: Deg, opts: AimOptions): OffsetTrack | null {
  if (sen.track === null) return null;
  const r = readWindow(sen.window, t, opts);
  if (r.kind !== "reading") return null;
  return recentreFromPose(sen.track, t, bearing, r.rawHeadingDeg, opts).track;
}
