// `cng rules play FILE`: the JSON result on stdout and nothing else; exit 2 with the error object when invalid.
// Runs the built CLI (npm test builds first).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const cng = fileURLToPath(new URL("../../bin/cng.js", import.meta.url));
const scenario = (name: string) => fileURLToPath(new URL(`./scenarios/${name}.json`, import.meta.url));

function run(args: string[], input?: string) {
  return spawnSync(process.execPath, [cng, ...args], { encoding: "utf8", input });
}

describe("cng rules play", () => {
  it("prints only the result JSON and exits 0", () => {
    const r = run(["rules", "play", scenario("classic-split-seed-example")]);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ edition: "classic", round: 1, over: false, table: { bills: [20000, 20000] } });
    expect(out.players.Bob.money).toBe(5000);
  });

  it("reads the scenario from stdin with -", () => {
    const input = JSON.stringify({ edition: "classic", players: ["A", "B", "C", "D"], seed: 1, rounds: [] });
    const r = run(["rules", "play", "-"], input);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ round: 0, over: false, winners: [] });
  });

  it("exits 2 with the error object on an invalid scenario", () => {
    const r = run(["rules", "play", scenario("classic-error-third-bang")]);
    expect(r.status).toBe(2);
    const out = JSON.parse(r.stdout);
    expect(out.error).toMatchObject({ round: 3, player: "Bob" });
    expect(typeof out.error.message).toBe("string");
  });

  it("exits 2 on input that is not JSON", () => {
    const r = run(["rules", "play", "-"], "{nope");
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout).error.round).toBe(0);
  });

  it("has help that names the format", () => {
    const r = run(["rules", "play", "--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("docs/scenarios.md");
  });
});
