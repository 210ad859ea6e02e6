// A hold-up of the accuracy bench's people (hub/src/bench/holdup.ts) against the hub's own reading: a neighbour who
// leans in 10 cm sits ≈ 9° nearer the next seat, between two colours; a player who watches the gun's colour sees the
// blink and moves off the border, one who does not is asked to re-aim (or, with a bias the same way, read wrong).
import { describe, expect, it } from "vitest";
import { AimWindow, aimOptions, bearings, liveAim, readDraw, roundTable } from "../../hub/src/aim/index.js";
import { playHoldUp } from "../../hub/src/bench/holdup.js";
import { drawPerson, TABLE_HUMAN } from "../../hub/src/sim/human.js";
import { seededRandom } from "../../hub/src/sim/prng.js";
import { DEFAULT_TIMING as w } from "../../hub/src/table/timing.js";

const opts = aimOptions();
const layout = roundTable(8);
const row = bearings(layout, opts.gunForwardM)[0]!;

/** `n` hold-ups of a person at seat 0 aiming at seat 1, who leans in 10 cm; the outcomes, counted. */
function holdUps(n: number, looks: boolean) {
  const random = seededRandom(7);
  const personal = seededRandom(8);
  const out = { right: 0, reaim: 0, wrong: 0, nobody: 0 };
  const win = new AimWindow(256);
  for (let i = 0; i < n; i++) {
    // a person who draws at "3", no bias of their own, their usual scatter at the body
    const person = {
      ...drawPerson(personal, TABLE_HUMAN, 8),
      draw: "three" as const,
      biasDeg: 0,
      directionBiasDeg: Array(8).fill(0),
      looks,
    };
    let shown: number | null = null;
    const oneMs = 10_000 + i * 10_000;
    const go = oneMs + 2 * w.countPaceMs;
    playHoldUp({
      random,
      personal,
      person,
      sensor: { offsetDeg: 0, biasDegPerS: 0, noiseDeg: 2, tiltNoiseDeg: 0.5 },
      seats: layout.seats,
      leans: [0, 0.1, 0, 0, 0, 0, 0, 0],
      shooter: 0,
      intended: 1,
      oneMs,
      paceMs: w.countPaceMs,
      from: { yaw: row[4]!, pitch: -40, roll: 0 },
      win,
      endMs: go + w.closeMs + 20,
      feedback: true,
      live: (t) => {
        const l = liveAim(win, t, 0, row, 0, shown, opts);
        shown = l.seat;
        return { seat: l.seat, between: l.between };
      },
      lockIntervalMs: w.lockIntervalMs,
      latencyMs: 30,
    });
    const v = readDraw(win, go, go + w.closeMs + 20, w, 0, row, 0, opts);
    const r = v.kind === "wait" ? null : v.result;
    if (r?.kind === "target") out[r.seat === 1 ? "right" : "wrong"]++;
    else if (r?.kind === "ambiguous") out.reaim++;
    else out.nobody++;
  }
  return out;
}

describe("a neighbour leaning in 10 cm", () => {
  it("its shooter, watching the gun's colour, moves off the border and is read right far more often", () => {
    const blind = holdUps(200, false);
    const looking = holdUps(200, true);
    // leaning in, the body sits between the colours of seats 1 and 2 for the one who does not look
    expect(blind.right).toBeLessThan(150);
    expect(blind.reaim).toBeGreaterThan(40);
    // the one who looks is read right, re-aims a few times, and is never read at seat 2
    expect(looking.right).toBeGreaterThanOrEqual(175);
    expect(looking.reaim).toBeLessThan(blind.reaim / 3);
    expect(looking.wrong).toBe(0);
  });
});
