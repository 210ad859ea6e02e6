// `cng bench accuracy`: how often a hold-up names the target the player meant. Many simulated games on
// round tables of 4, 6 and 8 seats, per-sample yaw noise σ = 1°, 3°, 5°, gyro bias 0.05 °/s, people from
// sim/human.ts, each set sourced in docs/human-model.md: the bench's own (`ours`, who draw on "1"), the hard end of
// their ranges (`pessimistic`), and a table that plays as the box says (`table`: most draw at "3", each with a bias of
// their own per direction, 5 cm at the body, the gun in front of the chest) and its hard end (`hard`). Those who
// watch the gun's colour correct a wrong one (rows with and without that reaction). Calibration by the 3-pose wizard,
// then each gun's offset fitted through its snapshots, with the re-centre pose asked of every gun each round
// ("pose"), of a gun in doubt only ("snapshots", the table's default) or never ("none"). Side by side: plain
// nearest-seat on the same samples (the last sample, the wizard's offset only) and nearest-seat on our median heading
// and tracked offset. For the box's people, rows where the hub is told what it would otherwise learn (`known`): what
// those people and chips allow, whatever the fit.
import type { SeatPoint } from "@cng/protocol";
import {
  type AimOptions,
  AimWindow,
  aimOptions,
  angleDiff,
  angleDist,
  type Bearings,
  bearings,
  biasedRow,
  biasOf,
  calibrate,
  inDoubt,
  learnFromSnapshot,
  liveAim,
  type OffsetTrack,
  offsetAt,
  type Ranges,
  ranges,
  readDraw,
  readWindow,
  recentreFromPose,
  roundTable,
  type SeatId,
  startTrack,
  type TargetResult,
  trusted,
  wrapDeg,
} from "../aim/index.js";
import { biasKey } from "../aim/offset-fit.js";
import { poseTargets } from "../play/calibration.js";
import {
  aimBearing,
  bodyBearing,
  drawImuErrors,
  drawTable,
  type HumanTraits,
  IMU_ERRORS,
  PEOPLE,
  PEOPLE_SETS,
  type People,
  type Person,
  planMove,
  poseAt,
  type SensorTraits,
  sense,
  slowHeadingError,
} from "../sim/human.js";
import { type Random, seededRandom, uniform } from "../sim/prng.js";
import { DEFAULT_TIMING } from "../table/timing.js";
import { Tally } from "./accuracy-tally.js";
import { type HoldUpPlay, type HoldUpPlayed, playHoldUp, type Shown } from "./holdup.js";
import type { Bench, BenchOptions } from "./index.js";

export type { People } from "../sim/human.js";

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
  /** the people who watch their gun's colour correct a wrong one (default: nobody reacts) */
  feedback?: boolean;
  /**
   * the IMU's heading error beyond the white noise and a steady drift: none ("white", default), or each chip's
   * (`chips`: guns MPU-6050 and BNO085 in turn, their scale factor, warm-up drift and slowly varying error)
   */
  imu?: "white" | "chips";
  /**
   * the hub is told, instead of learning it: "offset", the gun's offset and drift with the person's own bias (what the
   * calibration and the fit aim at); "all", that and the person's bias per direction and the chip's scale factor too.
   * What is left is the person's scatter per hold, the chip's slowly varying error and the noise: what the people and
   * the chips allow, whatever the fit
   */
  known?: "offset" | "all";
}

