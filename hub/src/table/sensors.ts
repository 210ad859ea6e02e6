// What the table knows of one seat's gun: its recent aim samples, its clock offset, how long messages take to
// reach it, its yaw offset track, whether it is online. (QoS 1 repeats of a trigger event are dropped once, where they arrive: play/gun-input.ts.)
import type { GunMs, HubMs, TriggerKind } from "@cng/protocol";
import {
  type AimOptions,
  AimWindow,
  type Deg,
  GunClock,
  type OffsetTrack,
  offsetAt,
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

export class SeatSensors {
  readonly window = new AimWindow(64);
  readonly clock: GunClock;
  /** how long the hub's messages take to reach the gun (its clock probes) */
  readonly downlink = new Downlink();
  online = true;
  /** calibration: null = raw yaw is already a table bearing */
  track: OffsetTrack | null = null;
  /** live target as last computed, and as last shown on the LED */
  live: Seat | null = null;
  shown: Seat | null = null;
  lastLockAt: HubMs = Number.NEGATIVE_INFINITY;

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

  /** The yaw offset to add at gun time t. */
  offsetAt(t: GunMs): Deg {
    return this.track === null ? 0 : offsetAt(this.track, t);
  }

  /**
   * Where the gun pointed at gun time `t`, seen from seat `from` (`row`: its bearings), with its offset, as far as the
   * table may act on it.
   */
  target(t: GunMs, row: readonly Deg[], from: Seat, opts: AimOptions, eligible: (s: Seat) => boolean): TargetResult {
    return trusted(this.track, resolveTarget(this.window, t, this.offsetAt(t), row, from, opts, eligible));
  }

  /** The newest sample's gun time, or null. */
  get newestT(): GunMs | null {
    return this.window.size > 0 ? this.window.t(0) : null;
  }
}
