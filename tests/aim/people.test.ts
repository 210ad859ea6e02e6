// The people sets of the benches (docs/human-model.md): how a table draws at a count, the biases and scatter of its
// people, where the ray starts and ends, and each IMU's heading error beyond white noise.
import { roundSeats } from "@cng/protocol";
import { describe, expect, it } from "vitest";
import { angleDiff } from "../../hub/src/aim/index.js";
import {
  aimBearing,
  bodyBearing,
  correctedAim,
  DRAW_KINDS,
  drawCue,
  drawImuErrors,
  drawTable,
  HARD_HUMAN,
  IMU_ERRORS,
  PEOPLE,
  type SensorTraits,
  slowHeadingError,
  TABLE_HUMAN,
} from "../../hub/src/sim/human.js";
import { seededRandom } from "../../hub/src/sim/prng.js";

const seats = roundSeats(8);
const sd = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
};

describe("the people sets", () => {
  it("each set's draw shares add up to one; today's people all draw on \"1\" and never look", () => {
    for (const t of Object.values(PEOPLE)) expect(DRAW_KINDS.reduce((a, k) => a + t.draw[k], 0)).toBeCloseTo(1, 9);
    const ours = drawTable(seededRandom(1), PEOPLE.ours, 8);
    expect(ours.every((p) => p.draw === "one" && !p.looks && p.biasDeg === 0 && p.leanM === 0)).toBe(true);
  });

  it("a table of `table` people draws as its mix says, looks as often, and carries biases of the σ asked", () => {
    const random = seededRandom(2);
    const people = Array.from({ length: 1500 }, () => drawTable(random, TABLE_HUMAN, 8)).flat();
    for (const k of DRAW_KINDS)
      expect(people.filter((p) => p.draw === k).length / people.length).toBeCloseTo(TABLE_HUMAN.draw[k], 1);
    expect(people.filter((p) => p.looks).length / people.length).toBeCloseTo(TABLE_HUMAN.lookShare, 1);
    expect(sd(people.map((p) => p.biasDeg))).toBeCloseTo(3, 0);
    expect(sd(people.map((p) => p.directionBiasDeg[3]!))).toBeCloseTo(3, 0);
    expect(people.some((p) => p.leanM > 0)).toBe(false);
  });

  it("a `hard` table has one player leaning in 10 cm", () => {
    const random = seededRandom(3);
    for (let i = 0; i < 20; i++)
      expect(drawTable(random, HARD_HUMAN, 8).filter((p) => p.leanM === 0.1)).toHaveLength(1);
  });
});

describe("where the ray goes", () => {
  const plain = { ...drawTable(seededRandom(4), TABLE_HUMAN, 8)[0]!, biasDeg: 0, directionBiasDeg: Array(8).fill(0) };

  it("starts at the gun, 10 cm in front of the seat: ≈ 9° outwards at the neighbours, nothing at the seat across", () => {
    const fromSeat = (j: number) => (Math.atan2(seats[j]!.y - seats[0]!.y, seats[j]!.x - seats[0]!.x) * 180) / Math.PI;
    const centre = (Math.atan2(-seats[0]!.y, -seats[0]!.x) * 180) / Math.PI;
    // outwards: further from the direction of the table's centre than the seat point's bearing
    const outwards = (j: number) =>
      Math.abs(angleDiff(bodyBearing(seats, plain, 0, j, 0), centre)) - Math.abs(angleDiff(fromSeat(j), centre));
    expect(outwards(1)).toBeCloseTo(9.1, 0);
    expect(outwards(7)).toBeCloseTo(9.1, 0);
    expect(outwards(2)).toBeCloseTo(3.8, 0);
    expect(angleDiff(bodyBearing(seats, plain, 0, 4, 0), fromSeat(4))).toBeCloseTo(0, 6);
  });

  it("ends at a body that may lean: a neighbour 10 cm in moves ≈ 9° towards the next seat", () => {
    const upright = bodyBearing(seats, plain, 0, 1, 0);
    const leaning = bodyBearing(seats, plain, 0, 1, 0.1);
    const next = bodyBearing(seats, plain, 0, 2, 0);
    const moved = angleDiff(leaning, upright);
    expect(Math.abs(moved)).toBeGreaterThan(8);
    expect(Math.abs(moved)).toBeLessThan(10.5);
    expect(Math.sign(moved)).toBe(Math.sign(angleDiff(next, upright)));
  });

  it("lands 5 cm about the body: a wider angle at the neighbour (0.5 m) than across the table (1.5 m)", () => {
    const random = seededRandom(5);
    const gun = { x: seats[0]!.x * (1 - 0.1 / 0.8), y: seats[0]!.y * (1 - 0.1 / 0.8) };
    const spread = (j: number) =>
      sd(
        Array.from({ length: 4000 }, () =>
          angleDiff(aimBearing(random, plain, seats, 0, j, 0), bodyBearing(seats, plain, 0, j, 0)),
        ),
      );
    const expected = (j: number) =>
      (Math.atan(0.05 / Math.hypot(seats[j]!.x - gun.x, seats[j]!.y - gun.y)) * 180) / Math.PI;
    expect(expected(1)).toBeGreaterThan(2.5 * expected(4));
    expect(spread(1)).toBeCloseTo(expected(1), 0);
    expect(spread(4)).toBeCloseTo(expected(4), 0);
  });

  it("adds the person's bias and their bias for that direction", () => {
    const p = {
      ...plain,
      traits: { ...plain.traits, scatterCm: 0 },
      biasDeg: 2,
      directionBiasDeg: [0, 0, 0, 5, 0, 0, 0, 0],
    };
    expect(angleDiff(aimBearing(seededRandom(6), p, seats, 0, 3, 0), bodyBearing(seats, p, 0, 3, 0))).toBeCloseTo(7, 6);
    expect(angleDiff(aimBearing(seededRandom(6), p, seats, 0, 2, 0), bodyBearing(seats, p, 0, 2, 0))).toBeCloseTo(2, 6);
  });

  it("a person who sees another seat's colour moves towards the seat meant, never past where they aimed away", () => {
    const random = seededRandom(7);
    const towards = (j: number) => j * 20;
    for (let i = 0; i < 100; i++) {
      const moved = correctedAim(random, 45, { seat: 2 }, 3, towards, () => 60);
      // from 45 towards seat 3 at 60°, by 30–70 % of the 20° between seats 2 and 3
      expect(moved).toBeGreaterThanOrEqual(45 + 6 - 1e-9);
      expect(moved).toBeLessThanOrEqual(45 + 14 + 1e-9);
      const between = correctedAim(random, 52, { seat: 3, between: 2 }, 3, towards, () => 60);
      expect(between).toBeGreaterThanOrEqual(52 + 3 - 1e-9);
      expect(between).toBeLessThanOrEqual(52 + 7 + 1e-9);
    }
    expect(correctedAim(random, 45, { seat: null }, 3, towards, () => 61)).toBe(61);
  });
});

