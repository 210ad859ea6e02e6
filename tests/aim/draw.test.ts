// Reading a count over its reaction window after "3" (aim/draw.ts): a gun held from before "3" is read as held, a draw
// at "3" at its first steady hold, a switch at "3" or a correction after the colour reads the hold after it, a change of
// mind after the count does not count, and a player not steady by the window's end was too slow. Courage likewise.
import { describe, expect, it } from "vitest";
import {
  AimWindow,
  aimOptions,
  bearings,
  type DrawVerdict,
  readCourage,
  readDraw,
  roundTable,
} from "../../hub/src/aim/index.js";
import { DEFAULT_TIMING as w } from "../../hub/src/table/timing.js";

const opts = aimOptions();
const b = bearings(roundTable(8), opts.gunForwardM);
const row = b[0]!;
const GO = 10_000;

/** A hand: it rests at `start` and makes each move (a minimum-jerk swing of `ms` from `at`) in turn. */
interface Move {
  at: number;
  ms: number;
  yaw: number;
  pitch: number;
}
function hand(start: { yaw: number; pitch: number }, moves: Move[]): AimWindow {
  const win = new AimWindow(256);
  const ease = (x: number) => (x <= 0 ? 0 : x >= 1 ? 1 : x * x * x * (10 - 15 * x + 6 * x * x));
  for (let t = GO - 2000; t <= GO + 3000; t += 20) {
    let yaw = start.yaw;
    let pitch = start.pitch;
    for (const m of moves) {
      const k = ease((t - m.at) / m.ms);
      yaw += k * (m.yaw - yaw);
      pitch += k * (m.pitch - pitch);
    }
    // a hand's tremor and the sensor's noise, deterministic
    win.push(t, yaw + 0.8 * Math.sin(t * 0.37) + 0.6 * Math.sin(t * 1.31), pitch, 0, false);
  }
  return win;
}

const read = (win: AimWindow, upTo = GO + 3000): DrawVerdict => readDraw(win, GO, upTo, w, 0, row, 0, opts);
const seatOf = (v: DrawVerdict) => (v.kind !== "wait" && v.result.kind === "target" ? v.result.seat : null);
const low = { yaw: b[0]![4]!, pitch: -40 };
const at = (seat: number) => ({ yaw: row[seat]!, pitch: -3 });

describe("a count read over its reaction window", () => {
  it('a gun held on a seat from before "3" is read as held, once a switch at "3" would have shown', () => {
    const win = hand(at(3), []);
    const v = read(win);
    expect(seatOf(v)).toBe(3);
    expect(v.kind === "read" && v.t).toBeLessThanOrEqual(GO + w.switchMs + 20);
    // with the stream only up to "3" + 400 ms, it waits for a switch's window
    expect(read(win, GO + 400)).toEqual({ kind: "wait", untilT: GO + w.switchMs });
  });

  it('a draw at "3" (lowered at "3", a reaction, a swing) is read at its first steady hold', () => {
    const win = hand(low, [{ at: GO + 280, ms: 450, ...at(2) }]);
    const v = read(win);
    expect(seatOf(v)).toBe(2);
    expect(v.kind === "read" && v.t).toBeGreaterThan(GO + 730);
  });

  it('a switch at "3" reads the seat switched to, not the one held at "3"', () => {
    const win = hand(at(5), [{ at: GO + 450, ms: 400, ...at(2) }]);
    expect(seatOf(read(win))).toBe(2);
  });

  it('a move long after "3" is a change of mind once the count was read: the aim held at "3" stands', () => {
    const win = hand(at(5), [{ at: GO + w.switchMs + 200, ms: 400, ...at(2) }]);
    expect(seatOf(read(win))).toBe(5);
  });

  it("a hold the player corrects within a look of reaching it gives way to the corrected one", () => {
    // the draw lands on seat 1, the gun shows seat 1's colour, the player moves on to seat 2
    const win = hand(low, [
      { at: GO + 280, ms: 450, ...at(1) },
      { at: GO + 730 + 400, ms: 300, ...at(2) },
    ]);
    expect(seatOf(read(win))).toBe(2);
  });

  it("the window's edge: steady just before its end is read, steady only after it is too slow", () => {
    const arrive = (endMs: number) => hand(low, [{ at: GO + endMs - 450, ms: 450, ...at(6) }]);
    // settled 100 ms before the end: its reading is steady in time
    expect(seatOf(read(arrive(w.drawMs - 100)))).toBe(6);
    // settled after the end, and its reading later still
    const late = read(arrive(w.drawMs + 150));
    expect(late).toMatchObject({ kind: "slow", result: { kind: "nobody", reason: "slow" } });
    // a gun never raised: too slow too, not "lowered" (it was never aimed)
    expect(read(hand(low, []))).toMatchObject({ kind: "slow", result: { kind: "nobody", reason: "slow" } });
  });

  it("between two seats it reads ambiguous (the table asks for a re-aim), not a guess", () => {
    const mid = { yaw: (row[2]! + row[3]!) / 2, pitch: -3 };
    const v = read(hand(mid, []));
    expect(v.kind === "read" && v.result.kind).toBe("ambiguous");
  });
});

describe("the courage count read over its window", () => {
  const up = at(3);
  const courage = (win: AimWindow, upTo = GO + 3000) => readCourage(win, GO, upTo, w, opts);
  const lowered = { yaw: row[3]!, pitch: -70 };

  it('lowered at "3" (a reaction, then down) lies down; lowered from before lies down at once', () => {
    const v = courage(hand(up, [{ at: GO + 280, ms: 400, ...lowered }]));
    expect(v.kind === "read" && v.result.kind).toBe("down");
    const before = courage(hand(lowered, []), GO + w.graceMs + 20);
    expect(before).toMatchObject({ kind: "read", result: { kind: "down" } });
    expect(before.kind === "read" && before.t).toBeLessThanOrEqual(GO + w.graceMs + 20);
  });

  it("lowered after the window: too slow to lie down, the player stays up (and it waits for the window to say so)", () => {
    const win = hand(up, [{ at: GO + w.courageMs + 100, ms: 400, ...lowered }]);
    expect(courage(win)).toMatchObject({ kind: "read", result: { kind: "up" } });
    expect(courage(hand(up, []), GO + 500)).toEqual({ kind: "wait", untilT: GO + w.courageMs });
  });
});
