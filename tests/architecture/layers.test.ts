// The layer table in ARCHITECTURE.md, enforced: every import in shared/protocol/src, firmware/src and hub/src, and in
// the build's and the board models' modules (hardware/tools, hardware/imus, firmware/build, firmware/espruino), is read
// (TypeScript's own pre-parser: imports, `export … from`, `import()`), mapped to the layer of the file it names, and
// checked against the row of the importing file's layer. The table is parsed from the document itself, so the
// document and this test cannot drift apart.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** the code read: TypeScript, and the build's and the board models' own modules (JavaScript) */
const SOURCES = [
  "shared/protocol/src",
  "firmware/src",
  "hub/src",
  "hardware/tools",
  "hardware/imus",
  "firmware/build",
  "firmware/espruino",
];
const PROTOCOL_PACKAGE = "@cng/protocol";

interface Layer {
  /** short name, as the "may import" column spells it: `rules`, `sim/espruino`, `log.ts`, `shared/protocol` */
  name: string;
  /** repository path of the folder (ending in /) or file */
  path: string;
  /** null: everything */
  mayImport: Set<string> | null;
  /** may import Node's modules and npm packages */
  packages: boolean;
}

/** A layer's short name from the table's first column. */
function shortName(path: string): string {
  const p = path.replace(/\/$/, "");
  if (p.startsWith("hub/src/")) return p.slice("hub/src/".length);
  if (p === "firmware/src") return "firmware";
  return p;
}

/** Parses the layer table (the one whose header is `| folder | what it is | may import | packages |`). */
function parseLayerTable(markdown: string): Layer[] {
  const lines = markdown.split("\n");
  const head = lines.findIndex((l) => /^\|\s*folder\s*\|.*\|\s*may import\s*\|\s*packages\s*\|\s*$/.test(l));
  if (head < 0) throw new Error("ARCHITECTURE.md has no layer table (| folder | what it is | may import | packages |)");
  const layers: Layer[] = [];
  for (const line of lines.slice(head + 2)) {
    if (!line.startsWith("|")) break;
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    if (cells.length !== 4) throw new Error(`layer table row without 4 cells: ${line}`);
    const [folder, , may, packages] = cells as [string, string, string, string];
    const path = /^`([^`]+)`$/.exec(folder)?.[1];
    if (!path) throw new Error(`layer table: the folder cell is one \`path\`: ${line}`);
    const names = [...may.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    let mayImport: Set<string> | null;
    if (/^everything\b/.test(may)) mayImport = null;
    else if (/^nothing\b/.test(may)) mayImport = new Set();
    else mayImport = new Set(names);
    if (mayImport !== null && /^nothing\b/.test(may) && names.length > 0)
      throw new Error(`layer table: "nothing" and names in one cell: ${line}`);
    if (packages !== "yes" && packages !== "no") throw new Error(`layer table: packages is yes or no: ${line}`);
    layers.push({ name: shortName(path), path, mayImport, packages: packages === "yes" });
  }
  const known = new Set(layers.map((l) => l.name));
  for (const l of layers)
    for (const n of l.mayImport ?? [])
      if (!known.has(n)) throw new Error(`layer table: ${l.name} may import \`${n}\`, which is no layer of the table`);
  return layers;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|mjs|js)$/.test(e.name) && !/\.d\.m?ts$/.test(e.name)) out.push(p);
  }
  return out;
}

/** The layer a repository path belongs to: the longest matching folder (or the file itself). */
function layerOf(layers: Layer[], repoPath: string): Layer | null {
  let best: Layer | null = null;
  for (const l of layers) {
    const hit = l.path.endsWith("/") ? repoPath.startsWith(l.path) : repoPath === l.path;
    if (hit && (!best || l.path.length > best.path.length)) best = l;
  }
  return best;
}

interface Import {
  from: string;
  spec: string;
  /** repository path of the imported file, or null: a package */
  target: string | null;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, "utf8");
  const from = relative(ROOT, file).split(sep).join("/");
  return ts.preProcessFile(text, true, false).importedFiles.map(({ fileName: spec }) => {
    if (spec === PROTOCOL_PACKAGE || spec.startsWith(`${PROTOCOL_PACKAGE}/`))
      return { from, spec, target: "shared/protocol/src/index.ts" };
    if (!spec.startsWith(".")) return { from, spec, target: null };
    const abs = resolve(dirname(file), spec).replace(/\.js$/, ".ts");
    return { from, spec, target: relative(ROOT, abs).split(sep).join("/") };
  });
}