export interface AccuracyRow {
  recentre: AccuracyConfig["recentre"];
  people: People;
  /** the people who look reacted to the colour */
  feedback: boolean;
  imu: "white" | "chips";
  /** what the hub was told instead of learning it (AccuracyConfig.known) */
  known?: "offset" | "all";
  biasDegPerS: number;
  seats: number;
  noiseDeg: number;
  holdUps: number;
  /** percentages of all hold-ups */
  correct: number;
  reaim: number;
  nobody: number;
  wrong: number;
  /** aims meant at a player read as nobody or re-aim (a slow player's too) */
  missed: number;
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
  /** corrections people made after seeing the colour, percent of hold-ups */
  corrections: number;
  /** plain nearest seat on the newest sample with the wizard's offset only */
  naiveCorrect: number;
  naiveWrong: number;
  /** nearest seat on the median heading with the tracked offset, no margins */
  nearestCorrect: number;
  nearestWrong: number;
  /** mean |offset error| at the snapshots, degrees: against the gun's own offset and drift */
  meanOffsetErrorDeg: number;
  /**
   * mean |error| of what the hub expects a steady aim at the seat meant to read, against what the person's hold reads
   * without its scatter and noise: the offset and the learned direction bias together, against the gun's offset and
   * drift, the chip's errors and the person's biases (all of which the hub can learn)
   */
  meanAimErrorDeg: number;
}

/** One hold-up of a row as the bench read it. */
export interface HoldUpSeen {
  game: number;
  round: number;
  shooter: number;
  intended: number;
  result: TargetResult;
  person: Person;
  played: HoldUpPlayed;
  /** what the hub expects a steady aim at the seat meant to read, less what the person's hold reads (meanAimErrorDeg) */
  aimErrDeg: number;
  /** the offset the hub used less the one it would be told (AccuracyConfig.known "offset") */
  offsetErrDeg: number;
  /** the gun was asked for the pose this round */
  asked: boolean;
  /** the instant the count's reading ended, ms after "3" */
  readMs: number;
}

const SAMPLE_MS = 20; // 50 Hz during a count
const PACE_MS = DEFAULT_TIMING.countPaceMs; // "1", "2", "3"
/** a cue from the hub to the LED: the network's few ms and the firmware's turn */
const LED_LATENCY_MS = 30;

/** What the bench's hub does with a gun: its bearings, live reading and the count's verdict. */
interface HubSide {
  /** the bearings it reads a shooter's gun against, with the person's biases it learned */
  row(): readonly number[];
  /** the verdict of the count whose "3" is at gun ms `go`, and the instant its reading ended */
  verdict(win: AimWindow, go: number, offset: number): { result: TargetResult; at: number };
  /** the count's samples run this long after "3" */
  readsUntilMs: number;
}

/** A person aims at `seat` from `shooter` and holds; returns the raw yaw the wizard would record. */
function calibrationPose(
  random: Random,
  personal: Random,
  person: Person,
  seats: readonly SeatPoint[],
  leans: readonly number[],
  sensor: SensorTraits,
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
    { ...person.traits, slowProb: 0 },
    {
      kind: "aim",
      cueMs,
      from: { yaw: b[shooter][seat] + uniform(random, -60, 60), pitch: -30, roll: 0 },
      targetBearingDeg: aimBearing(personal, person, seats, shooter, seat, leans[seat] ?? 0),
    },
  );
  const at = cueMs + 2500;
  win.clear();
  const phase = random() * SAMPLE_MS;
  for (let t = at - 600 + phase; t <= at; t += SAMPLE_MS) {
    const s = sense(random, sensor, poseAt(plan, t), t);
    win.push(s.t, s.yaw, s.pitch, s.roll, s.still);
  }
  const r = readWindow(win, at, opts);
  return r.kind === "reading" ? r.rawHeadingDeg : null;
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

/** The hub as it reads a gun: the seats' bearings, the LED's live reading, the count's verdict over its window. */
function hubSide(b: Bearings, shooter: SeatId, track: () => OffsetTrack, opts: AimOptions): HubSide {
  const row = b[shooter]!;
  const w = DEFAULT_TIMING;
  return {
    row: () => biasedRow(track(), row),
    // the longest a reading can need: to the count's close
    readsUntilMs: w.closeMs + 20,
    verdict: (win, go, offset) => {
      const seen = biasedRow(track(), row);
      const v = readDraw(win, go, go + w.closeMs + 20, w, offset, seen, shooter, opts);
      if (v.kind === "wait") throw new Error("the bench gave the count its whole window");
      return { result: trusted(track(), v.result), at: v.kind === "read" ? v.t : go + w.drawMs };
    },
  };
}

