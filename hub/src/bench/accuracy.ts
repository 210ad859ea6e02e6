// `cng bench accuracy`: how often a hold-up names the target the player meant. Many simulated games on
// round tables of 4, 6 and 8 seats, per-sample yaw noise σ = 1°, 3°, 5°, gyro bias 0.05 °/s, people from
// sim/human.ts (the table's own figures, and the hard end of the literature's ranges: docs/human-model.md); calibration by the 3-pose wizard, then each gun's offset fitted through its snapshots, with the
// re-centre pose asked of every gun each round ("pose"), of a gun in doubt only ("snapshots", the table's default)
// or never ("none"). Side by side: plain nearest-seat on the same samples (the last
// sample, the wizard's offset only) and nearest-seat on our median heading and tracked offset.
import {
  type AimOptions,
  AimWindow,
  aimOptions,
  angleDist,
  type Bearings,
  bearings,
  calibrate,
  inDoubt,
  learnFromSnapshot,
  offsetAt,
  readWindow,
  recentreFromPose,
  resolveTarget,
  roundTable,
  startTrack,
  trusted,
  wrapDeg,
} from "../aim/index.js";
import {
  DEFAULT_HUMAN,
  type HumanTraits,
  type MovePlan,
  PESSIMISTIC_HUMAN,
  planMove,
  poseAt,
  sense,
} from "../sim/human.js";
import { type Random, seededRandom, uniform } from "../sim/prng.js";
import type { Bench, BenchOptions } from "./index.js";

export interface AccuracyConfig {
  seats: number;
  noiseDeg: number;
  biasDegPerS: number;
  /** games to play; each game: calibration, then `rounds` hold-ups per seat */
  games: number;
  rounds: number;
  seed: number;
  /**
   * how each gun is re-centred every round: "pose" = at the round's start everyone points at the Godfather
   * and pulls (the Godfather skips), plus learning from snapshots; "snapshots" = learning, and the pose asked of a
   * gun whose history is in doubt (the table's default); "none" = learning only, never a pose.
   */
  recentre: "pose" | "snapshots" | "none";
}

/** who plays: the bench's own people, or the hard end of every range in docs/human-model.md */
export type People = "ours" | "pessimistic";
const PEOPLE: Record<People, HumanTraits> = { ours: DEFAULT_HUMAN, pessimistic: PESSIMISTIC_HUMAN };

export interface AccuracyRow {
  recentre: AccuracyConfig["recentre"];
  people: People;
  biasDegPerS: number;
  seats: number;
  noiseDeg: number;
  holdUps: number;
  /** percentages of all hold-ups */
  correct: number;
  reaim: number;
  nobody: number;
  wrong: number;
  /** the player's own miss: the hand pointed nearer another seat than the one meant */
  ownMiss: number;
  /** wrong though the hand pointed nearest the seat meant: the hub's own mistakes */
  wrongOurs: number;
  /** correct among the hold-ups of players who were not slow */
  correctUnhurried: number;
  /** slow players drawn (most end as nobody: too slow) */
  slow: number;
  /** re-centre poses asked, percent of hold-ups */
  poses: number;
  /** plain nearest seat on the newest sample with the wizard's offset only */
  naiveCorrect: number;
  naiveWrong: number;
  /** nearest seat on the median heading with the tracked offset, no margins */
  nearestCorrect: number;
  nearestWrong: number;
  /** mean |offset error| at the snapshots, degrees (how well calibration + tracking hold) */
  meanOffsetErrorDeg: number;
}

const SAMPLE_MS = 20; // 50 Hz during a count
const COUNT_MS = 1400; // "1", "2", "3": 700 ms apart
const GRACE_MS = 250;

