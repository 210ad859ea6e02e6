// The build's static checks, on the real bundles and on code Espruino would not run.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM build script without types
import { checkBundle, checkMissing, checkUseBeforeDefine, parseEs5 } from "../../firmware/build/checks.mjs";
import { checkSnippet } from "../../hub/src/check/index.js";
import { boardNames, bundlePathFor, loadBoard, projectRoot } from "../../hub/src/sim/espruino/index.js";

const cng = fileURLToPath(new URL("../../bin/cng.js", import.meta.url));

describe.each(boardNames())("flashed bundle %s", (board) => {
  const code = readFileSync(bundlePathFor(board), "utf8");
  it("is ES5, defines before use, uses nothing Espruino lacks, fits its budget", () => {
    expect(checkBundle(code, loadBoard(board).budget.bytes)).toEqual([]);
    // ASCII only: the bytes on the board are the characters here
    expect([...code].every((ch) => ch === "\n" || (ch >= " " && ch <= "~"))).toBe(true);
  });
  it("keeps Espruino's built-in modules as literal require() calls", () => {
    // a board without WiFi (the Puck.js) carries neither WiFi nor TCP
    const wifi = (loadBoard(board).links ?? ["wifi"]).includes("wifi");
    for (const m of ["net", "Wifi"]) expect(code.includes(`require("${m}")`), m).toBe(wifi);
    expect(code).toContain('require("Storage")');
    expect(code.includes('require("neopixel")')).toBe(loadBoard(board).led.kind === "neopixel");
  });
  it("carries the serial link only where the profile lists it (the ESP8266 is WiFi-only, to stay in budget)", () => {
    const links = loadBoard(board).links ?? ["wifi"];
    // WiFi everywhere but on the Puck.js, whose only link is the line protocol over Bluetooth
    if (loadBoard(board).chip === "NRF52") expect(links).toEqual(["serial"]);
    else expect(links).toContain("wifi");
    const serial = links.includes("serial");
    for (const mark of ["LoopbackA", '"hello "', "setConsole"]) expect(code.includes(mark), mark).toBe(serial);
    if (board.startsWith("esp8266")) expect(serial).toBe(false);
    else expect(serial).toBe(true);
    expect(Buffer.byteLength(code)).toBeLessThanOrEqual(loadBoard(board).budget.bytes);
  });
  it("is listed in sizes.json with its real size", () => {
    const sizes = JSON.parse(readFileSync(`${projectRoot}firmware/dist/sizes.json`, "utf8"));
    expect(sizes.boards[board].bytes).toBe(Buffer.byteLength(code));
  });
});

const ast = (s: string) => parseEs5(s).ast;

it("refuses syntax newer than ES5", () => {
  for (const s of ["function f(a){a=a||1}", "var a=[1];"]) expect(parseEs5(s).problems).toEqual([]);
  for (const s of ["function f(a=1){}", "var b=[...a];", "var {x}=o;", "function* g(){}", "async function h(){}"]) {
    expect(parseEs5(s).problems[0]).toMatch(/not ES5/);
  }
});

it("finds a use before the definition, directly or through a called function", () => {
  expect(checkUseBeforeDefine(ast("function f(){} f();"))).toEqual([]);
  expect(checkUseBeforeDefine(ast("f(); function f(){}"))[0]).toMatch(/f is used/);
  expect(checkUseBeforeDefine(ast("function a(){return b()} a(); function b(){}"))[0]).toMatch(/b is used/);
  // Espruino does not hoist `var` either: what terser's inliner leaves after a `return` is caught
  expect(checkUseBeforeDefine(ast("function g(){ return x = 1, x; var x; }"))[0]).toMatch(/x is used/);
  expect(checkUseBeforeDefine(ast("function g(){ var x; return x = 1, x; }"))).toEqual([]);
  // a callback that runs later is fine
  expect(checkUseBeforeDefine(ast("setTimeout(function(){ f() }, 1); function f(){}"))).toEqual([]);
  expect(checkUseBeforeDefine(ast("(function(){ f(); })(); function f(){}"))[0]).toMatch(/f is used/);
});

it("finds what Espruino lacks", () => {
  expect(checkMissing(ast("var m = new Map();"))[0]).toMatch(/Map/);
  expect(checkMissing(ast("p.finally(function(){});"))[0]).toMatch(/finally/);
  expect(checkMissing(ast("Promise.race([]);"))[0]).toMatch(/race/);
  expect(checkMissing(ast("var o = {Map: 1}; o.Map;"))).toEqual([]);
});

describe.each(boardNames())("the builder's check for %s (cng check)", (board) => {
  it("is ES5 that Espruino runs: the build's own checks pass it", () => {
    const code = checkSnippet(loadBoard(board));
    expect(checkBundle(code, 8192)).toEqual([]);
    expect([...code].every((ch) => ch >= " " && ch <= "~")).toBe(true);
  });
  it("cng check --print gives it, to paste into the Espruino Web IDE", () => {
    const r = spawnSync(process.execPath, [cng, "check", "-b", board, "--print"], { encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${checkSnippet(loadBoard(board))}\n`);
  });
});

it("cng check refuses a board it does not know", () => {
  const r = spawnSync(process.execPath, [cng, "check", "-b", "esp99", "--print"], { encoding: "utf8" });
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/cng check: unknown board "esp99"/);
});
