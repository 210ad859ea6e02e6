// What the people at a table hear: the count's beats as the guns play them (hub ms, from the first gun that played
// each). A beat one gun dropped as late is heard from the others; people react to what they hear, not to the hub's
// messages, which a busy laptop sends late.
import { cuePattern } from "../feedback/index.js";
import type { Clock, TimerHandle } from "../table/clock.js";

export type HeardKind = "beat" | "go";

const BEAT_HZ = cuePattern("beat").b![0]!;
const GO_HZ = cuePattern("go").b![0]!;
/** the same beat played by every gun lands within this of its first */
const SAME_MS = 100;
/** what is remembered */
const KEEP_MS = 30_000;

interface Wait {
  kind: HeardKind;
  from: number;
  to: number;
  fn: (at: number | null) => void;
  timer: TimerHandle;
}

export class Ears {
  private readonly heard: { kind: HeardKind; at: number }[] = [];
  private readonly waits = new Set<Wait>();

  constructor(private readonly clock: Clock) {}

  /** A gun started playing `hz` at hub ms `at`. */
  tone(hz: number, at: number): void {
    const kind: HeardKind | null = hz === BEAT_HZ ? "beat" : hz === GO_HZ ? "go" : null;
    if (kind === null) return;
    const same = this.heard.find((h) => h.kind === kind && Math.abs(h.at - at) < SAME_MS);
    if (same) {
      // a report of an earlier gun that came in late: the beat was heard then
      same.at = Math.min(same.at, at);
      return;
    }
    this.heard.push({ kind, at });
    while (this.heard.length > 0 && this.heard[0]!.at < at - KEEP_MS) this.heard.shift();
    for (const w of this.waits) if (w.kind === kind && at >= w.from && at <= w.to) this.settle(w, at);
  }

  /**
   * Calls `fn` once with when a `kind` tone was heard between hub ms `from` and `to`: at once when it was, else when it
   * is, or with null once `to` has passed without one (every gun dropped it).
   */
  when(kind: HeardKind, from: number, to: number, fn: (at: number | null) => void): void {
    const h = this.heard.find((x) => x.kind === kind && x.at >= from && x.at <= to);
    if (h) {
      fn(h.at);
      return;
    }
    const w: Wait = { kind, from, to, fn, timer: 0 };
    w.timer = this.clock.setTimer(Math.max(0, to - this.clock.now()) + 1, () => this.settle(w, null));
    this.waits.add(w);
  }

  private settle(w: Wait, at: number | null): void {
    if (!this.waits.delete(w)) return;
    this.clock.clearTimer(w.timer);
    w.fn(at);
  }
}
