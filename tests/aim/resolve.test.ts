import { describe, expect, it } from "vitest";
import {
  AimWindow,
  aimOptions,
  bearings,
  pickTarget,
  rectangularTable,
  resolveTarget,
  roundTable,
  wrapDeg,
} from "../../hub/src/aim/index.js";
import { fill, steady } from "./helpers.js";

const opts = aimOptions();

describe("target resolution on round tables", () => {
  for (const n of [4, 6, 8]) {
    it(`${n} seats: an exact aim from every seat at every other seat names that seat`, () => {
      const b = bearings(roundTable(n));
      const offset = 37; // raw yaw + 37 = bearing
      for (let s = 0; s < n; s++) {
        for (let j = 0; j < n; j++) {
          if (j === s) continue;
          const r = resolveTarget(steady(wrapDeg(b[s][j] - offset)), 1000, offset, b[s], s, opts);
          expect(r).toMatchObject({ kind: "target", seat: j });
        }
      }
    });

    it(`${n} seats: accepted up to 0.7 × half the gap, ambiguous beyond`, () => {
      const b = bearings(roundTable(n));
      const gap = 180 / n;
      // accepted while within acceptFraction × half the gap and the runner-up is far enough behind
      const margin = Math.max(opts.minMarginDeg, opts.marginFraction * gap);
      const limit = Math.min(opts.acceptFraction * (gap / 2), (gap - margin) / 2);
      const s = 0;
      const j = Math.floor(n / 2); // a middle target: neighbours on both sides
      const inside = pickTarget(b[s][j] + limit - 0.01, b[s], s, opts);
      expect(inside).toMatchObject({ kind: "target", seat: j });
      const outside = pickTarget(b[s][j] + limit + 0.01, b[s], s, opts);
      expect(outside.kind).toBe("ambiguous");
      const between = pickTarget(b[s][j] + gap / 2, b[s], s, opts);
      expect(between.kind).toBe("ambiguous");
    });
  }

  it("8 seats with DESIGN.md's starting margins (0.7, gap/3): ±7.5° of acceptance, the second-best rule binds", () => {
    const design = aimOptions({ acceptFraction: 0.7, marginFraction: 1 / 3 });
    const b = bearings(roundTable(8));
    expect(pickTarget(b[0][4] + 7.4, b[0], 0, design).kind).toBe("target");
    expect(pickTarget(b[0][4] - 7.4, b[0], 0, design).kind).toBe("target");
    expect(pickTarget(b[0][4] + 7.6, b[0], 0, design).kind).toBe("ambiguous");
  });

  it("works across ±180°: samples on both sides of the wrap give the seat at 180°", () => {
    const b = bearings(roundTable(4, 1));
    // from seat 1 (right), seat 3 (left) is straight along −x: bearing 180°
    expect(Math.abs(b[1][3])).toBeCloseTo(180);
    const win = fill(new AimWindow(), { from: 0, to: 1000, yaw: (t) => (Math.round(t / 20) % 2 ? 179.5 : -179.5) });
    const r = resolveTarget(win, 1000, 0, b[1], 1, opts);
    expect(r).toMatchObject({ kind: "target", seat: 3 });
    if (r.kind === "target") expect(Math.abs(r.errorDeg)).toBeLessThan(1);
  });

  it("never names the shooter's own seat, even aiming straight away from the table", () => {
    const b = bearings(roundTable(6));
    for (let h = -180; h < 180; h += 1) {
      const r = pickTarget(h, b[2], 2, opts);
      if (r.kind === "target") expect(r.seat).not.toBe(2);
      if (r.kind === "ambiguous") expect(r.best.seat).not.toBe(2);
    }
    // pointing outwards (away from the centre) is nobody
    expect(pickTarget(wrapDeg(b[2][5] + 180), b[2], 2, opts)).toEqual({ kind: "nobody", reason: "no-seat" });
  });

  it("a dead seat left out by the caller is never named, and its neighbours get its share", () => {
    const b = bearings(roundTable(8));
    const heading = b[0][4] + 10; // between seat 4 and the next one, nearer 4
    expect(pickTarget(heading, b[0], 0, opts).kind).toBe("ambiguous");
    const neighbour = b[0][3] > b[0][4] ? 3 : 5;
    const alive = (s: number) => s !== neighbour;
    expect(pickTarget(heading, b[0], 0, opts, alive)).toMatchObject({ kind: "target", seat: 4 });
    expect(pickTarget(b[0][neighbour], b[0], 0, opts, alive).kind).not.toBe("target");
  });
});

