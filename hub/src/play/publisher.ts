// What viewers see move: `table/state` (retained, coalesced: a burst of status changes is one message) and
// `table/aim` (each seated gun's yaw and live target, at most every 100 ms, only when a gun moved).
import { type TableAimMsg, tableTopic } from "@cng/protocol";
import type { Bus } from "../bus/bus.js";
import type { Seat } from "../rules/index.js";
import type { Clock, TimerHandle } from "../table/clock.js";

/** table/aim at most this often */
const AIM_EVERY_MS = 100;
/** status changes are coalesced into one table/state this long */
const STATE_COALESCE_MS = 15;

export interface PublisherDeps {
  bus: Bus;
  table: string;
  /** publishes the retained table/state now */
  publishState: () => Promise<void>;
  /** each seat's live target, from the running table (empty without one) */
  live: () => readonly (Seat | null)[];
  /** the hub's time: the coalescing runs on it, so a test driving time sees states when the table would */
  clock: Clock;
}

export class TablePublisher {
  private readonly lastYaw = new Map<Seat, number>();
  private aimDirty = false;
  private aimTimer: ReturnType<typeof setInterval> | null = null;
  private stateTimer: TimerHandle | null = null;

  constructor(private readonly d: PublisherDeps) {}

  start(): void {
    this.aimTimer = setInterval(() => this.publishAim(), AIM_EVERY_MS);
    this.aimTimer.unref();
  }

  close(): void {
    if (this.aimTimer) clearInterval(this.aimTimer);
    if (this.stateTimer !== null) this.d.clock.clearTimer(this.stateTimer);
    this.aimTimer = null;
    this.stateTimer = null;
  }

  /** A seat's gun moved: its yaw as the table sees it (calibration offset added), degrees. */
  yaw(seat: Seat, yaw: number): void {
    this.lastYaw.set(seat, yaw);
    this.aimDirty = true;
  }

  /** Something table/state shows changed: it goes out once the burst is over. */
  stateChanged(): void {
    if (this.stateTimer !== null) return;
    this.stateTimer = this.d.clock.setTimer(STATE_COALESCE_MS, () => {
      this.stateTimer = null;
      void this.d.publishState();
    });
  }

  private publishAim(): void {
    if (!this.aimDirty) return;
    this.aimDirty = false;
    const live = this.d.live();
    const seats = new Set<Seat>([...this.lastYaw.keys(), ...live.map((_, i) => i)]);
    const aims = [...seats]
      .sort((a, b) => a - b)
      .map((seat) => {
        const y = this.lastYaw.get(seat);
        return {
          seat,
          target: live[seat] ?? null,
          yaw: y === undefined ? null : Math.round((((((y + 180) % 360) + 360) % 360) - 180) * 10) / 10,
        };
      });
    this.d.bus
      .publish(tableTopic(this.d.table, "aim"), { v: 1, at: this.d.clock.now(), aims } satisfies TableAimMsg, {
        qos: 0,
      })
      .catch(() => {});
  }
}
