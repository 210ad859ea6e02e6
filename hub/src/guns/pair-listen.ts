// Pairing by pulling: the host picks a seat (its light shows on the dashboard), and the next gun asking to be
// paired whose trigger is pulled is paired to that seat. One seat listens at a time; a minute without a pull
// ends it. Nothing else of a pending gun is heard: it never acts in a game.
import type { GunId, TriggerMsg } from "@cng/protocol";
import type { Seat } from "../rules/index.js";
import type { GunService } from "./service.js";

export const PAIR_LISTEN_MS = 60_000;

export interface PairListening {
  seat: Seat;
  /** hub ms when it stops listening */
  until: number;
}

export class PairListener {
  private current: (PairListening & { timer: ReturnType<typeof setTimeout> }) | null = null;

  constructor(
    private readonly guns: GunService,
    /** told when listening starts or stops, and when a gun is paired by its pull */
    private readonly changed: (paired?: { gun: GunId; seat: Seat }) => void,
    private readonly clock: () => number = Date.now,
    private readonly ms = PAIR_LISTEN_MS,
  ) {}

  get listening(): PairListening | null {
    return this.current ? { seat: this.current.seat, until: this.current.until } : null;
  }

  /** Listens for `seat` (null: stops listening). */
  listen(seat: Seat | null): PairListening | null {
    this.stop();
    if (seat !== null) {
      const timer = setTimeout(() => {
        this.current = null;
        this.changed();
      }, this.ms);
      timer.unref?.();
      this.current = { seat, until: this.clock() + this.ms, timer };
    }
    this.changed();
    return this.listening;
  }

  /** A pending gun's trigger event. */
  pull(gun: GunId, msg: TriggerMsg): void {
    const l = this.current;
    if (l === null || msg.k !== "p") return;
    this.stop();
    void this.guns.pair(gun, l.seat).then((r) => {
      this.changed(r.ok ? { gun, seat: l.seat } : undefined);
    });
  }

  close(): void {
    this.stop();
  }

  private stop(): void {
    if (this.current) clearTimeout(this.current.timer);
    this.current = null;
  }
}
