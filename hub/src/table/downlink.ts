// How long the hub's messages take to reach one gun, from its clock probes: each `sync` says when the last `time`
// answer arrived (gun ms), which the gun's clock offset (aim/gun-clock.ts: the fastest uplink) turns into hub time. The
// recent worst is what a count's lead-in must cover for every gun to have its beats before they play.
import type { GunMs, HubMs } from "@cng/protocol";
import type { GunClock } from "../aim/index.js";

/** probes kept: at one every 10 s, the last minute and a half */
const KEEP = 8;
/** longer than this is no downlink delay but a probe answered across a reconnect or a reboot */
const MAX_MS = 5000;

export class Downlink {
  private readonly recent: number[] = [];

  /** The `time` answer sent at hub ms `h` arrived at gun ms `a`. */
  observe(clock: GunClock, h: HubMs, a: GunMs): void {
    const arrived = clock.toHub(a);
    if (h <= 0 || arrived === null) return;
    const d = arrived - h;
    if (!(d >= -MAX_MS && d <= MAX_MS)) return;
    this.recent.push(Math.max(0, d));
    if (this.recent.length > KEEP) this.recent.shift();
  }

  /** The slowest of the recent probes, ms, or null before any. */
  get worstMs(): number | null {
    return this.recent.length === 0 ? null : Math.max(...this.recent);
  }
}
