// The rules book's and the scenario format's examples (docs/rules.md, docs/scenarios.md), played as a reader would
// play them: each "<!-- example: … -->" is a scenario followed by what `cng rules play` gives (a partial match, or
// the error). So the docs cannot drift from the engine.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { playScenario } from "../../hub/src/rules/scenario.js";
import { mismatches } from "./match.js";

const root = new URL("../../", import.meta.url);

function examples(doc: string): { name: string; input: unknown; want: Record<string, unknown> }[] {
  const text = readFileSync(new URL(doc, root), "utf8");
  const out: { name: string; input: unknown; want: Record<string, unknown> }[] = [];
  const re = /<!-- example: (.*?) -->\n```json\n([\s\S]*?)```[\s\S]*?```json\n([\s\S]*?)```/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push({ name: m[1]!, input: JSON.parse(m[2]!), want: JSON.parse(m[3]!) });
  }
  return out;
}

describe.each(["docs/rules.md", "docs/scenarios.md"])("%s", (doc) => {
  const found = examples(doc);
  it("has examples", () => expect(found.length).toBeGreaterThanOrEqual(3));
  for (const ex of found) {
    it(ex.name, () => {
      const r = playScenario(ex.input);
      if ("error" in ex.want) {
        expect(r.ok, r.ok ? JSON.stringify(r.output) : "").toBe(false);
        if (!r.ok) expect(mismatches(ex.want.error, r.error)).toEqual([]);
      } else {
        if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.error)}`);
        expect(mismatches(ex.want, r.output)).toEqual([]);
      }
    });
  }
});

it("nothing in the project points outside it for the rules", () => {
  for (const f of [
    "README.md",
    "hub/src/cli/commands/rules.ts",
    "hub/src/cli/commands/replay.ts",
    "hub/src/rules/index.ts",
  ]) {
    const text = readFileSync(new URL(f, root), "utf8");
    expect(text, f).not.toMatch(/shared\/rules|SCENARIOS\.md|RULES\.md/);
  }
});