/** The LED's colour as the hub would send it, sample by sample (its hysteresis needs the previous seat). */
function liveShown(win: AimWindow, offset: number, row: readonly number[], shooter: SeatId, opts: AimOptions) {
  let previous: SeatId | null = null;
  return (t: number): Shown => {
    const live = liveAim(win, t, offset, row, shooter, previous, opts);
    previous = live.seat;
    return { seat: live.seat, between: live.between };
  };
}

/** One gun at one seat of a bench game: its person, its sensor, the table it sees, the hub that reads it. */
interface GunAtSeat extends Pick<HoldUpPlay, "random" | "personal" | "person" | "sensor" | "seats" | "leans"> {
  cfg: AccuracyConfig;
  opts: AimOptions;
  human: HumanTraits;
  s: number;
  b: Bearings;
  far: Ranges;
  win: AimWindow;
  centre: number;
  feedback: boolean;
  trueOffsetAt(t: number): number;
  /** the raw heading a calibration pose at `seat` reads, prompted at `cueMs` (null: no steady reading) */
  pose(seat: number, cueMs: number): number | null;
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
  /** each hold-up as it was read (to look into what a row's figures are made of) */
  observe?: (h: HoldUpSeen) => void,
): AccuracyRow {
  const random = seededRandom(cfg.seed);
  // the people's own draws and the chips' errors: apart, so today's people draw their moves and samples as before
  const personal = seededRandom(cfg.seed * 7919 + 17);
  const imu = cfg.imu ?? "white";
  const feedback = cfg.feedback === true;
  const n = cfg.seats;
  const layout = roundTable(n);
  const seats = layout.seats;
  const b = bearings(layout, opts.gunForwardM);
  const far = ranges(layout, opts.gunForwardM);
  const win = new AimWindow(256);
  const tally = new Tally();
  for (let g = 0; g < cfg.games && Date.now() < deadline; g++) {
    const table = drawTable(personal, human, n);
    const leans = table.map((p) => p.leanM);
    for (let s = 0; s < n; s++) {
      const person = table[s]!;
      const centre = b[s][(s + Math.floor(n / 2)) % n]!;
      const sensor: SensorTraits = {
        offsetDeg: uniform(random, -180, 180),
        biasDegPerS: random() < 0.5 ? cfg.biasDegPerS : -cfg.biasDegPerS,
        noiseDeg: cfg.noiseDeg,
        tiltNoiseDeg: 0.5,
        ...(imu === "chips" ? drawImuErrors(personal, IMU_ERRORS[s % 2 === 0 ? "mpu6050" : "bno085"], centre) : {}),
      };
      const gun: GunAtSeat = {
        cfg,
        opts,
        human,
        random,
        personal,
        person,
        sensor,
        seats,
        leans,
        s,
        b,
        far,
        win,
        centre,
        feedback,
        trueOffsetAt: (t) => wrapDeg(sensor.offsetDeg - (sensor.biasDegPerS * t) / 1000),
        pose: (seat, cueMs) =>
          calibrationPose(random, personal, person, seats, leans, sensor, b, s, seat, cueMs, opts, win),
      };
      playGun(gun, g, tally, observe);
    }
  }
  return tally.row(cfg, people, feedback, imu);
}

