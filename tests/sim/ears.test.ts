// What the simulated people hear: the count's beats as the guns play them, each heard once, from the first gun.
import { describe, expect, it } from "vitest";
import { cuePattern } from "../../hub/src/feedback/index.js";
import { Ears } from "../../hub/src/sim/ears.js";
import { ManualClock } from "../../hub/src/table/clock.js";

const BEAT = cuePattern("beat").b![0]!;
const GO = cuePattern("go").b![0]!;

describe("the people's ears", () => {
  it("hear a beat every gun plays once, at the first gun's; a beat one gun dropped, from the others", () => {
    const clock = new ManualClock(0);
    const ears = new Ears(clock);
    const heard: (number | null)[] = [];
    ears.when("beat", 900, 1100, (at) => heard.push(at));
    // gun 2 dropped it as late; the others play it a few ms apart
    ears.tone(BEAT, 1004);
    ears.tone(BEAT, 1001);
    ears.tone(0, 1081);
    expect(heard).toEqual([1004]);
    // asked afterwards: already heard, at the earliest of the guns
    ears.when("beat", 900, 1100, (at) => heard.push(at));
    expect(heard).toEqual([1004, 1001]);
  });

  it('tell a beat from the "3", and say when nobody played what was due', () => {
    const clock = new ManualClock(0);
    const ears = new Ears(clock);
    const heard: (number | null)[] = [];
    ears.when("go", 1300, 1500, (at) => heard.push(at));
    ears.tone(BEAT, 1400);
    clock.advance(1400);
    expect(heard).toEqual([]);
    clock.advance(101);
    expect(heard).toEqual([null]);
    ears.tone(GO, 1600);
    ears.when("go", 1500, 1700, (at) => heard.push(at));
    expect(heard).toEqual([null, 1600]);
  });
});
