// Aim rates: 50 Hz for the guns whose aim matters now (a count, the Godfather's privilege, the re-centre pose, the
// calibration wizard), a few Hz for the others. Only a change is sent to a gun: a `rate` command each time would
// cost every gun a message per table/state. The gun's own word (its `info`, which answers every `rate`) is checked
// too: a command sent while it was between two sessions, or before its subscription reached the broker, is lost; a
// gun that has not answered with its new rate a while after is told again, whether or not anything else happened.
// A rate given by hand (a bench, a test) stands until the table's activity changes the rate: a gun yet to answer it
// is told that one again, not the table's.
import type { GunId } from "@cng/protocol";
import type { GunService } from "../guns/service.js";
import type { Seat } from "../rules/index.js";
import type { Clock, TimerHandle } from "../table/clock.js";
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

/** a gun whose info still says another rate this long after it was told: told again */
const RESEND_MS = 1500;
/** a gun that never answers (no info at all) is not told for ever */
const TRIES = 5;

export class AimRates {
  /** what each gun was last told, and when */
  private readonly sent = new Map<GunId, { hz: number; at: number; tries: number }>();
  /** a look, once the last command is due an answer */
  private check: TimerHandle | null = null;

  /** `recheck` runs update() with the rates of the moment: called when a command is due an answer */
  constructor(
    private readonly guns: GunService,
    private readonly clock: Clock,
    private readonly recheck: () => void,
  ) {}

  /** A gun back online starts at its own default: tell it again. */
  forget(gun: GunId): void {
    this.sent.delete(gun);
  }

  /** Sends each seated, online gun its rate, where it changed. */
  update(fast: ReadonlySet<Seat>): void {
    const now = this.clock.now();
    let asked = false;
    for (const g of this.guns.registry.all()) {
      if (!g.paired || !g.on || g.seat === null) continue;
      const hz = fast.has(g.seat) ? FAST_HZ : SLOW_HZ;
      const sent = this.sent.get(g.id);
      const says = g.info?.hz;
      const told = this.guns.toldRate(g.id);
      const heard = says === hz || says === told;
      const same = sent?.hz === hz;
      if (same && (heard || now - sent.at < RESEND_MS || sent.tries >= TRIES)) {
        if (!heard && sent.tries < TRIES) asked = true;
        continue;
      }
      this.sent.set(g.id, { hz, at: now, tries: same ? sent.tries + 1 : 1 });
      // unanswered: told again what it was told last, so a rate given by hand since ours stands
      this.guns.command(g.id, { c: "rate", hz: same ? (told ?? hz) : hz }).catch(() => {});
      asked = true;
    }
    if (asked && this.check === null) {
      this.check = this.clock.setTimer(RESEND_MS, () => {
        this.check = null;
        this.recheck();
      });
    }
  }

  close(): void {
    if (this.check !== null) this.clock.clearTimer(this.check);
    this.check = null;
  }
}