/** A person aims at `seat` from `shooter` and holds; returns the raw yaw the wizard would record. */
function calibrationPose(
  random: Random,
  human: HumanTraits,
  sensor: Parameters<typeof sense>[1],
  b: Bearings,
  shooter: number,
  seat: number,
  cueMs: number,
  opts: AimOptions,
  win: AimWindow,
): number | null {
  // the wizard waits for a steady gun, then the pull: take the window 2.5 s after the prompt
  const plan = planMove(
    random,
    { ...human, slowProb: 0 },
    {
      kind: "aim",
      cueMs,
      from: { yaw: b[shooter][seat] + uniform(random, -60, 60), pitch: -30, roll: 0 },
      targetBearingDeg: b[shooter][seat],
    },
  );
  const at = cueMs + 2500;
  fillWindow(random, plan, sensor, win, at);
  const r = readWindow(win, at, opts);
  return r.kind === "reading" ? r.rawHeadingDeg : null;
}

function fillWindow(random: Random, plan: MovePlan, sensor: Parameters<typeof sense>[1], win: AimWindow, at: number) {
  win.clear();
  const phase = random() * SAMPLE_MS;
  for (let t = at - 600 + phase; t <= at; t += SAMPLE_MS) {
    const s = sense(random, sensor, poseAt(plan, t), t);
    win.push(s.t, s.yaw, s.pitch, s.roll, s.still);
  }
}

function nearestSeat(heading: number, row: readonly number[], shooter: number): number {
  let best = -1;
  let bestD = Number.POSITIVE_INFINITY;
  for (let j = 0; j < row.length; j++) {
    if (j === shooter) continue;
    const d = angleDist(heading, row[j]);
    if (d < bestD) {
      bestD = d;
      best = j;
    }
  }
  return best;
}

/**
 * Plays `cfg.games` games and counts outcomes. `deadline` (ms since epoch, optional) cuts it short; `human`
 * replaces the people's traits (to try one figure at a time).
 */
