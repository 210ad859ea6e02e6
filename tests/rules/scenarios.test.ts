// Plays every scenario file in tests/rules/scenarios and compares the result with the expectation the file
// carries ("_expect": a partial output; "_expectError": the refused decision). The expectations were written
// from docs/rules.md by hand; each file's "_why" says which rule it pins down and how the figures follow.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { playScenario } from "../../hub/src/rules/scenario.js";
import { mismatches } from "./match.js";

const dir = new URL("./scenarios/", import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort();

interface ExpectError {
  round: number;
  player: string | null;
  messageIncludes?: string;
}

describe("scenario files", () => {
  it("there is at least one scenario per edition", () => {
    expect(files.some((f) => f.startsWith("classic-"))).toBe(true);
    expect(files.some((f) => f.startsWith("second-"))).toBe(true);
  });

  for (const file of files) {
    it(file.replace(/\.json$/, ""), () => {
      const input = JSON.parse(readFileSync(new URL(file, dir), "utf8")) as {
        _expect?: unknown;
        _expectError?: ExpectError;
      };
      const result = playScenario(input);
      if (input._expectError) {
        const want = input._expectError;
        expect(result.ok, result.ok ? JSON.stringify(result.output) : "").toBe(false);
        if (result.ok) return;
        expect({ round: result.error.round, player: result.error.player }).toEqual({
          round: want.round,
          player: want.player,
        });
        if (want.messageIncludes) expect(result.error.message).toContain(want.messageIncludes);
      } else {
        expect(input._expect, "the file carries an _expect or an _expectError").toBeDefined();
        if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.error)}`);
        expect(mismatches(input._expect, result.output)).toEqual([]);
      }
    });
  }
});
