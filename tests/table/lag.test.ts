// A gun whose stream the network holds at the snapshot (a WiFi stall: TCP holds what follows a lost segment): the
// table waits for the samples, reads the aim the player made, and past the bound counts the gun again; never "too
// slow" for a delay that was the network's. A player who really is late is still too slow.
import { describe, expect, it } from "vitest";
import { FAST_TIMING } from "../../hub/src/table/index.js";
import { Rig, randomScenario } from "../fakes/table-rig.js";

const scenario = randomScenario("classic", 5, 51, { style: { aimNobody: 0, lieDown: 0.4 } });
const seat = 2;
const meant = scenario.players.indexOf(scenario.rounds[0]!.aims[scenario.players[seat]!]!);
const aims = (rig: Rig, round: number) =>
  rig.records.filter((r) => r.kind === "aim" && r.round === round) as { seat: number; target: number | null }[];
const goCues = (rig: Rig) => rig.cues.filter((c) => c.name === "go" && (c.to === seat || c.to === "all"));

describe("a stream held at the snapshot", () => {
  it("held shorter than the bound: the verdict waits for the samples and is the player's aim", () => {
    const rig = new Rig(scenario, {
      secrets: "console",
      stall: { seat, round: 1, during: "aim", beforeGoMs: 100, ms: FAST_TIMING.lagBoundMs / 2 + 200 },
    });
    rig.table.begin();
    let lagShown = false;
    rig.run({
      until: () => {
        const a = rig.table.status.activity;
        if (a?.kind === "count" && a.lagging.includes(seat)) lagShown = true;
        return rig.table.state.round === 2;
      },
    });
    // the table said which gun it waited for, then took the aim as made, in the one count
    expect(lagShown).toBe(true);
    expect(aims(rig, 1).find((a) => a.seat === seat)!.target).toBe(meant);
    expect(goCues(rig).filter((c) => c.at < rig.clock.now()).length).toBeGreaterThan(0);
    expect(aims(rig, 1)).toHaveLength(5);
  });

  it("held past the bound: the gun is counted again, then read as aimed", () => {
    const rig = new Rig(scenario, {
      secrets: "console",
      stall: { seat, round: 1, during: "aim", beforeGoMs: 100, ms: FAST_TIMING.lagBoundMs + 600 },
    });
    rig.table.begin();
    rig.run({ until: () => rig.table.state.round === 2 });
    const round1 = aims(rig, 1);
    expect(round1.find((a) => a.seat === seat)!.target).toBe(meant);
    // its verdict came last, from a count of its own
    expect(round1.at(-1)!.seat).toBe(seat);
    expect(rig.cues.filter((c) => c.to === seat && c.name === "go")).toHaveLength(1);
  });

  it("held at every count: after the re-counts it is taken as away (the drop rule), not read from old samples", () => {
    const rig = new Rig(scenario, {
      secrets: "console",
      stall: { seat, round: 1, during: "aim", beforeGoMs: 100, ms: FAST_TIMING.lagBoundMs + 600, times: 10 },
    });
    rig.table.begin();
    rig.run({ until: () => rig.table.state.round === 2 });
    // the first count and the timing's re-counts, then the drop rule's wait: nobody
    expect(rig.cues.filter((c) => c.to === seat && c.name === "go")).toHaveLength(FAST_TIMING.maxLagRecounts);
    expect(aims(rig, 1).find((a) => a.seat === seat)!.target).toBeNull();
  });

  it("a courage count waits for the stream too: a player lying down is read lying down", () => {
    const lying = scenario.rounds[0]!.lieDown.map((n) => scenario.players.indexOf(n));
    const who = lying[0]!;
    expect(who).toBeGreaterThanOrEqual(0);
    const rig = new Rig(scenario, {
      secrets: "console",
      stall: { seat: who, round: 1, during: "courage", beforeGoMs: 100, ms: 700 },
    });
    rig.table.begin();
    rig.run({ until: () => rig.table.state.round === 2 });
    const c = rig.records.find((r) => r.kind === "courage" && r.round === 1 && r.seat === who) as
      | { lieDown: boolean }
      | undefined;
    expect(c?.lieDown).toBe(true);
  });

  it("a player who really moves after the count is still too slow", () => {
    const rig = new Rig(scenario, { secrets: "console", late: { seat, round: 1, ms: 400 } });
    rig.table.begin();
    rig.run({ until: () => rig.table.state.round === 2 });
    expect(aims(rig, 1).find((a) => a.seat === seat)!.target).toBeNull();
  });
});

describe("a reveal window's close", () => {
  const physical = [61, 62, 63, 64, 65, 66, 67, 68]
    .map((seed) => randomScenario("classic", 5, seed, { physical: true }))
    .find((s) => Object.values(s.rounds[0]!.bullets).includes("bang"))!;
  // a player whose card is a Bang! in round 1: their pull goes out near the close, and the WiFi holds it
  const shooter = physical.players.findIndex((n) => physical.rounds[0]!.bullets[n] === "bang");

  it("waits for a held stream: a pull made in the window counts when it lands after the close", () => {
    expect(shooter).toBeGreaterThanOrEqual(0);
    const rig = new Rig(physical, {
      secrets: "physical",
      // from just before its pull (100 ms into the window) to well after the close
      revealStall: { seat: shooter, round: 1, beforeCloseMs: FAST_TIMING.revealWindowMs - 50, ms: 900 },
    });
    rig.table.begin();
    rig.run({ until: () => rig.table.state.round === 2 });
    const pulls = rig.records.find((r) => r.kind === "pulls" && r.round === 1 && r.window === "bang") as
      | { seats: number[] }
      | undefined;
    expect(pulls?.seats).toContain(shooter);
  });
});

describe("the lead-in", () => {
  it("grows with the slowest gun's measured downlink, so every gun has its beats before they play", () => {
    const rig = new Rig(scenario, { secrets: "console" });
    rig.table.begin();
    const t0 = rig.clock.now();
    let probed = false;
    rig.run({
      until: () => {
        if (!probed && rig.clock.now() > t0 + 500) {
          probed = true;
          // seat 3's gun says the hub's last answer (sent 400 ms before the gun's now, on the hub's clock) just came
          const h = rig.clock.now() - 400;
          rig.table.probe(3, h, rig.gunNow(3));
        }
        return rig.table.state.round === 2 && rig.cues.some((c) => c.name === "go" && c.at > t0 + 600);
      },
    });
    const beats = rig.cues.filter((c) => c.name === "beat");
    const first = beats[0]!;
    const later = beats.find((c) => c.at > t0 + 600)!;
    // before: the timing's own lead-in; after: 400 ms (plus the gun's uplink the offset carries) and the margin
    expect(first.opts!.at! - first.at).toBe(FAST_TIMING.leadInMs);
    expect(later.opts!.at! - later.at).toBeGreaterThanOrEqual(400 + FAST_TIMING.leadMarginMs);
    expect(later.opts!.at! - later.at).toBeLessThan(400 + FAST_TIMING.leadMarginMs + 60);
  });
});
