// The table's clock in the hub: real time, but a throwing timer is logged instead of crashing the process, and
// a table that is replaced (a new game) has all its timers dropped at once.
import type { Logger } from "../log.js";
import type { Clock, TimerHandle } from "../table/clock.js";

export class SafeClock implements Clock {
  private readonly timers = new Map<TimerHandle, ReturnType<typeof setTimeout>>();
  private next = 1;
  private disposed = false;

  constructor(private readonly log: Logger) {}

  now(): number {
    return Date.now();
  }

  setTimer(ms: number, fn: () => void): TimerHandle {
    const id = this.next++;
    if (this.disposed) return id;
    const t = setTimeout(
      () => {
        this.timers.delete(id);
        if (this.disposed) return;
        try {
          fn();
        } catch (e) {
          this.log.error({ err: e }, "table timer failed");
        }
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

  dispose(): void {
    this.disposed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