describe("the draw", () => {
  it('on "3": the reaction runs from the "3" heard, median ≈ 280 ms', () => {
    const random = seededRandom(8);
    const person = drawTable(random, TABLE_HUMAN, 8)[0]!;
    const r = Array.from({ length: 4001 }, () => drawCue(random, person, "three", 0, 1400, 400));
    expect(r.every((c) => c.cueMs === 1400)).toBe(true);
    const sorted = r.map((c) => c.reactionMs).sort((a, b) => a - b);
    expect(sorted[2000]!).toBeGreaterThan(265);
    expect(sorted[2000]!).toBeLessThan(295);
  });

  it('timed: the swing ends on "3", a little early on average, as tapping to a beat does', () => {
    const random = seededRandom(9);
    const person = drawTable(random, TABLE_HUMAN, 8)[0]!;
    const ends = Array.from({ length: 4000 }, () => {
      const c = drawCue(random, person, "timed", 0, 1400, 450);
      return c.cueMs + c.reactionMs + 450 - 1400;
    });
    const mean = ends.reduce((a, b) => a + b, 0) / ends.length;
    expect(mean).toBeCloseTo(TABLE_HUMAN.arriveMeanMs, -1);
    expect(sd(ends)).toBeCloseTo(TABLE_HUMAN.arriveSigmaMs, -1);
  });
});

describe("the IMU's own heading error", () => {
  const base: SensorTraits = { offsetDeg: 0, biasDegPerS: 0, noiseDeg: 0, tiltNoiseDeg: 0 };

  it("an MPU-6050's scale factor: a 90° turn from where the yaw started reads up to 3 % long or short", () => {
    const random = seededRandom(10);
    for (let i = 0; i < 200; i++) {
      const e = { ...base, ...drawImuErrors(random, { ...IMU_ERRORS.mpu6050, slowDeg: 0, warmDegPerS: 0 }, 10) };
      const err = slowHeadingError(e, 100, 0);
      expect(Math.abs(err)).toBeLessThanOrEqual(2.7 + 1e-9);
      expect(slowHeadingError(e, 10, 0)).toBeCloseTo(0, 9);
    }
  });

  it("a BNO085's error varies slowly about σ 2°: near the same a second apart, unrelated minutes apart", () => {
    const random = seededRandom(11);
    const at: number[] = [];
    const second: number[] = [];
    for (let i = 0; i < 400; i++) {
      const e = { ...base, ...drawImuErrors(random, { ...IMU_ERRORS.bno085, scaleSpread: 0, scaleMean: 0 }, 0) };
      const t = 1e6 * random();
      at.push(slowHeadingError(e, 0, t));
      second.push(slowHeadingError(e, 0, t + 1000) - slowHeadingError(e, 0, t));
    }
    expect(sd(at)).toBeGreaterThan(1.6);
    expect(sd(at)).toBeLessThan(2.4);
    expect(sd(second)).toBeLessThan(0.5);
  });

  it("a warming MPU-6050 drifts more at first, then settles to what the tracker follows", () => {
    const e = { ...base, warmDegPerS: IMU_ERRORS.mpu6050.warmDegPerS, warmTauS: IMU_ERRORS.mpu6050.warmTauS };
    const early = slowHeadingError(e, 0, 60_000) - slowHeadingError(e, 0, 0);
    const late = slowHeadingError(e, 0, 1_260_000) - slowHeadingError(e, 0, 1_200_000);
    // 0.03 °/s at first: ≈ 1.6° in the first minute, ≈ 0.03° a minute after 20 minutes
    expect(early).toBeGreaterThan(1.4);
    expect(late).toBeLessThan(0.1);
  });
});
