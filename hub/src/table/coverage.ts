// Waiting for a gun's data rather than for the clock: a verdict about hub time T (a snapshot, a pull, a window's
// close) is taken once the gun's stream has delivered a sample from T or later (gun time, through its clock
// offset) — then everything the gun sent before T is in too, on one connection in order. A stream still short of T
// at the bound is "lagging": the network held it, and the caller does not blame the player for it.
import type { HubMs } from "@cng/protocol";
import type { Seat } from "../rules/index.js";
import type { Clock, TimerHandle } from "./clock.js";
import type { SeatSensors } from "./sensors.js";

export type Coverage =
  /** the stream has reached T */
  | "covered"
  /** still short of T at the bound, the gun online */
  | "lagging"
  /** the gun went offline meanwhile */
  | "away";

interface Wait {
  seat: Seat;
  hubT: HubMs;
  timer: TimerHandle;
  fn: (c: Coverage) => void;
}

export class CoverageWaits {
  private readonly waits = new Set<Wait>();

  constructor(
    private readonly clock: Clock,
    private readonly sensor: (seat: Seat) => SeatSensors,
  ) {}

  /** Whether the seat's stream has reached hub time `hubT`. */
  covered(seat: Seat, hubT: HubMs): boolean {
    const sen = this.sensor(seat);
    const t = sen.clock.toGun(hubT);
    const newest = sen.newestT;
    return t !== null && newest !== null && newest >= t;
  }

  /**
   * Calls `fn` once: at once when the stream already reached `hubT`, else when it does, when the gun goes away, or
   * with "lagging" after `boundMs`. Returns a cancel.
   */
  wait(seat: Seat, hubT: HubMs, boundMs: number, fn: (c: Coverage) => void): () => void {
    if (this.covered(seat, hubT)) {
      fn("covered");
      return () => {};
    }
    if (!this.sensor(seat).online) {
      fn("away");
      return () => {};
    }
    const w: Wait = { seat, hubT, fn, timer: 0 };
    w.timer = this.clock.setTimer(boundMs, () => this.settle(w, "lagging"));
    this.waits.add(w);
    return () => {
      if (!this.waits.delete(w)) return;
      this.clock.clearTimer(w.timer);
    };
  }

  /** A sample from the seat's gun landed. */
  sampled(seat: Seat): void {
    for (const w of this.waits) if (w.seat === seat && this.covered(seat, w.hubT)) this.settle(w, "covered");
  }

  /** The seat's gun went offline. */
  offline(seat: Seat): void {
    for (const w of this.waits) if (w.seat === seat) this.settle(w, "away");
  }

  /** Seats whose streams are waited for now. */
  get lagging(): Seat[] {
    return [...new Set([...this.waits].map((w) => w.seat))].sort((a, b) => a - b);
  }

  private settle(w: Wait, c: Coverage): void {
    if (!this.waits.delete(w)) return;
    this.clock.clearTimer(w.timer);
    w.fn(c);
  }
}

/**
 * Starts a wait (`start` is a `whenCovered` with its instant) and keeps its cancel in `pending` under `key` until it
 * settles; a wait that settles at once leaves nothing there.
 */
export function keepWait<K>(
  pending: Map<K, () => void>,
  key: K,
  start: (fn: (c: Coverage) => void) => () => void,
  fn: (c: Coverage) => void,
): void {
  let settled = false;
  const cancel = start((c) => {
    settled = true;
    pending.delete(key);
    fn(c);
  });
  if (!settled) pending.set(key, cancel);
}
