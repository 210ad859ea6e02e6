// A gun's clock offset as the hub sees it: offset = min(hub receive − gun time) over recent samples. The
// minimum is the sample that travelled fastest, so it is the best bound on the true offset (plus the
// network's floor latency, the same for every gun on one WiFi).
import type { GunMs, HubMs } from "@cng/protocol";

/** how long the offset's minimum looks back: long enough for a fast sample, short enough to follow crystal drift */
export const CLOCK_WINDOW_MS = 20_000;

/** A jump up this large in (receive − gun time) means the gun rebooted: its clock restarted. */
const RESTART_JUMP_MS = 5000;

export class GunClock {
  /** (hub receive, hub − gun), deltas increasing: a monotonic queue for the sliding minimum */
  private readonly queue: { at: HubMs; delta: number }[] = [];

  constructor(private readonly windowMs: number = CLOCK_WINDOW_MS) {}

  observe(gunT: GunMs, hubRecv: HubMs): void {
    const delta = hubRecv - gunT;
    const q = this.queue;
    if (q.length > 0 && delta > q[0]!.delta + RESTART_JUMP_MS) q.length = 0;
    if (q.length > 0 && delta < q[0]!.delta - RESTART_JUMP_MS) q.length = 0;
    while (q.length > 0 && q[q.length - 1]!.delta >= delta) q.pop();
    q.push({ at: hubRecv, delta });
    while (q.length > 1 && q[0]!.at < hubRecv - this.windowMs) q.shift();
  }

  /** Forgets the offset (the gun may have restarted its clock). */
  reset(): void {
    this.queue.length = 0;
  }

  /** hub − gun, or null before the first sample */
  get offset(): number | null {
    return this.queue.length > 0 ? this.queue[0]!.delta : null;
  }

  toGun(hub: HubMs): GunMs | null {
    const o = this.offset;
    return o === null ? null : hub - o;
  }

  toHub(gun: GunMs): HubMs | null {
    const o = this.offset;
    return o === null ? null : gun + o;
  }
}
