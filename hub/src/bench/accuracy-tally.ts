// What a row of `cng bench accuracy` counts over its hold-ups, and the row it reports: each outcome as % of them.
import type { TargetResult } from "../aim/index.js";
import type { AccuracyConfig, AccuracyRow } from "./accuracy.js";
import type { HoldUpPlayed } from "./holdup.js";

export class Tally {
  holdUps = 0;
  correct = 0;
  reaim = 0;
  nobody = 0;
  wrong = 0;
  ownMiss = 0;
  wrongOurs = 0;
  correctUnhurried = 0;
  slow = 0;
  poses = 0;
  corrections = 0;
  naiveCorrect = 0;
  naiveWrong = 0;
  nearestCorrect = 0;
  nearestWrong = 0;
  offsetErrSum = 0;
  aimErrSum = 0;

  /** The hub's verdict on a hold-up meant at `intended`, as the person played it. */
  verdict(result: TargetResult, intended: number, played: HoldUpPlayed): void {
    if (played.ownMiss) this.ownMiss++;
    if (result.kind === "target") {
      if (result.seat === intended) {
        this.correct++;
        if (!played.slow) this.correctUnhurried++;
      } else {
        this.wrong++;
        if (!played.ownMiss) this.wrongOurs++;
      }
    } else if (result.kind === "ambiguous") this.reaim++;
    else this.nobody++;
  }

  /** The plain readings beside ours: the newest sample's nearest seat, and our median heading's. */
  plain(naive: number, nearest: number | null, intended: number): void {
    if (naive === intended) this.naiveCorrect++;
    else this.naiveWrong++;
    if (nearest === null) return;
    if (nearest === intended) this.nearestCorrect++;
    else this.nearestWrong++;
  }

  row(cfg: AccuracyConfig, people: AccuracyRow["people"], feedback: boolean, imu: AccuracyRow["imu"]): AccuracyRow {
    const holdUps = this.holdUps;
    const pct = (k: number) => (holdUps ? (100 * k) / holdUps : 0);
    return {
      recentre: cfg.recentre,
      people,
      feedback,
      imu,
      ...(cfg.known && { known: cfg.known }),
      biasDegPerS: cfg.biasDegPerS,
      seats: cfg.seats,
      noiseDeg: cfg.noiseDeg,
      holdUps,
      correct: pct(this.correct),
      reaim: pct(this.reaim),
      nobody: pct(this.nobody),
      wrong: pct(this.wrong),
      missed: pct(this.reaim + this.nobody),
      ownMiss: pct(this.ownMiss),
      wrongOurs: pct(this.wrongOurs),
      correctUnhurried: holdUps > this.slow ? (100 * this.correctUnhurried) / (holdUps - this.slow) : 0,
      slow: pct(this.slow),
      poses: pct(this.poses),
      corrections: pct(this.corrections),
      naiveCorrect: pct(this.naiveCorrect),
      naiveWrong: pct(this.naiveWrong),
      nearestCorrect: pct(this.nearestCorrect),
      nearestWrong: pct(this.nearestWrong),
      meanOffsetErrorDeg: holdUps ? this.offsetErrSum / holdUps : 0,
      meanAimErrorDeg: holdUps ? this.aimErrSum / holdUps : 0,
    };
  }
}