/** One gun's game: the wizard's three poses, then a hold-up each round (and the re-centre pose when asked). */
function playGun(x: GunAtSeat, game: number, tally: Tally, observe?: (h: HoldUpSeen) => void): void {
  const { cfg, opts, random, s, b } = x;
  const n = cfg.seats;
  // the wizard: the three seats the hub's own wizard asks for, spread round the table
  const poseSeats = poseTargets(s, n, 3);
  let t = 5000;
  let calOffset = 0;
  for (let attempt = 0; attempt < 3; attempt++) {
    const made = [];
    for (const seat of poseSeats) {
      const raw = x.pose(seat, t);
      t += 4000;
      if (raw !== null) made.push({ seat, rawYawDeg: raw });
    }
    const cal = calibrate(made, b[s], s, opts);
    calOffset = cal.offsetDeg;
    if (cal.verdict === "ok") break;
  }
  let track = startTrack(calOffset, t, opts, poseSeats.length);
  const hub = hubSide(b, s, () => track, opts);
  for (let r = 0; r < cfg.rounds; r++) {
    t += uniform(random, 40_000, 80_000);
    if (cfg.known) track = toldTrack(x, t);
    const godfather = r % n;
    const asked = cfg.recentre === "pose" || (cfg.recentre === "snapshots" && inDoubt(track, opts));
    if (asked && godfather !== s) {
      tally.poses++;
      const poseTime = t - uniform(random, 15_000, 30_000);
      const raw = x.pose(godfather, poseTime - 2500);
      if (raw !== null)
        track = recentreFromPose(track, poseTime, b[s][godfather], raw, opts, {
          target: godfather,
          from: s,
          rangeM: x.far[s]![godfather]!,
        }).track;
    }
    const heard = holdUp(x, hub, track, t, tally);
    const seen = heard.seen;
    observe?.({
      game,
      round: r,
      shooter: s,
      ...seen,
      offsetErrDeg: angleDiff(heard.offset, toldTrack(x, heard.at).offsetDeg),
      asked,
    });
    // the plain readings on the same samples: the newest sample with the wizard's offset; our median heading
    const { win } = x;
    const newest = win.newestAtOrBefore(heard.at);
    const naive = newest < 0 ? -1 : nearestSeat(wrapDeg(win.yaw(newest) + calOffset), b[s], s);
    const reading = readWindow(win, heard.at, opts, false);
    const nearest =
      reading.kind === "reading" ? nearestSeat(wrapDeg(reading.rawHeadingDeg + heard.offset), b[s], s) : null;
    tally.plain(naive, nearest, seen.intended);
    track = learnFromSnapshot(track, heard.at, seen.result, b[s], opts, x.far[s]).track;
    t = heard.endMs;
  }
}

/** One hold-up at the count whose "1" is at `t`: the person draws at a seat, the hub reads it; counted in `tally`. */
function holdUp(x: GunAtSeat, hub: HubSide, track: OffsetTrack, t: number, tally: Tally) {
  const { random, person, s, b, cfg, human, seats, leans } = x;
  const n = cfg.seats;
  const intended = (s + 1 + Math.floor(random() * (n - 1))) % n;
  // held low between counts, about the table's centre as far as the people say (today's: anywhere)
  const from = {
    yaw: ((u) => (human.holdSpreadDeg >= 180 ? u : wrapDeg(x.centre + (u * human.holdSpreadDeg) / 180)))(
      uniform(random, -180, 180),
    ),
    pitch: uniform(random, -70, -30),
    roll: 0,
  };
  const go = t + 2 * PACE_MS;
  const offset = offsetAt(track, go);
  const played = playHoldUp({
    random,
    personal: x.personal,
    person,
    sensor: x.sensor,
    seats,
    leans,
    shooter: s,
    intended,
    oneMs: t,
    paceMs: PACE_MS,
    from,
    win: x.win,
    endMs: go + hub.readsUntilMs,
    feedback: x.feedback,
    live: liveShown(x.win, offset, hub.row(), s, x.opts),
    lockIntervalMs: DEFAULT_TIMING.lockIntervalMs,
    latencyMs: LED_LATENCY_MS,
  });
  if (played.slow) tally.slow++;
  tally.corrections += played.corrections;
  tally.holdUps++;
  const { result, at } = hub.verdict(x.win, go, offset);
  tally.offsetErrSum += angleDist(offset, x.trueOffsetAt(at));
  const aimTrue =
    bodyBearing(seats, person, s, intended, leans[intended] ?? 0) +
    person.biasDeg +
    (person.directionBiasDeg[intended] ?? 0);
  const aimErrDeg = angleDiff(
    offset - biasOf(track, s, intended),
    b[s][intended]! - (aimTrue - x.trueOffsetAt(at) + slowHeadingError(x.sensor, aimTrue, at)),
  );
  tally.aimErrSum += Math.abs(aimErrDeg);
  tally.verdict(result, intended, played);
  const seen = { intended, result, person, played, aimErrDeg, readMs: at - go };
  return { seen, offset, at, endMs: go + hub.readsUntilMs };
}

