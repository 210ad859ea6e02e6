// What the build's Espruino checks refuse, shown to misbehave on the real interpreter; what they let through, shown to
// behave there as in V8. And the list of built-in methods Espruino lacks (firmware/build/espruino-lacks.json) is
// what the interpreter says today.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
// @ts-expect-error: plain ESM build script without types
import * as checks from "../../firmware/build/checks.mjs";
// @ts-expect-error: plain ESM script without types
import { probeLacks } from "../../firmware/espruino/api.mjs";
import { interpreter, onInterpreter } from "../fakes/real-gun.js";

const { checkDifferences, checkMissing, checkRegExps, checkReservedNames, LACKS, parseEs5, regexProblems } = checks;

/** Runs `body` (ES5, prints with print()) on the real interpreter and returns what it printed after the marker. */
async function onEspruino(body: string): Promise<unknown> {
  const i = interpreter;
  if (!i.path) throw new Error(i.why);
  const dir = mkdtempSync(join(tmpdir(), "cng-espruino-lang-"));
  try {
    writeFileSync(join(dir, "t.js"), `var out;\n${body}\nprint("cng-out "+JSON.stringify(out));quit();`);
    const r = spawnSync(i.path, ["t.js"], { cwd: dir, encoding: "latin1", timeout: 20_000 });
    const m = /cng-out (.*)/.exec(r.stdout);
    if (!m) throw new Error(`no answer from the interpreter:\n${r.stdout.slice(-500)}`);
    return JSON.parse(m[1]!);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** [pattern, flags, input]: a `test()` and an `exec()` on both engines. */
type Sample = [string, string, string];

const REFUSED: [Sample, RegExp][] = [
  [["^[a-z0-9][a-z0-9_-]{0,31}$", "", "g1"], /counted quantifiers/], // the gun id check that kept every gun off
  [["^a{2}$", "", "aa"], /counted quantifiers/],
  [["^ab?c$", "", "ac"], /optional/],
  [["^a+?", "", "aaa"], /lazy/],
  [["^(ab)+$", "", "abab"], /quantifier on a group/],
  [["^(a|b)c$", "", "ax"], /inside a group/],
  [["^(?:ab)$", "", "ab"], /non-capturing/],
  [["a(?=b)", "", "ab"], /lookahead/],
  [["a(?!b)", "", "ac"], /lookahead/],
  [["(?<=a)b", "", "ab"], /lookbehind/],
  [["(?<x>a)", "", "a"], /named groups/],
  [["\\bfoo\\b", "", "a foo b"], /word boundaries/],
  [["(a)\\1", "", "aa"], /back-references/],
  [["\\u0041", "", "A"], /not an escape/],
  [["^a.c$", "", "a\nc"], /line ends/],
  [["^b", "m", "a\nb"], /flag m/],
  [["a", "y", "ba"], /flag y/],
];

const ACCEPTED: Sample[] = [
  ["^[a-z0-9][a-z0-9_-]*$", "", "g1"],
  ["^[a-z0-9][a-z0-9_-]*$", "", "-g1"],
  ["^[a-z0-9][a-z0-9_-]*$", "", "Bad Id!"],
  ["^[A-Za-z0-9_-]+$", "", "k-0123456789abcdef"],
  ["^[a-z][a-zA-Z.-]*$", "", "pair.accept"],
  ["^[0-9]+$", "", "12"],
  ["^\\d+-\\d+$", "", "12-34"],
  ["[^x]+", "", "abc"],
  ["ab|cd", "", "xcd"],
  ["^(\\w+)=(\\d*)$", "", "hz=25"],
  ["\\s", "", "a b"],
  ["^[\\-\\]]+$", "", "-]"],
  ["\\x41", "i", "a"],
  ["-", "g", "a-b-c"],
];

const runSamples = (samples: Sample[]) => `
var S = ${JSON.stringify(samples)};
out = S.map(function (s) {
  var r = [];
  try { r.push(new RegExp(s[0], s[1]).test(s[2])); } catch (e) { r.push("throws"); }
  try { var m = new RegExp(s[0], s[1]).exec(s[2]); r.push(m ? m[0] : null); } catch (e) { r.push("throws"); }
  return r;
});`;

function inNode([p, f, s]: Sample): unknown[] {
  const m = new RegExp(p, f).exec(s);
  return [new RegExp(p, f).test(s), m ? m[0] : null];
}

onInterpreter("RegExp on the real interpreter", () => {
  it("every pattern the build refuses gives another answer there than in JS", async () => {
    for (const [[p, f], why] of REFUSED) expect(regexProblems(p, f).join("; "), `/${p}/${f}`).toMatch(why);
    const esp = (await onEspruino(runSamples(REFUSED.map(([s]) => s)))) as unknown[][];
    for (const [i, [s]] of REFUSED.entries())
      expect(esp[i], `/${s[0]}/${s[1]} on ${JSON.stringify(s[2])}`).not.toEqual(inNode(s));
  });

  it("every pattern it lets through gives the same answer there as in JS", async () => {
    for (const [p, f] of ACCEPTED) expect(regexProblems(p, f), `/${p}/${f}`).toEqual([]);
    const esp = (await onEspruino(runSamples(ACCEPTED))) as unknown[][];
    for (const [i, s] of ACCEPTED.entries())
      expect(esp[i], `/${s[0]}/${s[1]} on ${JSON.stringify(s[2])}`).toEqual(inNode(s));
  });

  it("the build refuses a bundle with such a literal, or a RegExp it cannot read", () => {
    const ast = (s: string) => parseEs5(s).ast;
    expect(checkRegExps(ast('var r = /^[a-z0-9][a-z0-9_-]{0,31}$/; r.test("g1");'))[0]).toMatch(/\{0,31\}: no counted/);
    expect(checkRegExps(ast('new RegExp("a(?=b)")'))[0]).toMatch(/no lookahead/);
    expect(checkRegExps(ast("RegExp(src)"))[0]).toMatch(/built at run time/);
    expect(checkRegExps(ast('/^[a-z]+$/i.test("a"); RegExp("-", "g")'))).toEqual([]);
  });
});

it.skipIf(!interpreter.path)(
  "refuses names Espruino's parser reserves (the protocol once had a parameter `of`)",
  async () => {
    const esp = (await onEspruino(`
    out = ["function f(of){return of}", "var let=1", "var static=1", "var o={of:1,let:2}; o.of+o.let"]
      .map(function (s) { try { eval(s); return "ok"; } catch (e) { return "error"; } });`)) as string[];
    expect(esp).toEqual(["error", "error", "error", "ok"]);
    const ast = (s: string) => parseEs5(s).ast;
    expect(checkReservedNames(ast("function f(of){return of}")).length).toBe(2);
    expect(checkReservedNames(ast("var let = 1; var static = 2;")).length).toBe(2);
    expect(checkReservedNames(ast("var o = {of: 1, let: 2}; o.of + o.let; x = undefined;"))).toEqual([]);
  },
);

onInterpreter("built-ins on the real interpreter", () => {
  it("lacks exactly the methods firmware/build/espruino-lacks.json lists (node firmware/espruino/api.mjs refreshes it)", async () => {
    const i = interpreter;
    const methods: Record<string, string[]> = {};
    for (const [name, t] of Object.entries(LACKS.targets as Record<string, { v8: string[] }>)) methods[name] = t.v8;
    const now = probeLacks(i.path, methods) as Record<string, string[]>;
    for (const [name, t] of Object.entries(LACKS.targets as Record<string, { lacks: string[] }>))
      expect(now[name], name).toEqual(t.lacks);
    // and the build refuses a call of one of them
    const ast = (s: string) => parseEs5(s).ast;
    expect(checkMissing(ast('"a b".search(" ")'))[0]).toMatch(/\.search\(\)/);
    expect(checkMissing(ast("Number.isFinite(x)"))[0]).toMatch(/\.isFinite\(\)/);
    expect(checkMissing(ast("Math.trunc(x)"))[0]).toMatch(/\.trunc\(\)/);
    expect(checkMissing(ast("m.at; s.indexOf(x); isFinite(x)"))).toEqual([]);
  });

  it("runs these differently from V8, and the build says so", async () => {
    const esp = (await onEspruino(`
      require("Storage").writeJSON("a.json", {id: "g1", n: 2});
      out = [
        require("Storage").read("a.json"),
        JSON.stringify({a: [1]}, null, 1),
        "a,b,c".split(",", 2),
        (-1.5).toFixed(0),
        Date.parse("2026/12/01"),
        "ab".replace("a", "[$&]")
      ];`)) as unknown[];
    const v8 = [
      JSON.stringify({ id: "g1", n: 2 }),
      JSON.stringify({ a: [1] }, null, 1),
      "a,b,c".split(",", 2),
      (-1.5).toFixed(0),
      Date.parse("2026/12/01"),
      "ab".replace("a", "[$&]"),
    ];
    for (const [i, v] of esp.entries()) expect(v, `difference ${i}`).not.toEqual(v8[i]);
    const found = checkDifferences(
      parseEs5(`s.writeJSON("a", o); JSON.stringify(o, null, 1); x.split(",", 2); n.toFixed(0);
        Date.parse(t); "ab".replace("a", "[$&]"); new Date("2026/12/01");`).ast,
    ).join("\n");
    for (const w of ["writeJSON", "space", "limit", "toFixed", "Date.parse", "$&", "new Date"])
      expect(found).toContain(w);
    expect(checkDifferences(parseEs5('s.write("a", JSON.stringify(o)); x.split(","); new Date(0)').ast)).toEqual([]);
  });
});