export function measureAccuracy(
  cfg: AccuracyConfig,
  opts: AimOptions = aimOptions(),
  people: People = "ours",
  deadline = Number.POSITIVE_INFINITY,
  human: HumanTraits = PEOPLE[people],
): AccuracyRow {
  const random = seededRandom(cfg.seed);
  const n = cfg.seats;
  const b = bearings(roundTable(n));
  const win = new AimWindow();
  let holdUps = 0;
  let correct = 0;
  let reaim = 0;
  let nobody = 0;
  let wrong = 0;
  let ownMiss = 0;
  let wrongOurs = 0;
  let correctUnhurried = 0;
  let slow = 0;
  let poses = 0;
  let naiveCorrect = 0;
  let naiveWrong = 0;
  let nearestCorrect = 0;
  let nearestWrong = 0;
  let offsetErrSum = 0;
  for (let g = 0; g < cfg.games && Date.now() < deadline; g++) {
    for (let s = 0; s < n; s++) {
      const sensor = {
        offsetDeg: uniform(random, -180, 180),
        biasDegPerS: random() < 0.5 ? cfg.biasDegPerS : -cfg.biasDegPerS,
        noiseDeg: cfg.noiseDeg,
        tiltNoiseDeg: 0.5,
      };
      const trueOffsetAt = (t: number) => wrapDeg(sensor.offsetDeg - (sensor.biasDegPerS * t) / 1000);
      // the wizard: three seats spread round the table (first, middle and last target from this seat)
      const poseSeats = [(s + 1) % n, (s + Math.floor(n / 2)) % n, (s + n - 1) % n];
      let t = 5000;
      let calOffset = 0;
      for (let attempt = 0; attempt < 3; attempt++) {
        const poses = [];
        for (const seat of poseSeats) {
          const raw = calibrationPose(random, human, sensor, b, s, seat, t, opts, win);
          t += 4000;
          if (raw !== null) poses.push({ seat, rawYawDeg: raw });
        }
        const cal = calibrate(poses, b[s], s, opts);
        calOffset = cal.offsetDeg;
        if (cal.verdict === "ok") break;
      }
      let track = startTrack(calOffset, t, opts, poseSeats.length);

      for (let r = 0; r < cfg.rounds; r++) {
        t += uniform(random, 40_000, 80_000);
        const godfather = r % n;
        const pose = cfg.recentre === "pose" || (cfg.recentre === "snapshots" && inDoubt(track, opts));
        if (pose && godfather !== s) {
          poses++;
          const poseTime = t - uniform(random, 15_000, 30_000);
          const raw = calibrationPose(random, human, sensor, b, s, godfather, poseTime - 2500, opts, win);
          if (raw !== null) track = recentreFromPose(track, poseTime, b[s][godfather], raw, opts).track;
        }
        const intended = (s + 1 + Math.floor(random() * (n - 1))) % n;
        const plan = planMove(random, human, {
          kind: "aim",
          cueMs: t,
          from: { yaw: uniform(random, -180, 180), pitch: uniform(random, -70, -30), roll: 0 },
          targetBearingDeg: b[s][intended],
        });
        if (plan.slow) slow++;
        const at = t + COUNT_MS + GRACE_MS;
        fillWindow(random, plan, sensor, win, at);
        holdUps++;
        const offset = offsetAt(track, at);
        offsetErrSum += angleDist(offset, trueOffsetAt(at));
        const result = trusted(track, resolveTarget(win, at, offset, b[s], s, opts));
        const own = nearestSeat(plan.to.yaw, b[s], s) !== intended;
        if (own) ownMiss++;
        if (result.kind === "target") {
          if (result.seat === intended) {
            correct++;
            if (!plan.slow) correctUnhurried++;
          } else {
            wrong++;
            if (!own) wrongOurs++;
          }
        } else if (result.kind === "ambiguous") reaim++;
        else nobody++;

        const naive = nearestSeat(wrapDeg(win.yaw(0) + calOffset), b[s], s);
        if (naive === intended) naiveCorrect++;
        else naiveWrong++;
        const reading = readWindow(win, at, opts, false);
        if (reading.kind === "reading") {
          const nearest = nearestSeat(wrapDeg(reading.rawHeadingDeg + offset), b[s], s);
          if (nearest === intended) nearestCorrect++;
          else nearestWrong++;
        }
        track = learnFromSnapshot(track, at, result, b[s], opts).track;
      }
    }
  }
  const pct = (k: number) => (holdUps ? (100 * k) / holdUps : 0);
  return {
    recentre: cfg.recentre,
    people,
    biasDegPerS: cfg.biasDegPerS,
    seats: n,
    noiseDeg: cfg.noiseDeg,
    holdUps,
    correct: pct(correct),
    reaim: pct(reaim),
    nobody: pct(nobody),
    wrong: pct(wrong),
    ownMiss: pct(ownMiss),
    wrongOurs: pct(wrongOurs),
    correctUnhurried: holdUps > slow ? (100 * correctUnhurried) / (holdUps - slow) : 0,
    slow: pct(slow),
    poses: pct(poses),
    naiveCorrect: pct(naiveCorrect),
    naiveWrong: pct(naiveWrong),
    nearestCorrect: pct(nearestCorrect),
    nearestWrong: pct(nearestWrong),
    meanOffsetErrorDeg: holdUps ? offsetErrSum / holdUps : 0,
  };
}

export const SEAT_COUNTS = [4, 6, 8] as const;
export const NOISES_DEG = [1, 3, 5] as const;
/** games per configuration when no time bound is given: ≈ 100,000 hold-ups at 8 seats */
const DEFAULT_GAMES = 1000;
const ROUNDS = 12;
/** the gyro's drift at the hard end: a gun warming in the hand (docs/human-model.md) */
const PESSIMISTIC_DRIFT = 0.2;

