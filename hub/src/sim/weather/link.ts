// When a segment that reaches the air at `t` is delivered, for one direction of one station's link. Pure over its
// Random: TCP keeps the order, so a segment never overtakes the one before it (a stall holds all that follows).
import type { Random } from "../prng.js";
import { BEACON_MS, type LinkWeather } from "./profiles.js";

export class LinkSchedule {
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly w: LinkWeather,
    private readonly random: Random,
    /** a sleeping station's wakes: every `periodMs` from `phaseMs` (period 0: it is always awake) */
    private readonly wake: { periodMs: number; phaseMs: number } = { periodMs: 0, phaseMs: 0 },
  ) {}

  /** Delivery time of a segment that enters the air at `t`; `asleep`: the station's radio sleeps between wakes. */
  deliver(t: number, asleep = false): number {
    const w = this.w;
    let at = t + w.baseMs;
    if (w.jitterMs > 0) at += -w.jitterMs * Math.log(1 - this.random());
    if (w.stallP > 0 && this.random() < w.stallP) at += w.stallMs;
    if (asleep) at = this.nextWake(at);
    // whole ms, as a radio's timers and the hub's clock count them
    at = Math.ceil(at);
    if (at < this.last) at = this.last;
    this.last = at;
    return at;
  }

  /** The first wake at or after `t`. */
  nextWake(t: number): number {
    const { periodMs: p, phaseMs } = this.wake;
    if (p === 0) return t;
    return phaseMs + Math.ceil((t - phaseMs) / p) * p;
  }
}

/** A station's wakes for an access point's DTIM, at a random phase. */
export function wakesFor(dtim: number | null, random: Random): { periodMs: number; phaseMs: number } {
  if (dtim === null) return { periodMs: 0, phaseMs: 0 };
  const periodMs = dtim * BEACON_MS;
  return { periodMs, phaseMs: random() * periodMs };
}
