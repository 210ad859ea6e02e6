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
  /** a count is first read at "3" + grace (gun time): a gun held steady from before "3" is read from there */
  graceMs: number;
  /**
   * a draw at "3" (the rule books': "when I reach three, each player must point") is read at its first steady hold that
   * begins by "3" + this; with none by then the player was too slow. The people who draw at "3" (docs/human-model.md:
   * reaction to "3" median 280 ms, then a swing of up to ≈ 460 ms and a 250 ms correction) are settled by 1.3 s in
   * 99 cases of 100; the hold's reading needs its window of samples after that
   */
  drawMs: number;
  /**
   * the count closes at "3" + this: what is held then is the player's (a gun still moving names nobody). A draw steady
   * at the window's end still has a look at its colour and a correction's swing and settle (≈ 350 ms) after it
   */
  closeMs: number;
  /**
   * a hold left by "3" + this gives way to the next one: a switch at "3" (the 99.5th percentile of a reaction to it,
   * 610 ms, and the ≈ 170 ms a swing takes to move the reading off its hold)
   */
  switchMs: number;
  /**
   * a hold left within this of its start gives way to the next one: the player saw the gun's colour as the swing ended
   * and corrected it (the lock cue's interval and the LED's latency, 180 ms; a visual reaction's 97.5th percentile,
   * 450 ms; and the ≈ 170 ms a move takes to show in the reading)
   */
  lookMs: number;
  /** a gun lowered by "3" + this lies down; lowered later, the player stays up ("trop lent à se coucher") */
  courageMs: number;
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
  drawMs: 1300,
  closeMs: 2400,
  switchMs: 800,
  lookMs: 800,
  courageMs: 1000,
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
  // the fast demo's people are this much quicker (sim/game.ts FAST_TEMPO)
  drawMs: 560,
  closeMs: 1030,
  switchMs: 340,
  lookMs: 340,
  courageMs: 430,
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
