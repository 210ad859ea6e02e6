// The cue vocabulary and the synchronized count.
import { CUE_NAMES } from "@cng/protocol";
import { describe, expect, it } from "vitest";
import { GunClock } from "../../hub/src/aim/index.js";
import { cuePattern, FeedbackDispatcher, SEAT_COLOURS, seatColour } from "../../hub/src/feedback/index.js";
import { Rig, randomScenario } from "../fakes/table-rig.js";

describe("cue patterns", () => {
  it.each(CUE_NAMES)("%s is flat colour/ms and Hz/ms pairs a gun can play", (name) => {
    const p = cuePattern(name, 0x00ff00);
    expect(p.l !== undefined || p.b !== undefined).toBe(true);
    for (const steps of [p.l ?? [], p.b ?? []]) {
      expect(steps.length % 2).toBe(0);
      for (const v of steps) expect(Number.isInteger(v) && v >= 0).toBe(true);
    }
    for (let i = 0; i < (p.l ?? []).length; i += 2) expect(p.l![i]!).toBeLessThanOrEqual(0xffffff);
  });

  it("lock shows the target's seat colour and makes no sound", () => {
    expect(cuePattern("lock", seatColour(3)).l![0]).toBe(seatColour(3));
    expect(cuePattern("lock", seatColour(3)).b).toBeUndefined();
  });

  it("lock between two seats blinks the other seat's colour with the nearer one's, and ends on the nearer", () => {
    const p = cuePattern("lock", seatColour(3), undefined, seatColour(4));
    expect(p.l).toEqual([seatColour(4), 150, seatColour(3), 150]);
    expect(p.rp).toBeGreaterThanOrEqual(10);
    expect(p.b).toBeUndefined();
  });

  it("eight seat colours, all different and none dark", () => {
    expect(new Set(SEAT_COLOURS).size).toBe(8);
    // bright enough to read on an LED: at least one channel past 60%
    for (const c of SEAT_COLOURS) expect(Math.max(c >> 16, (c >> 8) & 0xff, c & 0xff)).toBeGreaterThanOrEqual(0x99);
  });

  it("the dispatcher hands every subscriber the ready pattern", () => {
    const d = new FeedbackDispatcher();
    const got: unknown[] = [];
    const off = d.subscribe((c) => got.push(c));
    d.cue(2, "wound", { at: 1000 });
    off();
    d.cue(2, "dead");
    expect(got).toEqual([{ to: 2, c: "wound", at: 1000, ...cuePattern("wound") }]);
  });
});

describe("the synchronized count", () => {
  it("sends every gun the same hub times: beats at T and T + pace, go at T + 2·pace", () => {
    const rig = new Rig(randomScenario("classic", 4, 81), { secrets: "console" });
    rig.table.begin();
    rig.run({ until: () => rig.cues.some((c) => c.name === "go") });
    const count = rig.cues.filter((c) => c.name === "beat" || c.name === "go");
    expect(count.map((c) => c.to)).toEqual(["all", "all", "all"]);
    const [a, b, go] = count.map((c) => c.opts!.at!);
    const pace = rig.table.timing.countPaceMs;
    expect([b! - a!, go! - a!]).toEqual([pace, 2 * pace]);
    expect(a!).toBeGreaterThan(count[0]!.at); // scheduled ahead, so every gun has it in time
  });

  it("a gun aimed between two seats during a count blinks both colours; its colour is shown again after each beat", () => {
    const scenario = randomScenario("classic", 6, 61, { style: { aimNobody: 0 } });
    const seat = 1;
    const rig = new Rig(scenario, { secrets: "console" });
    rig.skew.set(seat, "between");
    rig.table.begin();
    rig.run({ until: () => rig.cues.some((c) => c.name === "go") && rig.table.status.activity?.kind === "count" });
    const go = rig.cues.find((c) => c.name === "go")!.opts!.at!;
    rig.run({ until: () => rig.clock.now() > go + 600 });
    const locks = rig.cues.filter((c) => c.to === seat && c.name === "lock");
    const blinks = locks.filter((c) => c.opts?.blink !== undefined);
    expect(blinks.length).toBeGreaterThan(0);
    expect(new Set(blinks.flatMap((c) => [c.opts!.colour, c.opts!.blink])).size).toBe(2);
    // each beat's white flash leaves the LED dark: a lock follows every flash
    const flashEnds = rig.cues
      .filter((c) => c.to === "all" && (c.name === "beat" || c.name === "go"))
      .map((c) => c.opts!.at! + (c.name === "go" ? 200 : 80));
    for (const end of flashEnds)
      expect(
        locks.some((c) => c.at >= end && c.at < end + 200),
        `after ${end}`,
      ).toBe(true);
  });

  it("a gun's clock offset is the fastest sample's (hub receive − gun time)", () => {
    const c = new GunClock(10_000);
    c.observe(100, 5_030);
    c.observe(120, 5_025);
    c.observe(140, 5_090);
    expect(c.offset).toBe(4_905);
    expect(c.toGun(6_000)).toBe(1_095);
  });
});
