// A gun's recent orientation samples, in gun time: a fixed ring buffer, so taking 50 samples a second per gun
// allocates nothing. Snapshot, lie-down and live-aim all read from it.
import type { Deg } from "./angles.js";

/** Gun-local time, ms since the gun booted (the protocol's `t`). */
export type GunMs = number;

export interface AimSample {
  t: GunMs;
  /** raw yaw, uncalibrated, degrees */
  yaw: Deg;
  /** up is positive */
  pitch: Deg;
  roll: Deg;
  /** the gun says its gyro has been quiet for a moment */
  still: boolean;
}

/** A gap back in time this large means the gun rebooted (its clock restarted): drop the old samples. */
const REBOOT_BACKSTEP_MS = 5000;

export class AimWindow {
  readonly capacity: number;
  private readonly ts: Float64Array;
  private readonly yaws: Float64Array;
  private readonly pitches: Float64Array;
  private readonly rolls: Float64Array;
  private readonly stills: Uint8Array;
  /** index the next sample goes to */
  private head = 0;
  private count = 0;

  /** 64 samples = 1.3 s at 50 Hz: room for the snapshot window plus late arrivals. */
  constructor(capacity = 64) {
    if (!Number.isInteger(capacity) || capacity < 2) throw new RangeError(`capacity must be an integer ≥ 2`);
    this.capacity = capacity;
    this.ts = new Float64Array(capacity);
    this.yaws = new Float64Array(capacity);
    this.pitches = new Float64Array(capacity);
    this.rolls = new Float64Array(capacity);
    this.stills = new Uint8Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /**
   * Adds a sample. Returns false when it is dropped: a repeat or out-of-order sample (aim is QoS 0, order
   * is what the connection gives). A jump back of seconds is a reboot and restarts the window.
   */
  push(t: GunMs, yaw: Deg, pitch: Deg, roll: Deg, still: boolean): boolean {
    if (!Number.isFinite(t) || !Number.isFinite(yaw) || !Number.isFinite(pitch) || !Number.isFinite(roll)) {
      return false;
    }
    if (this.count > 0) {
      const newest = this.ts[this.index(0)];
      if (t <= newest) {
        if (newest - t < REBOOT_BACKSTEP_MS) return false;
        this.clear();
      }
    }
    const i = this.head;
    this.ts[i] = t;
    this.yaws[i] = yaw;
    this.pitches[i] = pitch;
    this.rolls[i] = roll;
    this.stills[i] = still ? 1 : 0;
    this.head = (i + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
    return true;
  }

  pushSample(s: AimSample): boolean {
    return this.push(s.t, s.yaw, s.pitch, s.roll, s.still);
  }

  clear(): void {
    this.head = 0;
    this.count = 0;
  }

  /** Buffer index of the k-th newest sample (k = 0 is the newest). */
  private index(k: number): number {
    return (this.head - 1 - k + 2 * this.capacity) % this.capacity;
  }

  /** Time of the k-th newest sample. */
  t(k: number): GunMs {
    return this.ts[this.index(k)];
  }
  yaw(k: number): Deg {
    return this.yaws[this.index(k)];
  }
  pitch(k: number): Deg {
    return this.pitches[this.index(k)];
  }
  roll(k: number): Deg {
    return this.rolls[this.index(k)];
  }
  still(k: number): boolean {
    return this.stills[this.index(k)] === 1;
  }

  /** k of the newest sample taken at or before `t`, or −1 when there is none. */
  newestAtOrBefore(t: GunMs): number {
    for (let k = 0; k < this.count; k++) if (this.ts[this.index(k)] <= t) return k;
    return -1;
  }
}
