// The re-centre pose: at a round's start a player points at the Godfather and pulls. With `recentre: "pose"` every
// living player but the Godfather does, each round; with "snapshots" (the default) only a gun whose offset is in
// doubt (its history fits another reading of its seats nearly as well, tracker.ts) is asked, which the benchmark
// (`cng bench accuracy`) shows is what keeps wrong targets down under 0.05 °/s gyro drift at 8 seats, at a pose
// for about one gun-round in 70 at σ 3°; with "none" nobody ever is (learning from the hold-ups alone). A gun that
// does not pull keeps its old offset.
import type { GunMs } from "@cng/protocol";
import { type AimOptions, type Deg, type OffsetTrack, readWindow, recentreFromPose } from "../aim/index.js";
import type { SeatSensors } from "./sensors.js";

/** how a table keeps its guns' offsets (game.new's `table.recentre`): the pose every round, for a gun in doubt, never */
export { RECENTRES, type Recentre } from "@cng/protocol";

/**
 * The gun's track re-centred from a pull at gun time `t` aimed at `bearing` (seat `target`, the gun held at seat
 * `from`), or null (no steady reading).
 */
export function recentred(
  sen: SeatSensors,
  t: GunMs,
  bearing: Deg,
  opts: AimOptions,
  seat?: { target: number; from: number },
): OffsetTrack | null {
  if (sen.track === null) return null;
  const r = readWindow(sen.window, t, opts);
  if (r.kind !== "reading") return null;
  return recentreFromPose(sen.track, t, bearing, r.rawHeadingDeg, opts, seat).track;
}
