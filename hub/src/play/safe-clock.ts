// The table's clock in the hub: the hub's time (real by default, a ManualClock in tests that drive time), but a
// throwing timer is logged instead of crashing the process, and a table that is replaced (a new game) has all its
// timers dropped at once.
import type { Logger } from "../log.js";
import type { Clock, TimerHandle } from "../table/clock.js";

export class SafeClock implements Clock {
  private readonly timers = new Set<TimerHandle>();
  private disposed = false;

  constructor(
    private readonly log: Logger,
    private readonly base: Clock,
  ) {}

  now(): number {
    return this.base.now();
  }

  setTimer(ms: number, fn: () => void): TimerHandle {
    if (this.disposed) return 0;
    const id = this.base.setTimer(ms, () => {
      this.timers.delete(id);
      if (this.disposed) return;
      try {
        fn();
      } catch (e) {
        this.log.error({ err: e }, "table timer failed");
      }
    });
    this.timers.add(id);
    return id;
  }

  clearTimer(id: TimerHandle): void {
    if (!this.timers.delete(id)) return;
    this.base.clearTimer(id);
  }

  dispose(): void {
    this.disposed = true;
    for (const t of this.timers) this.base.clearTimer(t);
    this.timers.clear();
  }
}
