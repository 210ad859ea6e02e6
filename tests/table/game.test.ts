// Whole games played by scripted guns end exactly as the scenario runner (`cng rules play`) ends them on the
// same decisions.
import { describe, expect, it } from "vitest";
import { playScenario, describe as summary } from "../../hub/src/rules/scenario.js";
import { Rig, randomScenario } from "../fakes/table-rig.js";

function expected(scenario: ReturnType<typeof randomScenario>) {
  const r = playScenario(scenario);
  if (!r.ok) throw new Error(`scenario refused: ${r.error.message}`);
  return r.output;
}

describe("a whole game at the table", () => {
  it.each([11, 12])("classic, console secrets, seed %i: ends as the scenario runner does", (seed) => {
    const scenario = randomScenario("classic", 5, seed);
    const rig = new Rig(scenario, { secrets: "console" });
    rig.table.begin();
    rig.run();
    expect(rig.table.state.over).toBe(true);
    expect(summary(rig.table.state)).toEqual(expected(scenario));
  });

  it.each([21, 22])("second edition with privilege and draft, seed %i: ends as the scenario runner does", (seed) => {
    const scenario = randomScenario("second", 6, seed);
    expect(scenario.rounds.some((r) => r.privilege)).toBe(true);
    const rig = new Rig(scenario, { secrets: "console" });
    rig.table.begin();
    rig.run();
    expect(rig.table.state.over).toBe(true);
    expect(summary(rig.table.state)).toEqual(expected(scenario));
  });

  it.each([31, 32])(
    "classic, physical cards learned at the reveal, seed %i: ends as the scenario runner does",
    (seed) => {
      const scenario = randomScenario("classic", 6, seed, { physical: true });
      const rig = new Rig(scenario, { secrets: "physical" });
      rig.table.begin();
      rig.run();
      expect(rig.table.state.over).toBe(true);
      expect(summary(rig.table.state)).toEqual(expected(scenario));
      // the reveal windows were recorded: a replay needs no sensors
      expect(rig.records.some((r) => r.kind === "pulls" && r.window === "bbb")).toBe(true);
    },
  );

  it("classic with the cop's phone passed by trigger pulls", () => {
    const scenario = randomScenario("classic", 4, 41, { cop: true });
    const rig = new Rig(scenario, { secrets: "console" });
    rig.table.begin();
    rig.run();
    expect(rig.decisions.some((d) => d.type === "phone")).toBe(true);
    expect(summary(rig.table.state)).toEqual(expected(scenario));
  });
});
