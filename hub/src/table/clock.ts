// The table's only source of time. The hub passes real time (play/safe-clock.ts); tests and replays a manual one.
import type { HubMs } from "@cng/protocol";

export type TimerHandle = number;

export interface Clock {
  now(): HubMs;
  setTimer(ms: number, fn: () => void): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

/** Time moves only when told: timers fire in due order inside advance(). Deterministic, no sleeps. */
export class ManualClock implements Clock {
  private t: HubMs;
  private next = 1;
  private readonly timers = new Map<TimerHandle, { due: HubMs; fn: () => void }>();

  constructor(start: HubMs = 1_700_000_000_000) {
    this.t = start;
  }

  now(): HubMs {
    return this.t;
  }

  setTimer(ms: number, fn: () => void): TimerHandle {
    const id = this.next++;
    this.timers.set(id, { due: this.t + Math.max(0, ms), fn });
    return id;
  }

  clearTimer(id: TimerHandle): void {
    this.timers.delete(id);
  }

  /** Moves time forward by `ms`, firing every timer that falls due (timers set meanwhile included). */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      let id: TimerHandle | null = null;
      let due = end;
      for (const [k, v] of this.timers) {
        if (v.due <= due && (id === null || v.due < due || (v.due === due && k < id))) {
          id = k;
          due = v.due;
        }
      }
      if (id === null) break;
      const timer = this.timers.get(id)!;
      this.timers.delete(id);
      this.t = Math.max(this.t, timer.due);
      timer.fn();
    }
    this.t = end;
  }

  /** When the next timer falls due, or null with none set. */
  nextDue(): HubMs | null {
    let due: HubMs | null = null;
    for (const v of this.timers.values()) if (due === null || v.due < due) due = v.due;
    return due;
  }

  get pendingTimers(): number {
    return this.timers.size;
  }
}