/** What the hub would know of the gun at `at` if it were told (cfg.known): its offset and drift, and its person's biases. */
function toldTrack(x: GunAtSeat, at: number): OffsetTrack {
  const { cfg, s, b, person, sensor, seats, leans, opts } = x;
  const bias: Record<number, number> = {};
  for (let j = 0; j < cfg.seats; j++) {
    if (j === s) continue;
    const aim = bodyBearing(seats, person, s, j, leans[j] ?? 0) + (person.directionBiasDeg[j] ?? 0);
    bias[biasKey(s, j)] = wrapDeg(
      aim + slowHeadingError({ ...sensor, slowErr: [], warmDegPerS: 0 }, aim + person.biasDeg, 0) - b[s][j]!,
    );
  }
  const warm = slowHeadingError({ ...sensor, slowErr: [], scaleFrac: 0 }, 0, at);
  const o = wrapDeg(x.trueOffsetAt(at) - person.biasDeg - warm);
  return { ...startTrack(o, at, opts), rateDegPerS: -sensor.biasDegPerS, ...(cfg.known === "all" && { bias }) };
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
    "re-centre     people       react  imu    drift°/s  seats  σ°  hold-ups | correct  re-aim  nobody   wrong  missed |  slow unhurried ok | own miss  wrong ours |  poses  fixes | naive ok  wrong | nearest ok  wrong | offset err° | aim err°";
  const lines = rows.map(
    (r) =>
      `${(r.known ? `known:${r.known}` : r.recentre).padEnd(12)}  ${r.people.padEnd(11)}  ${(r.feedback ? "yes" : "no").padEnd(5)}  ${r.imu.padEnd(5)}  ${r.biasDegPerS.toFixed(2).padStart(8)}  ${String(r.seats).padStart(5)} ${String(r.noiseDeg).padStart(3)} ${String(r.holdUps).padStart(9)} |` +
      `${f(r.correct)} ${f(r.reaim)} ${f(r.nobody)} ${f(r.wrong, 3)} ${f(r.missed)} |${f(r.slow)}      ${f(r.correctUnhurried)} |` +
      `  ${f(r.ownMiss, 3)}    ${f(r.wrongOurs, 3)} |${f(r.poses)}${f(r.corrections)} |` +
      ` ${f(r.naiveCorrect)} ${f(r.naiveWrong)} |    ${f(r.nearestCorrect)} ${f(r.nearestWrong)} | ${r.meanOffsetErrorDeg.toFixed(2).padStart(11)} | ${r.meanAimErrorDeg.toFixed(2)}`,
  );
  return [
    head,
    ...lines,
    "(percent of hold-ups; react = the people who watch the gun's colour correct a wrong one; imu = white noise only, " +
      "or each chip's errors too; missed = re-aim + nobody; unhurried ok = correct among players not drawn slow; own " +
      "miss = the hand pointed nearer another seat; wrong ours = wrong though the hand pointed nearest the seat meant; " +
      "poses = re-centre poses asked; fixes = corrections after seeing the colour; naive = newest sample + wizard " +
      "offset only; nearest = our heading, no margins; offset err = against the gun's own offset; aim err = what the " +
      "hub expects a hold at the seat meant to read against what it reads, less scatter and noise; known:offset = the " +
      "hub told the gun's offset with the person's own bias, known:all = their biases per direction too)",
  ].join("\n");
}