describe("target resolution on rectangular tables", () => {
  const layout = rectangularTable({ lengthM: 2.2, widthM: 1, perLongSide: 3, perEnd: 1 });
  const b = bearings(layout);

  it("seats exactly in line from the shooter are ambiguous; the others resolve", () => {
    // seat 0 is top-left: seats 1 and 2 on the same side share a bearing
    expect(b[0][1]).toBeCloseTo(b[0][2]);
    expect(pickTarget(b[0][1], b[0], 0, opts).kind).toBe("ambiguous");
    for (const j of [3, 4, 5, 6, 7])
      expect(pickTarget(b[0][j], b[0], 0, opts)).toMatchObject({ kind: "target", seat: j });
  });

  it("seats nearly in line (a few degrees apart) are ambiguous, not a guess", () => {
    // nudge seat 2 a little off the line: 2–3° apart from seat 0
    const seats = layout.seats.map((p, i) => (i === 2 ? { x: p.x, y: p.y + 0.08 } : p));
    const bb = bearings({ seats });
    const gap = Math.abs(bb[0][2] - bb[0][1]);
    expect(gap).toBeGreaterThan(1);
    expect(gap).toBeLessThan(4);
    expect(pickTarget(bb[0][1], bb[0], 0, opts).kind).toBe("ambiguous");
    expect(pickTarget(bb[0][2], bb[0], 0, opts).kind).toBe("ambiguous");
  });

  it("uses the gap on the side the heading leans to: uneven gaps give uneven tolerances", () => {
    // from the end seat 3 (right end), the targets are spread unevenly
    const s = 3;
    const sorted = [0, 1, 2, 4, 5, 6, 7].map((j) => ({ j, a: b[s][j] })).sort((x, y) => x.a - y.a);
    const k = sorted.findIndex(
      (e, i) => i > 0 && i < sorted.length - 1 && Math.abs(sorted[i + 1].a - e.a - (e.a - sorted[i - 1].a)) > 5,
    );
    expect(k).toBeGreaterThan(0);
    const t = sorted[k];
    const up = sorted[k + 1].a - t.a;
    const down = t.a - sorted[k - 1].a;
    const big = up > down ? 1 : -1;
    const small = Math.min(up, down);
    const lean =
      Math.min(
        opts.acceptFraction * (small / 2),
        (small - Math.max(opts.minMarginDeg, opts.marginFraction * small)) / 2,
      ) + 1.5;
    // leaning this far towards the close neighbour is ambiguous, towards the far one it is fine
    expect(pickTarget(t.a - big * lean, b[s], s, opts).kind).toBe("ambiguous");
    expect(pickTarget(t.a + big * lean, b[s], s, opts)).toMatchObject({ kind: "target", seat: t.j });
  });
});