function table(rows: AccuracyRow[]): string {
  const f = (x: number, d = 2) => x.toFixed(d).padStart(7);
  const head =
    "re-centre  people       drift°/s  seats  σ°  hold-ups | correct  re-aim  nobody   wrong |  slow unhurried ok | own miss  wrong ours |  poses | naive ok  wrong | nearest ok  wrong | offset err°";
  const lines = rows.map(
    (r) =>
      `${r.recentre.padEnd(9)}  ${r.people.padEnd(11)}  ${r.biasDegPerS.toFixed(2).padStart(8)}  ${String(r.seats).padStart(5)} ${String(r.noiseDeg).padStart(3)} ${String(r.holdUps).padStart(9)} |` +
      `${f(r.correct)} ${f(r.reaim)} ${f(r.nobody)} ${f(r.wrong, 3)} |${f(r.slow)}      ${f(r.correctUnhurried)} |` +
      `  ${f(r.ownMiss, 3)}    ${f(r.wrongOurs, 3)} |${f(r.poses)} |` +
      ` ${f(r.naiveCorrect)} ${f(r.naiveWrong)} |    ${f(r.nearestCorrect)} ${f(r.nearestWrong)} | ${r.meanOffsetErrorDeg.toFixed(2)}`,
  );
  return [
    head,
    ...lines,
    "(percent of hold-ups; unhurried ok = correct among players not drawn slow; own miss = the hand pointed nearer " +
      "another seat; wrong ours = wrong though the hand pointed nearest the seat meant; poses = re-centre poses " +
      "asked; naive = newest sample + wizard offset only; nearest = our heading, no margins)",
  ].join("\n");
}

export const accuracy: Bench = {
  name: "accuracy",
  summary: "hold-up target accuracy: % correct / re-aim / wrong on 4–8 seat tables, σ 1–5°, vs plain nearest-seat",
  async run(o: BenchOptions): Promise<void> {
    const f = o.flags ?? {};
    if (f.games !== undefined) {
      const { runAccuracyGames, gamesTable } = await import("./accuracy-games.js");
      const rows = await runAccuracyGames({
        seeds: f.games,
        workers: f.workers ?? 2,
        espruino: f.espruino ?? 1,
        say: (s) => process.stderr.write(`${s}\n`),
      });
      process.stdout.write(
        o.json ? `${JSON.stringify({ bench: "accuracy", games: rows }, null, 2)}\n` : `${gamesTable(rows)}\n`,
      );
      return;
    }
    // The main grid re-centres with a Godfather pose each round; then, at 8 seats, the table's default (snapshots,
    // the pose for a gun in doubt) and learning from snapshots alone (never a pose); last, the table's default with
    // the hard end of the people's ranges, and of the gyro's drift too.
    type Row = Pick<AccuracyConfig, "seats" | "noiseDeg" | "recentre"> & { people?: People; bias?: number };
    const configs: Row[] = [
      ...SEAT_COUNTS.flatMap((seats) => NOISES_DEG.map((noiseDeg) => ({ seats, noiseDeg, recentre: "pose" as const }))),
      ...NOISES_DEG.map((noiseDeg) => ({ seats: 8, noiseDeg, recentre: "snapshots" as const })),
      ...NOISES_DEG.map((noiseDeg) => ({ seats: 8, noiseDeg, recentre: "none" as const })),
      ...[0.05, PESSIMISTIC_DRIFT].flatMap((bias) =>
        [3, 5].map((noiseDeg) => ({
          seats: 8,
          noiseDeg,
          recentre: "snapshots" as const,
          people: "pessimistic" as const,
          bias,
        })),
      ),
    ];
    const start = Date.now();
    const rows: AccuracyRow[] = [];
    for (const [i, c] of configs.entries()) {
      const deadline = o.seconds ? start + (o.seconds * 1000 * (i + 1)) / configs.length : Number.POSITIVE_INFINITY;
      const { people = "ours", bias = 0.05, ...cfg } = c;
      const seed = 1000 * c.seats + c.noiseDeg;
      rows.push(
        measureAccuracy(
          { ...cfg, biasDegPerS: bias, games: DEFAULT_GAMES, rounds: ROUNDS, seed },
          aimOptions(),
          people,
          deadline,
        ),
      );
    }
    if (o.json) process.stdout.write(`${JSON.stringify({ bench: "accuracy", rows }, null, 2)}\n`);
    else process.stdout.write(`${table(rows)}\n`);
  },
};
