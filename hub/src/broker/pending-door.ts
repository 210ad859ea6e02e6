// Who may wait to be paired: a device asking to pair several guns at once, or cycling through made-up gun ids, would
// fill the hub's pairing slots (16) and keep a real new gun out. Per source address: at most 2 guns waiting at once,
// and 4 new gun ids a minute. The hub's own machine (USB guns bridged onto the broker) is not held back.
import type { GunId } from "@cng/protocol";
import { isOwnMachine } from "../access/limiter.js";

export const PENDING_PER_SOURCE = 2;
export const NEW_PENDING_PER_MINUTE = 4;

export class PendingDoor {
  private readonly live = new Map<string, Set<GunId>>();
  private readonly fresh = new Map<string, number[]>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** Why `source` may not wait to pair `gun` now, or null when it may. */
  refuse(source: string, gun: GunId): string | null {
    if (isOwnMachine(source)) return null;
    const waiting = this.live.get(source);
    if (waiting?.has(gun)) return null; // the same gun coming back
    if ((waiting?.size ?? 0) >= PENDING_PER_SOURCE) return "too many guns waiting to be paired from this address";
    const now = this.clock();
    const recent = (this.fresh.get(source) ?? []).filter((t) => now - t < 60_000);
    if (recent.length >= NEW_PENDING_PER_MINUTE) return "too many new guns from this address: try again in a minute";
    recent.push(now);
    this.fresh.set(source, recent);
    // bounded: one entry per address that asked in the last minute
    if (this.fresh.size > 10_000) this.fresh.delete(this.fresh.keys().next().value!);
    return null;
  }

  /** Guns waiting from `source` now. */
  count(source: string): number {
    return this.live.get(source)?.size ?? 0;
  }

  /**
   * When every pairing slot is taken: the address to give one up so that `source` may wait, and which of its guns —
   * one whose address waits with more guns than `source` would with one more. Null when none does (an attacker then
   * needs an address per slot to keep a real gun out).
   */
  yieldFor(source: string): { source: string; gun: GunId } | null {
    let best: { source: string; gun: GunId } | null = null;
    let most = this.count(source) + 1;
    for (const [s, guns] of this.live) {
      if (s !== source && guns.size > most && !isOwnMachine(s)) {
        most = guns.size;
        best = { source: s, gun: guns.values().next().value! };
      }
    }
    return best;
  }

  opened(source: string, gun: GunId): void {
    const set = this.live.get(source) ?? new Set<GunId>();
    set.add(gun);
    this.live.set(source, set);
  }

  closed(source: string, gun: GunId): void {
    const set = this.live.get(source);
    set?.delete(gun);
    if (set?.size === 0) this.live.delete(source);
  }
}