type Row = Pick<AccuracyConfig, "seats" | "noiseDeg" | "recentre" | "feedback" | "imu" | "known"> & {
  people?: People;
  bias?: number;
};

/**
 * The rows: the main grid re-centres with a Godfather pose each round; then, at 8 seats, the table's default
 * (snapshots, the pose for a gun in doubt) and learning from snapshots alone (never a pose); the table's default with
 * the hard end of the people's ranges, and of the gyro's drift too. Then the people who play as the box says
 * (`table`, `hard`) on guns with each chip's errors, at 8 seats, each with and without their reaction to the colour.
 */
export function accuracyRows(people: readonly People[] = PEOPLE_SETS): Row[] {
  const rows: Row[] = [
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
    ...(["table", "hard"] as const).flatMap((who) =>
      (["snapshots", "none", "pose"] as const).flatMap((recentre) =>
        [true, false].map((feedback) => ({
          seats: 8,
          noiseDeg: 3,
          recentre,
          people: who,
          feedback,
          imu: "chips" as const,
        })),
      ),
    ),
    // what such a table allows: the hub told the gun's offset (and the person's biases), not learning them
    ...(["table", "hard"] as const).flatMap((who) =>
      (["offset", "all"] as const).flatMap((known) =>
        [true, false].map((feedback) => ({
          seats: 8,
          noiseDeg: 3,
          recentre: "none" as const,
          people: who,
          feedback,
          imu: "chips" as const,
          known,
        })),
      ),
    ),
  ];
  return rows.filter((r) => people.includes(r.people ?? "ours"));
}

export const accuracy: Bench = {
  name: "accuracy",
  summary:
    "hold-up target accuracy: % correct / re-aim / wrong on 4–8 seat tables, σ 1–5°, per people set, vs plain nearest-seat",
  async run(o: BenchOptions): Promise<void> {
    const f = o.flags ?? {};
    const people = (o.lists?.people as People[] | undefined) ?? [...PEOPLE_SETS];
    if (f.games !== undefined) {
      const { runAccuracyGames, gamesTable } = await import("./accuracy-games.js");
      const rows = await runAccuracyGames({
        seeds: f.games,
        workers: f.workers ?? 2,
        espruino: f.espruino ?? 1,
        people,
        say: (s) => process.stderr.write(`${s}\n`),
      });
      process.stdout.write(
        o.json ? `${JSON.stringify({ bench: "accuracy", games: rows }, null, 2)}\n` : `${gamesTable(rows)}\n`,
      );
      return;
    }
    const configs = accuracyRows(people);
    const start = Date.now();
    const rows: AccuracyRow[] = [];
    // --holdups sizes the rows by their hold-ups at 8 seats (a 4-seat row gets half as many)
    const games = f.holdups !== undefined ? Math.max(1, Math.round(f.holdups / (8 * ROUNDS))) : DEFAULT_GAMES;
    for (const [i, c] of configs.entries()) {
      const deadline = o.seconds ? start + (o.seconds * 1000 * (i + 1)) / configs.length : Number.POSITIVE_INFINITY;
      const { people: who = "ours", bias = 0.05, ...cfg } = c;
      const seed = 1000 * c.seats + c.noiseDeg;
      const row = measureAccuracy(
        { ...cfg, biasDegPerS: bias, games, rounds: ROUNDS, seed },
        aimOptions(),
        who,
        deadline,
      );
      rows.push(row);
      // progress on stderr, --json or not: a whole run takes minutes
      process.stderr.write(`${i + 1}/${configs.length} ${table([row]).split("\n")[1]}\n`);
    }
    if (o.json) process.stdout.write(`${JSON.stringify({ bench: "accuracy", rows }, null, 2)}\n`);
    else process.stdout.write(`${table(rows)}\n`);
  },
};
