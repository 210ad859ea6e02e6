// The table's only source of time: real time in the hub and the simulator (RealClock), a manual one in tests and
// replays (ManualClock). The hub wraps it so a throwing timer is logged (play/safe-clock.ts).
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
