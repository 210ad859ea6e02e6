// What the table knows of one seat's gun: its recent aim samples, its clock offset, how long messages take to
// reach it, its yaw offset track, whether it is online. (QoS 1 repeats of a trigger event are dropped once, where they arrive: play/gun-input.ts.)
import type { GunMs, HubMs, TriggerKind } from "@cng/protocol";
import {
  type AimOptions,
  AimWindow,
  biasedRow,
  type Deg,
  type DrawVerdict,
  type DrawWindow,
  GunClock,
  type OffsetTrack,
  offsetAt,
  readDraw,
  resolveTarget,
  type TargetResult,
  trusted,
} from "../aim/index.js";
import type { Seat } from "../rules/index.js";
import { Downlink } from "./downlink.js";

export interface AimInput {
  /** gun time of the sample */
  t: GunMs;
  /** raw yaw, pitch, roll, degrees */
  yaw: Deg;
  pitch: Deg;
  roll: Deg;
  still: boolean;
}

export interface TriggerInput {
  /** the gun's sequence number (repeats are dropped before the table: play/gun-input.ts) */
  n: number;
  k: TriggerKind;
  t: GunMs;
}

/** a count's lead-in never grows past this, whatever a gun's link did once */
const MAX_LEAD_IN_MS = 1500;

/** The lead-in for cues to these slots: the slowest gun's recent downlink plus a margin, never under the timing's. */
export function leadIn(
  sensors: readonly SeatSensors[],
  slots: readonly Seat[],
  t: { leadInMs: number; leadMarginMs: number },
): number {
  let worst = 0;
  for (const s of slots) worst = Math.max(worst, sensors[s]?.downlink.worstMs ?? 0);
  return Math.min(MAX_LEAD_IN_MS, Math.max(t.leadInMs, worst + t.leadMarginMs));
}

export class SeatSensors {
  /** 4 s at 50 Hz: a count's reading looks from before "3" to its window's end after it, with room for late samples */
  readonly window = new AimWindow(200);
  readonly clock: GunClock;
  /** how long the hub's messages take to reach the gun (its clock probes) */
  readonly downlink = new Downlink();
  online = true;
  /** calibration: null = raw yaw is already a table bearing */
  track: OffsetTrack | null = null;
  /** live target as last computed, and as last shown on the LED */
  live: Seat | null = null;
  shown: Seat | null = null;
  /** the other seat when the live heading sits between two (the LED blinks both), and as last shown */
  between: Seat | null = null;
  shownBetween: Seat | null = null;
  lastLockAt: HubMs = Number.NEGATIVE_INFINITY;
  /** when a count's beats end their white flash (hub ms, in order): the LED is dark after each, whatever it showed */
  flashEnds: HubMs[] = [];

  constructor(
    readonly seat: Seat,
    clockWindowMs: number,
  ) {
    this.clock = new GunClock(clockWindowMs);
  }

  addAim(s: AimInput, hubRecv: HubMs): boolean {
    if (!this.window.push(s.t, s.yaw, s.pitch, s.roll, s.still)) return false;
    this.clock.observe(s.t, hubRecv);
    return true;
  }

  /** A clock probe: the `time` answer sent at hub ms `h` reached the gun at its ms `a`. */
  probe(h: HubMs, a: GunMs): void {
    this.downlink.observe(this.clock, h, a);
  }

  /** The bearings from seat `from` (`row`) as this gun's player points along them: with the biases learned. */
  row(row: readonly Deg[]): readonly Deg[] {
    return biasedRow(this.track, row);
  }

  /** The yaw offset to add at gun time t. */
  offsetAt(t: GunMs): Deg {
    return this.track === null ? 0 : offsetAt(this.track, t);
  }

  /**
   * Where the gun pointed at gun time `t`, seen from seat `from` (`row`: its bearings), with its offset, as far as the
   * table may act on it.
   */
  target(t: GunMs, row: readonly Deg[], from: Seat, opts: AimOptions, eligible: (s: Seat) => boolean): TargetResult {
    const seen = biasedRow(this.track, row);
    return trusted(this.track, resolveTarget(this.window, t, this.offsetAt(t), seen, from, opts, eligible));
  }

  /**
   * What the count whose "3" is at gun time `go` reads, the stream in up to gun time `upTo` (aim/draw.ts), seen from
   * seat `from`, as far as the table may act on it.
   */
  draw(
    go: GunMs,
    upTo: GunMs,
    w: DrawWindow,
    row: readonly Deg[],
    from: Seat,
    opts: AimOptions,
    eligible: (s: Seat) => boolean,
  ): DrawVerdict {
    const seen = biasedRow(this.track, row);
    const v = readDraw(this.window, go, upTo, w, this.offsetAt(go), seen, from, opts, eligible);
    return v.kind === "wait" ? v : { ...v, result: trusted(this.track, v.result) };
  }

  /**
   * While the gun's LED follows its live target: what it shows now — its target's colour, blinking the other seat's
   * when between two, dark for nobody — or undefined when nothing changed or it changed too recently (`intervalMs`).
   */
  lockCue(now: HubMs, intervalMs: number): { colour?: Seat; blink?: Seat } | undefined {
    // a beat of the count flashed white and left the LED dark: its colour is shown again
    let dark = false;
    while (this.flashEnds.length > 0 && now >= this.flashEnds[0]!) {
      if (this.flashEnds.shift()! > this.lastLockAt) dark = true;
    }
    const shows = this.live !== this.shown || this.between !== this.shownBetween || dark;
    if (!shows || now - this.lastLockAt < intervalMs) {
      if (dark) this.flashEnds.unshift(now);
      return undefined;
    }
    this.shown = this.live;
    this.shownBetween = this.between;
    this.lastLockAt = now;
    if (this.live === null) return {};
    return this.between === null ? { colour: this.live } : { colour: this.live, blink: this.between };
  }

  /** The newest sample's gun time, or null. */
  get newestT(): GunMs | null {
    return this.window.size > 0 ? this.window.t(0) : null;
  }
}
