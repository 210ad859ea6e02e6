// The hub killed and restarted mid-round: the table is rebuilt from the engine decisions (the game log) and
// its own records, and carries on at the same step.
import { describe, expect, it } from "vitest";
import { apply, type Decision, newGame, type State } from "../../hub/src/rules/index.js";
import { playScenario, describe as summary } from "../../hub/src/rules/scenario.js";
import { Rig, randomScenario, type Scenario } from "../fakes/table-rig.js";

/** What a restarted hub has: the state replayed from the logged decisions. */
function replayed(scenario: Scenario, decisions: Decision[]): State {
  const made = newGame({ edition: scenario.edition, players: scenario.players, seed: scenario.seed });
  if (!made.ok) throw new Error(made.error.message);
  let s = made.state;
  for (const d of decisions) {
    const r = apply(s, d);
    if (!r.ok) throw new Error(r.error.message);
    s = r.state;
  }
  return s;
}

function final(scenario: Scenario) {
  const r = playScenario(scenario);
  if (!r.ok) throw new Error(r.error.message);
  return r.output;
}

describe("resume after a crash", () => {
  const scenario = randomScenario("classic", 6, 71, { physical: true });

  it("after the bbb window closed: no snapshot is re-taken, the Bang! window opens, the game ends as planned", () => {
    const first = new Rig(scenario, { secrets: "physical" });
    first.table.begin();
    first.run({ until: () => first.records.some((r) => r.kind === "pulls" && r.round === 3) });
    expect(first.table.state.round).toBe(3);
    expect(first.table.state.step).toBe("bullet"); // physical: the engine holds nothing of round 3 yet

    const records = first.records.slice();
    const second = new Rig(scenario, {
      secrets: "physical",
      state: replayed(scenario, first.decisions),
      records,
    });
    const before = records.length;
    second.table.begin();
    expect(second.table.status.activity).toMatchObject({ kind: "reveal", window: "bang" });
    second.run();
    const round3 = records.slice(before).filter((r) => r.round === 3);
    expect(round3.map((r) => r.kind)).toEqual(["pulls"]);
    expect(summary(second.table.state)).toEqual(final(scenario));
  });

  /** A table killed between the beats of round 2's courage count, and its restart from the log and records. */
  function killedInCourage(): Rig {
    const first = new Rig(scenario, { secrets: "physical" });
    first.table.begin();
    first.run({
      until: () => {
        const a = first.table.status.activity;
        return first.table.state.round === 2 && a?.kind === "count" && a.purpose === "courage" && a.goAt !== null;
      },
    });
    first.clock.advance(150);
    return new Rig(scenario, {
      secrets: "physical",
      state: replayed(scenario, first.decisions),
      records: first.records,
    });
  }

  it("after a restart the count waits for the guns to come back, then runs and decides as the players do", () => {
    const second = killedInCourage();
    const n = second.names.length;
    for (let seat = 0; seat < n; seat++) second.table.presence(seat, false);
    const courage = () => second.records.filter((r) => r.kind === "courage" && r.round === 2).length;
    second.table.begin();
    // no gun online: no beat, no verdict, however long it takes; the table says whom it waits for
    second.clock.advance(20_000);
    expect(courage()).toBe(0);
    expect(second.cues.some((c) => c.name === "beat")).toBe(false);
    expect(second.table.status.waiting).toEqual(Array.from({ length: n }, (_, seat) => ({ seat, for: "gun" })));
    // the guns come back one by one: the count runs once the last is there
    for (let seat = 0; seat < n - 1; seat++) second.table.presence(seat, true);
    second.clock.advance(5_000);
    expect(courage()).toBe(0);
    expect(second.table.status.waiting).toEqual([{ seat: n - 1, for: "gun" }]);
    second.table.presence(n - 1, true);
    expect(second.cues.some((c) => c.name === "beat")).toBe(true);
    second.run();
    expect(summary(second.table.state)).toEqual(final(scenario));
  });

  it("the host may go on without a gun that does not come back: it gets the drop rule (stays up)", () => {
    const second = killedInCourage();
    second.table.presence(0, false);
    second.table.begin();
    expect(second.table.status.waiting).toEqual([{ seat: 0, for: "gun" }]);
    expect(second.table.release()).toBe(true);
    expect(second.table.status.waiting).toEqual([]);
    second.clock.advance(15_000);
    const verdict = second.records.find((r) => r.kind === "courage" && r.round === 2 && r.seat === 0);
    expect(verdict).toMatchObject({ lieDown: false });
    expect(second.table.release()).toBe(false);
  });

  it("mid courage count: the aims stay, the courage count starts again", () => {
    const second = killedInCourage();
    const records = second.records;
    second.table.begin();
    const a = second.table.status.activity;
    expect(a).toMatchObject({ kind: "count", purpose: "courage" });
    second.run();
    expect(records.filter((r) => r.kind === "aim" && r.round === 2)).toHaveLength(
      Object.keys(scenario.rounds[1]!.aims).length,
    );
    expect(summary(second.table.state)).toEqual(final(scenario));
  });
});
