// Every duration the table uses, in one object. Defaults are meant to feel right at a real table; `fast` keeps
// the same shape for tests and demos.

import { CLOCK_WINDOW_MS } from "../aim/index.js";

export interface TableTiming {
  /**
   * cues go out at least this long before the first beat; longer when a gun's recent downlink was slower (its delay
   * plus `leadMarginMs`), so every gun has them before they must play
   */
  leadInMs: number;
  /** what a count's lead-in keeps above the slowest gun's recent downlink delay */
  leadMarginMs: number;
  /** "1" → "2" → "3" */
  countPaceMs: number;
  /** the pace of the short count after the Godfather's order */
  shortCountPaceMs: number;
  /** the snapshot is taken at "3" + grace (gun time) */
  graceMs: number;
  /**
   * a verdict waits for each gun's stream to reach its instant (coverage.ts), at most this long; a gun still short
   * of it then lags (the network's doing) and is counted again
   */
  lagBoundMs: number;
  /** re-counts for a lagging gun before it is taken as away (the drop rule) */
  maxLagRecounts: number;
  /** pause before re-running a count for ambiguous or returning guns */
  recountPauseMs: number;
  /** re-runs of a count for an ambiguous aim before it counts as nobody */
  maxRecounts: number;
  /** how long the Godfather has to point and pull for the privilege */
  privilegeWindowMs: number;
  /** how long the round-start re-centre pose waits for pulls (table option recentre: "pose") */
  recentreWindowMs: number;
  /** how long each reveal window stays open */
  revealWindowMs: number;
  /** a gun that dropped: how long the round waits for it before it counts as too slow */
  dropWaitMs: number;
  /** phone: after a pull, how long to wait for the double pull that flips it */
  phoneDoubleMs: number;
  /** phone: no pull at all in this long = pass it on */
  phoneTimeoutMs: number;
  /** at most one live-aim `lock` cue per gun this often */
  lockIntervalMs: number;
  /** the gun clock offset is the minimum of (hub receive − gun time) over this long */
  clockWindowMs: number;
}

export const DEFAULT_TIMING: Readonly<TableTiming> = Object.freeze({
  leadInMs: 300,
  leadMarginMs: 60,
  countPaceMs: 700,
  shortCountPaceMs: 450,
  graceMs: 250,
  lagBoundMs: 1500,
  maxLagRecounts: 3,
  recountPauseMs: 800,
  maxRecounts: 2,
  privilegeWindowMs: 6000,
  recentreWindowMs: 6000,
  revealWindowMs: 3000,
  dropWaitMs: 5000,
  phoneDoubleMs: 600,
  phoneTimeoutMs: 20000,
  lockIntervalMs: 150,
  clockWindowMs: CLOCK_WINDOW_MS,
});

/** Quick but still realistic relative to 50 Hz samples: for tests and demos. */
export const FAST_TIMING: Readonly<TableTiming> = Object.freeze({
  ...DEFAULT_TIMING,
  leadInMs: 100,
  countPaceMs: 300,
  shortCountPaceMs: 200,
  graceMs: 150,
  lagBoundMs: 1000,
  recountPauseMs: 200,
  privilegeWindowMs: 1500,
  recentreWindowMs: 1500,
  revealWindowMs: 800,
  dropWaitMs: 1500,
  phoneDoubleMs: 300,
  phoneTimeoutMs: 3000,
  lockIntervalMs: 100,
});

export function tableTiming(
  overrides: Partial<TableTiming> = {},
  base: Readonly<TableTiming> = DEFAULT_TIMING,
): TableTiming {
  return { ...base, ...overrides };
}