describe("nobody: too slow, unstable, missing", () => {
  const b = bearings(roundTable(6));

  it("no samples at all", () => {
    expect(resolveTarget(new AimWindow(), 1000, 0, b[0], 0, opts)).toEqual({ kind: "nobody", reason: "no-samples" });
  });

  it("only samples after the snapshot: later changes do not count", () => {
    const win = fill(new AimWindow(), { from: 1100, to: 1500, yaw: b[0][3] });
    expect(resolveTarget(win, 1000, 0, b[0], 0, opts)).toMatchObject({ kind: "nobody", reason: "no-samples" });
  });

  it("the gun went quiet before the snapshot: stale", () => {
    const win = steady(b[0][3], 500);
    expect(resolveTarget(win, 1000, 0, b[0], 0, opts)).toMatchObject({ kind: "nobody", reason: "stale" });
  });

  it("too few samples in the window", () => {
    // one sample every 0.2 s: fewer than minSamples in the window
    const win = fill(new AimWindow(), { from: 0, to: 1000, hz: 5, yaw: b[0][3] });
    expect(resolveTarget(win, 1000, 0, b[0], 0, opts)).toMatchObject({ kind: "nobody", reason: "no-samples" });
    // 25 Hz still works
    const ok = fill(new AimWindow(), { from: 0, to: 1000, hz: 25, yaw: b[0][3] });
    expect(resolveTarget(ok, 1000, 0, b[0], 0, opts)).toMatchObject({ kind: "target", seat: 3 });
  });

  it("still swinging at the snapshot: unstable, even when the swing passes over a seat", () => {
    // 200°/s swing that crosses seat 3's bearing right at the snapshot
    const win = fill(new AimWindow(), { from: 0, to: 1000, yaw: (t) => b[0][3] + ((t - 1000) * 200) / 1000 });
    expect(resolveTarget(win, 1000, 0, b[0], 0, opts)).toMatchObject({ kind: "nobody", reason: "unstable" });
  });

  it("still settling onto a seat at the snapshot: nobody, though most of the window is on the seat it swung past", () => {
    // 8 seats (gaps of 22.5°): the hand overshot seat 3 by 20° (near seat 4) and is on its way back over the last
    // 120 ms; the window's median is still near seat 4, its newest third on seat 3's side
    const b8 = bearings(roundTable(8));
    const aimed = b8[0]![3]!;
    const past = wrapDeg(b8[0]![3]! + 20 * Math.sign(wrapDeg(b8[0]![4]! - aimed)));
    const yaw = (t: number) => (t <= 880 ? past : past + ((aimed - past) * (t - 880)) / 120);
    const win = fill(new AimWindow(), { from: 0, to: 1000, yaw });
    expect(pickTarget(wrapDeg(yaw(900)), b8[0]!, 0, opts)).toMatchObject({ kind: "target", seat: 4 });
    const r = resolveTarget(win, 1000, 0, b8[0]!, 0, opts);
    expect(r).toMatchObject({ kind: "nobody", reason: "settling" });
    // what it saw is kept: the offset still learns from it
    expect(r.kind === "nobody" && r.seen !== undefined).toBe(true);
    // the same hand 150 ms earlier in its hold (settled on seat 4 for the whole window) names seat 4: a steady aim
    expect(resolveTarget(fill(new AimWindow(), { from: 0, to: 880, yaw }), 880, 0, b8[0]!, 0, opts)).toMatchObject({
      kind: "target",
      seat: 4,
    });
  });

  it("shaking wildly: unstable", () => {
    const win = fill(new AimWindow(), { from: 0, to: 1000, yaw: (t) => b[0][3] + (Math.round(t / 20) % 2 ? 30 : -30) });
    expect(resolveTarget(win, 1000, 0, b[0], 0, opts)).toMatchObject({ kind: "nobody", reason: "unstable" });
  });

  it("a single wild sample does not move the median", () => {
    const win = fill(new AimWindow(), { from: 0, to: 1000, yaw: (t) => (t === 960 ? b[0][3] + 90 : b[0][3]) });
    expect(resolveTarget(win, 1000, 0, b[0], 0, opts)).toMatchObject({ kind: "target", seat: 3 });
  });

  it("gun pointing at the floor: lowered", () => {
    const win = steady(b[0][3], 1000, { pitch: -70 });
    expect(resolveTarget(win, 1000, 0, b[0], 0, opts)).toMatchObject({ kind: "nobody", reason: "lowered" });
  });
});
