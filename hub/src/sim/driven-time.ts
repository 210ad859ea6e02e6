// Time a simulated table runs on when nothing real is in it: the hub (its `clock` option), the guns' firmware (in the
// vm), the people at the table and the WiFi relay share one ManualClock, moved on from one due timer to the next,
// each step only once the MQTT traffic it caused has settled. A count's beats then cost milliseconds of waiting,
// not seconds, and events happen in the order of hub time, not of a busy machine's scheduling. Whole-game tests and
// `cng bench weather` play on it.
import type { MqttClient } from "mqtt";
import { ManualClock } from "../table/clock.js";
import { everyOn } from "./wait.js";

const realSleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Every party (broker, hub, guns, host) is in this process, so a packet's next hop happens within an event-loop turn:
 * time moves on after this many turns with no traffic and nothing in flight, and a last real millisecond that is
 * quiet too (for anything that waits on a real timer).
 */
const QUIET_TURNS = 6;
const nextTurn = () => new Promise((r) => setImmediate(r));

export class DrivenTime {
  readonly clock = new ManualClock(Date.now());
  private traffic = 0;
  private pending = 0;
  /** how far hub time has been moved, and in how many steps (for the figures) */
  steps = 0;

  /** `quantumMs`: timers this close after the next due one fire in the same step, as packets land together */
  constructor(private readonly quantumMs = 2) {}

  now(): number {
    return this.clock.now();
  }

  every(ms: number, fn: () => void): () => void {
    // aligned to multiples of the period, so guns streaming at one rate sample in the same step
    return everyOn(this.clock, ms, fn, true);
  }

  after(ms: number, fn: () => void): void {
    this.clock.setTimer(ms, fn);
  }

  async track<T>(p: Promise<T>): Promise<T> {
    this.pending++;
    try {
      return await p;
    } finally {
      this.pending--;
    }
  }

  watch(c: MqttClient): MqttClient {
    c.on("packetsend", () => this.traffic++);
    c.on("packetreceive", () => this.traffic++);
    return c;
  }

  /** Waits (real time) until the watched clients are quiet and nothing tracked is in flight. */
  async settle(): Promise<void> {
    for (;;) {
      let seen = this.traffic;
      for (let quiet = 0; quiet < QUIET_TURNS; ) {
        await nextTurn();
        if (this.pending > 0 || this.traffic !== seen) {
          seen = this.traffic;
          quiet = 0;
        } else quiet++;
      }
      await realSleep(1);
      if (this.pending === 0 && this.traffic === seen) return;
    }
  }

  async until<T>(done: () => T | undefined | null | false, ms: number, what: string): Promise<T> {
    const end = this.clock.now() + ms;
    for (;;) {
      await this.settle();
      const v = done();
      if (v) return v;
      const next = this.clock.nextDue();
      if (next === null || next > end)
        throw new Error(
          `timed out waiting for ${what} (${ms} ms of hub time${next === null ? ", nothing left to happen" : ""})`,
        );
      this.clock.advance(next - this.clock.now() + this.quantumMs);
      this.steps++;
    }
  }

  /**
   * Drives time until `p` settles, at most `ms` of hub time; with nothing due yet (a socket opening, the database)
   * it waits in real time, at most `idleMs`. For work that waits on the clock itself (a whole simulated game).
   */
  async run<T>(p: Promise<T>, ms: number, what: string, idleMs = 10_000): Promise<T> {
    let out: { ok: true; v: T } | { ok: false; e: unknown } | undefined;
    p.then(
      (v) => {
        out = { ok: true, v };
      },
      (e: unknown) => {
        out = { ok: false, e };
      },
    );
    const end = this.clock.now() + ms;
    let idleSince = Date.now();
    for (;;) {
      await this.settle();
      if (out) {
        if (out.ok) return out.v;
        throw out.e;
      }
      const next = this.clock.nextDue();
      if (next === null) {
        if (Date.now() - idleSince > idleMs) throw new Error(`${what}: nothing left to happen for ${idleMs} ms`);
        continue;
      }
      if (next > end) throw new Error(`timed out waiting for ${what} (${ms} ms of hub time)`);
      idleSince = Date.now();
      this.clock.advance(next - this.clock.now() + this.quantumMs);
      this.steps++;
    }
  }

  /** Lets `ms` of hub time pass, every step settled. */
  async pass(ms: number): Promise<void> {
    const end = this.clock.now() + ms;
    this.clock.setTimer(ms, () => {});
    await this.until(() => this.clock.now() >= end, ms + 1, `${ms} ms`);
  }
}
