// The table's clock in the hub: the hub's time (real by default, a ManualClock in tests that drive time), but a
// throwing timer is logged instead of crashing the process, and a table that is replaced (a new game) has all its
// timers dropped at once.
import type { Logger } from "../log.js";
import type { Clock, TimerHandle } from "../table/clock.js";

/** Real time on Node's timers: the hub's default clock. */
export class RealClock implements Clock {
  private readonly timers = new Map<TimerHandle, ReturnType<typeof setTimeout>>();
  private next = 1;

  now(): number {
    return Date.now();
  }

  setTimer(ms: number, fn: () => void): TimerHandle {
    const id = this.next++;
    const t = setTimeout(
      () => {
        this.timers.delete(id);
        fn();
      },
      Math.max(0, ms),
    );
    this.timers.set(id, t);
    return id;
  }

  clearTimer(id: TimerHandle): void {
    const t = this.timers.get(id);
    if (t !== undefined) clearTimeout(t);
    this.timers.delete(id);
  }
}

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
