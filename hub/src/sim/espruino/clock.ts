// Timers for a virtual board: real time (Node timers) or manual time (advance() runs due timers
// in order and lets network I/O through between steps, so a minute of gun time takes milliseconds).

export type ClockMode = "real" | "manual";

interface Timer {
  at: number;
  every: number;
  fn: () => void;
}

export class VirtualClock {
  readonly mode: ClockMode;
  private t = 0;
  private readonly base = performance.now();
  private readonly timers = new Map<number, Timer>();
  private readonly real = new Map<number, NodeJS.Timeout>();
  private nextId = 1;
  private stopped = false;
  /** called with what a timer callback threw (Espruino prints it and carries on) */
  onError: (e: unknown) => void = () => {};

  constructor(mode: ClockMode) {
    this.mode = mode;
  }

  /** ms since the board started */
  now(): number {
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
    if (this.mode === "real") {
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
    for (const id of [...this.real.keys()]) this.clear(id);
    this.timers.clear();
  }
}
