// Sensor trouble at the table: a gun that drops mid-count, an aim between two players, a fourth Bang!.
import { describe, expect, it } from "vitest";
import { newGame, type State } from "../../hub/src/rules/index.js";
import { playScenario, describe as summary } from "../../hub/src/rules/scenario.js";
import { Rig, randomScenario, type Scenario } from "../fakes/table-rig.js";

function afterRounds(scenario: Scenario, rounds: number) {
  const r = playScenario({ ...scenario, rounds: scenario.rounds.slice(0, rounds) });
  if (!r.ok) throw new Error(r.error.message);
  return r.output;
}

const aimRecords = (rig: Rig, round: number) =>
  rig.records.filter((r) => r.kind === "aim" && r.round === round) as { seat: number; target: number | null }[];

describe("a gun that drops mid-countdown", () => {
  const scenario = randomScenario("classic", 5, 51, { style: { aimNobody: 0 } });
  const seat = 2;
  const target = scenario.players.indexOf(scenario.rounds[0]!.aims[scenario.players[seat]!]!);

  it("comes back within the wait: its player is counted again and the round goes on as planned", () => {
    const rig = new Rig(scenario, { secrets: "console", drop: { seat, round: 1, during: "aim", ms: 1200 } });
    rig.table.begin();
    rig.run({ until: () => rig.table.state.round === 2 });
    // the others' verdicts were kept from the first count; the dropped seat got a count of its own
    const aims = aimRecords(rig, 1);
    expect(aims.map((a) => a.seat)).toEqual([0, 1, 3, 4, 2]);
    expect(aims.at(-1)!.target).toBe(target);
    expect(rig.cues.filter((c) => c.to === seat && c.name === "go")).toHaveLength(1);
    expect(summary(rig.table.state)).toEqual(afterRounds(scenario, 1));
  });

  it("stays away past the wait: too slow (aims at nobody), and nothing already decided is lost", () => {
    const rig = new Rig(scenario, { secrets: "console", drop: { seat, round: 1, during: "aim", ms: 60_000 } });
    rig.table.begin();
    rig.run({ until: () => rig.table.state.round === 2 || rig.clock.now() > 1_700_000_100_000 });
    const aims = aimRecords(rig, 1);
    expect(aims.find((a) => a.seat === seat)!.target).toBeNull();
    for (const a of aims.filter((x) => x.seat !== seat))
      expect(a.target).toBe(scenario.players.indexOf(scenario.rounds[0]!.aims[scenario.players[a.seat]!]!));
    expect(rig.decisions).toContainEqual({ type: "aim", seat, target: null });
    expect(rig.table.state.round).toBe(2);
  });
});

describe("an aim between two players", () => {
  const scenario = randomScenario("classic", 6, 61, { style: { aimNobody: 0 } });
  const seat = 1;

  it("blinks `ambig` and is counted again; the steadied aim is taken", () => {
    const rig = new Rig(scenario, { secrets: "console" });
    rig.skew.set(seat, "between");
    rig.table.begin();
    rig.run({ until: () => rig.cues.some((c) => c.to === seat && c.name === "ambig") });
    rig.skew.delete(seat);
    rig.run({ until: () => rig.table.state.round === 2 });
    const mine = aimRecords(rig, 1).filter((a) => a.seat === seat);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.target).toBe(scenario.players.indexOf(scenario.rounds[0]!.aims[scenario.players[seat]!]!));
  });

  it("never guesses: still ambiguous after the re-count budget = nobody", () => {
    const rig = new Rig(scenario, { secrets: "console" });
    rig.skew.set(seat, "between");
    rig.table.begin();
    rig.run({ until: () => aimRecords(rig, 1).some((a) => a.seat === seat) });
    expect(rig.cues.filter((c) => c.to === seat && c.name === "ambig")).toHaveLength(rig.table.timing.maxRecounts);
    expect(aimRecords(rig, 1).find((a) => a.seat === seat)!.target).toBeNull();
  });
});

describe("physical cards", () => {
  it("refuse a fourth Bang!: the gun gets `err` and the card counts as a click", () => {
    const names = ["Ann", "Bob", "Cid", "Dee"];
    const made = newGame({ edition: "classic", players: names, seed: 5 });
    if (!made.ok) throw new Error(made.error.message);
    // Ann has played her bbb and both bangs in earlier rounds: clicks are all she holds
    const state: State = structuredClone(made.state);
    state.players[0]!.hand = [0, 0, 5];
    const scenario: Scenario = {
      edition: "classic",
      players: names,
      seed: 5,
      rounds: [
        {
          bullets: { Ann: "click", Bob: "click", Cid: "click", Dee: "click" },
          aims: { Ann: "Bob", Bob: "Cid", Cid: "Dee", Dee: "Ann" },
          lieDown: [],
          picks: [],
          phone: [],
        },
      ],
    };
    const rig = new Rig(scenario, { secrets: "physical", state, stubbornPuller: 0 });
    rig.table.begin();
    rig.run({ until: () => rig.table.state.round === 2 });
    expect(rig.cues.filter((c) => c.to === 0 && c.name === "err")).toHaveLength(1);
    expect(rig.decisions).toContainEqual({ type: "bullet", seat: 0, card: "click" });
    expect(rig.table.state.players[1]!.wounds).toBe(0);
    expect(rig.records).toContainEqual({ kind: "pulls", round: 1, window: "bang", seats: [] });
  });

  it("a Bang! pulled by a player who still holds one wounds the target", () => {
    const names = ["Ann", "Bob", "Cid", "Dee"];
    const scenario: Scenario = {
      edition: "classic",
      players: names,
      seed: 5,
      rounds: [
        {
          bullets: { Ann: "bang", Bob: "click", Cid: "click", Dee: "click" },
          aims: { Ann: "Bob", Bob: "Cid", Cid: "Dee", Dee: "Ann" },
          lieDown: [],
          picks: [],
          phone: [],
        },
      ],
    };
    const rig = new Rig(scenario, { secrets: "physical" });
    rig.table.begin();
    rig.run({ until: () => rig.table.state.round === 2 });
    expect(rig.table.state.players[1]!.wounds).toBe(1);
    expect(rig.cues.some((c) => c.to === 1 && c.name === "wound")).toBe(true);
  });
});
