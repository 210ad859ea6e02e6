// Timers for a virtual board: real time (Node timers), manual time (advance() runs due timers in order and lets
// network I/O through between steps, so a minute of gun time takes milliseconds), or shared: the timers of a clock
// the hub and the people at the table use too, moved by whoever owns it (a whole simulated game on driven time).
import type { Clock, TimerHandle } from "../../table/clock.js";

export type ClockMode = "real" | "manual" | "shared";

interface Timer {
  at: number;
  every: number;
  fn: () => void;
}

export class VirtualClock {
  readonly mode: ClockMode;
  private t = 0;
  private readonly base: number;
  private readonly timers = new Map<number, Timer>();
  private readonly real = new Map<number, NodeJS.Timeout>();
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

  /** ms since the board started */
  now(): number {
    if (this.outer) return this.outer.now() - this.base;
    return this.mode === "real" ? performance.now() - this.base : this.t;
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
    } else if (this.mode === "real") {
      const h = repeat
        ? setInterval(() => this.run(fn), Math.max(1, d))
        : setTimeout(() => {
            this.real.delete(id);
            this.run(fn);
          }, d);
      this.real.set(id, h);
    } else {
      this.timers.set(id, { at: this.t + d, every: repeat ? Math.max(1, d) : 0, fn });
    }
    return id;
  }

  clear(id: unknown): void {
    if (typeof id !== "number") return;
    const o = this.onOuter.get(id);
    if (o !== undefined) {
      this.outer!.clearTimer(o);
      this.onOuter.delete(id);
    }
    const h = this.real.get(id);
    if (h) {
      clearTimeout(h);
      clearInterval(h);
      this.real.delete(id);
    }
    this.timers.delete(id);
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
    for (const id of [...this.real.keys(), ...this.onOuter.keys()]) this.clear(id);
    this.timers.clear();
  }
}