/** Layer-level strongly connected components with more than one layer (Tarjan). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1) found.push(c.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const layers = parseLayerTable(readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8"));
const files = SOURCES.flatMap((d) => sourceFiles(join(ROOT, d)));
const imports = files.flatMap(importsOf);

describe("the layers of ARCHITECTURE.md", () => {
  it("the table is read, and what it allows has no cycle", () => {
    expect(layers.length).toBeGreaterThan(20);
    for (const name of ["shared/protocol", "firmware", "rules", "game", "store", "play", "commands", "cli"])
      expect(layers.map((l) => l.name)).toContain(name);
    const allowed = new Map<string, Set<string>>();
    for (const l of layers) if (l.mayImport) allowed.set(l.name, l.mayImport);
    expect(cycles(allowed)).toEqual([]);
  });

  it("every source file is in a layer", () => {
    expect(files.length).toBeGreaterThan(100);
    for (const m of ["hardware/tools/wiring.mjs", "firmware/build/build.mjs", "firmware/espruino/chips/mpu6050.mjs"])
      expect(files.map((f) => relative(ROOT, f).split(sep).join("/"))).toContain(m);
    const orphans = files.map((f) => relative(ROOT, f).split(sep).join("/")).filter((f) => !layerOf(layers, f));
    expect(orphans, "add their folder to the layer table in ARCHITECTURE.md").toEqual([]);
  });

  it("every import is one the table allows", () => {
    const broken: string[] = [];
    for (const i of imports) {
      const from = layerOf(layers, i.from)!;
      if (i.target === null) {
        if (!from.packages) broken.push(`${i.from}: "${i.spec}" (${from.name} imports no packages)`);
        continue;
      }
      const to = layerOf(layers, i.target);
      if (!to) {
        broken.push(`${i.from}: "${i.spec}" is in no layer`);
        continue;
      }
      if (to === from || from.mayImport === null || from.mayImport.has(to.name)) continue;
      broken.push(`${i.from}: "${i.spec}" (${from.name} may not import ${to.name})`);
    }
    expect(broken).toEqual([]);
  });

  it("no cycle between layers", () => {
    const graph = new Map<string, Set<string>>();
    for (const i of imports) {
      if (i.target === null) continue;
      const a = layerOf(layers, i.from)?.name;
      const b = layerOf(layers, i.target)?.name;
      if (!a || !b || a === b) continue;
      if (!graph.has(a)) graph.set(a, new Set());
      graph.get(a)!.add(b);
    }
    expect(graph.size).toBeGreaterThan(10);
    expect(cycles(graph)).toEqual([]);
  });

  it("no cycle between folders (a folder split into layers cannot hide one)", () => {
    const folderOf = (p: string) =>
      /^hub\/src\/[^/]+\//.exec(p)?.[0] ?? /^(shared\/protocol|firmware)\//.exec(p)?.[0] ?? p;
    const graph = new Map<string, Set<string>>();
    for (const i of imports) {
      if (i.target === null) continue;
      const a = folderOf(i.from);
      const b = folderOf(i.target);
      if (a === b) continue;
      if (!graph.has(a)) graph.set(a, new Set());
      graph.get(a)!.add(b);
    }
    expect(graph.get("hub/src/sim/")?.size).toBeGreaterThan(3);
    expect(cycles(graph)).toEqual([]);
  });

  it("the simulator is imported only by the benches and the command line", () => {
    const users = new Set(
      imports
        .filter((i) => i.target?.startsWith("hub/src/sim/") && !i.from.startsWith("hub/src/sim/"))
        .map((i) => i.from),
    );
    const allowed = (f: string) => f.startsWith("hub/src/bench/") || f.startsWith("hub/src/cli/");
    expect([...users].filter((f) => !allowed(f))).toEqual([]);
    expect(users.size).toBeGreaterThan(2);
  });

  it("catches a broken import and a cycle (the checks themselves)", () => {
    const t = parseLayerTable(
      "| folder | what it is | may import | packages |\n|---|---|---|---|\n" +
        "| `hub/src/rules/` | r | nothing | no |\n| `hub/src/aim/` | a | `rules` | no |\n",
    );
    expect(t.map((l) => [l.name, [...(l.mayImport ?? [])], l.packages])).toEqual([
      ["rules", [], false],
      ["aim", ["rules"], false],
    ]);
    expect(layerOf(t, "hub/src/aim/x.ts")?.name).toBe("aim");
    expect(layerOf(t, "hub/src/table/x.ts")).toBeNull();
    expect(
      cycles(
        new Map([
          ["a", new Set(["b"])],
          ["b", new Set(["c"])],
          ["c", new Set(["a"])],
        ]),
      ),
    ).toEqual([["a", "b", "c"]]);
    expect(() =>
      parseLayerTable("| folder | what it is | may import | packages |\n|---|---|---|---|\n| `x/` | x | `y` | no |\n"),
    ).toThrow(/no layer/);
  });
});
