// Aim rates: 50 Hz for the guns whose aim matters now (a count, the Godfather's privilege, the re-centre pose, the
// calibration wizard), a few Hz for the others. Only a change is sent to a gun: a `rate` command each time would
// cost every gun a message per table/state.
import type { GunId } from "@cng/protocol";
import type { GunService } from "../guns/service.js";
import type { Seat } from "../rules/index.js";
import type { TableActivity } from "../table/ports.js";

export const FAST_HZ = 50;
export const SLOW_HZ = 5;

/** The seats whose guns stream fast for this activity. */
export function fastSeats(activity: TableActivity | null): Set<Seat> {
  const fast = new Set<Seat>();
  if (activity?.kind === "count" || activity?.kind === "recentre") for (const s of activity.seats) fast.add(s);
  if (activity?.kind === "privilege") fast.add(activity.godfather);
  return fast;
}

export class AimRates {
  /** what each gun was last told */
  private readonly sent = new Map<GunId, number>();

  constructor(private readonly guns: GunService) {}

  /** A gun back online starts at its own default: tell it again. */
  forget(gun: GunId): void {
    this.sent.delete(gun);
  }

  /** Sends each seated, online gun its rate, where it changed. */
  update(fast: ReadonlySet<Seat>): void {
    for (const g of this.guns.registry.all()) {
      if (!g.paired || !g.on || g.seat === null) continue;
      const hz = fast.has(g.seat) ? FAST_HZ : SLOW_HZ;
      if (this.sent.get(g.id) === hz) continue;
      this.sent.set(g.id, hz);
      this.guns.command(g.id, { c: "rate", hz }).catch(() => {});
    }
  }
}
