// hardware/chips.json says what Espruino does with each chip's pins, and cites Espruino's source for it: every such
// citation names the file and the lines it rests on (`src`), and those lines are in the board ports of the Espruino
// commit the tests run (../shared/espruino/espruino-ports.tar.gz, or ESPRUINO_PORTS): a claim that source cannot back
// fails here. Skipped, and said so, where the tarball is not beside the project.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url);
const CHIPS = JSON.parse(readFileSync(new URL("hardware/chips.json", root), "utf8"));
const tarball = process.env.ESPRUINO_PORTS ?? fileURLToPath(new URL("../shared/espruino/espruino-ports.tar.gz", root));
const have = existsSync(tarball);
if (!have) console.warn(`chips.json's citations not checked: no Espruino ports tarball at ${tarball}`);

/** Every object in chips.json with a `why`, and where it sits. */
function claims(o: unknown, at: string[] = []): { at: string; why: string; src?: [string, string][] }[] {
  if (!o || typeof o !== "object") return [];
  const r = o as Record<string, unknown>;
  const here = typeof r.why === "string" ? [{ at: at.join("."), why: r.why, src: r.src as [string, string][] }] : [];
  return [...here, ...Object.entries(r).flatMap(([k, v]) => (k === "src" ? [] : claims(v, [...at, k])))];
}
/** The paths of Espruino's source a sentence cites. */
const cited = (why: string) =>
  [...why.matchAll(/\b((?:targets|libs|boards)\/[\w/.-]+\.(?:c|h|py))\b/g)].map((m) => m[1]!);

const files = new Map<string, string>();
function source(path: string): string {
  if (!files.has(path))
    files.set(
      path,
      execFileSync("tar", ["-xzOf", tarball, `Espruino/${path}`], { encoding: "utf8", maxBuffer: 1 << 26 }),
    );
  return files.get(path)!;
}

describe("hardware/chips.json's citations of Espruino's source", () => {
  const all = claims(CHIPS).filter((c) => cited(c.why).length);

  it("name the lines of each file they cite", () => {
    expect(all.length).toBeGreaterThanOrEqual(11);
    for (const c of all) {
      const backed = new Set((c.src ?? []).map(([f]) => f));
      for (const f of cited(c.why)) expect(backed.has(f), `${c.at} cites ${f} without its lines`).toBe(true);
    }
  });

  it.skipIf(!have)("find those lines in Espruino 2v29's board ports", () => {
    for (const c of all) for (const [f, quote] of c.src ?? []) expect(source(f), `${c.at}: ${f}`).toContain(quote);
  });
});
