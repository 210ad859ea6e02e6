// Messages between the bench (main thread) and its load worker (aim streams + trigger probes).

export interface GunLogin {
  id: string;
  username: string;
  password?: string;
}

export interface WorkerSetup {
  url: string;
  /** `cng/v1/<table>` */
  root: string;
  guns: GunLogin[];
  /** the shared time origin (ms, performance.timeOrigin + now()) aim sample times count from */
  epochMs: number;
  /** subscribe each gun to its cues, for trigger probes */
  probes: boolean;
}

export interface RunRequest {
  type: "run";
  /** aim samples a second, all guns together (spread evenly) */
  rate: number;
  seconds: number;
  /** how often the generator wakes to write what is due, ms */
  tickMs: number;
  /** trigger → cue probes: one outstanding at a time, this gap (ms, ± half at random) between them */
  probeGapMs: number | null;
}

export type ToWorker = RunRequest | { type: "close" };

export interface RunResult {
  type: "done";
  /** aim samples written */
  sent: number;
  /** round trips, ms */
  rtts: number[];
  /** probes sent whose cue did not come back within a second */
  probesLost: number;
  /** how busy the worker's event loop was (0–1): near 1 = the generator is the limit */
  elu: number;
  /** achieved seconds of sending */
  seconds: number;
}

export type FromWorker = { type: "ready" } | RunResult | { type: "error"; message: string };

/** Microseconds since the shared epoch: the aim samples' `t`, so the receiver can time them. */
export function sinceEpochUs(epochMs: number): number {
  return Math.round((performance.timeOrigin + performance.now() - epochMs) * 1000);
}
