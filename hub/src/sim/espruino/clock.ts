// Timers for a virtual board: real time, manual time (advance() runs due timers in order and lets network I/O through
// between steps, so a minute of gun time takes milliseconds), or shared: the timers of a clock the hub and the people
// at the table use too, moved by whoever owns it (a whole simulated game on driven time).
// In real time a board runs on the laptop, whose stalls (a busy machine, a collection) a real gun's chip never sees:
// a timer the laptop ran late runs at its own time (getTime() inside reads when it was due), and an interval's missed
// runs follow one another at their own times, as Espruino's intervals keep their pace. The firmware then samples its
// IMU on its own clock, as on its own chip; only what it sends goes out late, as over a slow WiFi.
import type { Clock, TimerHandle } from "../../table/clock.js";

export type ClockMode = "real" | "manual" | "shared";

/** timers run at most this many at a time in real time (a callback arming a 0 ms timeout each time yields then) */
const MAX_RUNS = 10_000;

interface Timer {
  at: number;
  every: number;
  fn: () => void;
}

export class VirtualClock {
  readonly mode: ClockMode;
  /** manual: the time; real: the time of the last due timer run */
  private t = 0;
  private readonly base: number;
  private readonly timers = new Map<number, Timer>();
  /** real mode: the one Node timer, armed for the earliest due timer, and whether due timers are running */
  private wake: NodeJS.Timeout | null = null;
  private firing = false;
  /** shared mode: the outer clock and this board's timers on it */
  private readonly outer: Clock | undefined;
  private readonly onOuter = new Map<number, TimerHandle>();
  private nextId = 1;
  private stopped = false;
  /** called with what a timer callback threw (Espruino prints it and carries on) */
  onError: (e: unknown) => void = () => {};

  /** "real", "manual", or a clock to share (the board's ms 0 is that clock's now) */
  constructor(mode: Exclude<ClockMode, "shared"> | Clock) {
    if (typeof mode === "object") {
      this.mode = "shared";
      this.outer = mode;
      this.base = mode.now();
    } else {
      this.mode = mode;
      this.base = mode === "real" ? performance.now() : 0;
    }
  }

  /**
   * ms since the board started, as the firmware reads it: inside a late timer, when it was due (a timer may then read
   * a time before what an event outside the timers read: the chip's samples stay on their own clock)
   */
  now(): number {
    return this.firing ? this.t : this.wallNow();
  }

  /** ms since the board started by the wall clock: now() outside the board's timers, never behind it */
  wallNow(): number {
    if (this.outer) return this.outer.now() - this.base;
    return this.mode === "real" ? Math.max(this.t, performance.now() - this.base) : this.t;
  }

  private run(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.onError(e);
    }
  }

  set(fn: () => void, ms: number, repeat: boolean): number {
    const id = this.nextId++;
    if (this.stopped) return id;
    const d = Math.max(0, Number(ms) || 0);
    const outer = this.outer;
    if (outer) {
      // a repeating timer is armed again before it runs, as Espruino's intervals keep their pace
      const arm = (wait: number) => {
        this.onOuter.set(
          id,
          outer.setTimer(wait, () => {
            if (!this.onOuter.has(id)) return;
            if (repeat) arm(Math.max(1, d));
            else this.onOuter.delete(id);
            this.run(fn);
          }),
        );
      };
      arm(d);
      return id;
    }
    this.timers.set(id, { at: this.now() + d, every: repeat ? Math.max(1, d) : 0, fn });
    if (this.mode === "real" && !this.firing) this.arm();
    return id;
  }

  clear(id: unknown): void {
    if (typeof id !== "number") return;
    const o = this.onOuter.get(id);
    if (o !== undefined) {
      this.outer!.clearTimer(o);
      this.onOuter.delete(id);
    }
    this.timers.delete(id);
  }

  /** The earliest due timer, if any. */
  private next(): [number, Timer] | undefined {
    let next: [number, Timer] | undefined;
    for (const e of this.timers) if (!next || e[1].at < next[1].at) next = e;
    return next;
  }

  /** Real mode: the Node timer for the earliest due timer. */
  private arm(): void {
    if (this.wake !== null) clearTimeout(this.wake);
    this.wake = null;
    const next = this.next();
    if (this.stopped || !next) return;
    this.wake = setTimeout(() => this.fire(), Math.max(0, next[1].at - (performance.now() - this.base)));
  }

  /** Real mode: runs every timer due by the wall clock, in order, each at its own time. */
  private fire(): void {
    this.wake = null;
    this.firing = true;
    try {
      for (let n = 0; n < MAX_RUNS && !this.stopped; n++) {
        const next = this.next();
        if (!next || next[1].at > performance.now() - this.base) break;
        const [id, tm] = next;
        this.t = Math.max(this.t, tm.at);
        if (tm.every) tm.at += tm.every;
        else this.timers.delete(id);
        this.run(tm.fn);
      }
    } finally {
      this.firing = false;
    }
    this.arm();
  }

  /** Manual mode: move time forward by `ms`, running timers as they fall due. Real mode: wait. */
  async advance(ms: number, stepMs = 5): Promise<void> {
    if (this.outer) throw new Error("a board on a shared clock: time moves with that clock's owner");
    if (this.mode === "real") {
      await new Promise((r) => setTimeout(r, ms));
      return;
    }
    const end = this.t + ms;
    let lastYield = this.t;
    while (!this.stopped) {
      let next: [number, Timer] | undefined;
      for (const e of this.timers) if (!next || e[1].at < next[1].at) next = e;
      const stepEnd = Math.min(end, lastYield + stepMs);
      if (next && next[1].at <= stepEnd) {
        const [id, tm] = next;
        this.t = Math.max(this.t, tm.at);
        if (tm.every) tm.at += tm.every;
        else this.timers.delete(id);
        this.run(tm.fn);
        continue;
      }
      this.t = stepEnd;
      // let sockets deliver what they have before time moves on
      await new Promise((r) => setImmediate(r));
      lastYield = this.t;
      if (this.t >= end) break;
    }
  }

  stop(): void {
    this.stopped = true;
    for (const id of [...this.onOuter.keys()]) this.clear(id);
    this.timers.clear();
    if (this.wake !== null) clearTimeout(this.wake);
    this.wake = null;
  }
}
