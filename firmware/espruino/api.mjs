#!/usr/bin/env node
// Which of V8's built-in methods the pinned Espruino lacks, asked of the real interpreter, and written to
// firmware/build/espruino-lacks.json for the build's checks (checks.mjs: checkBuiltins). Run it when the pin changes:
//   node firmware/espruino/api.mjs            # prints what changed, writes the file
// tests/espruino/language.test.ts asks the interpreter again and fails when the file is out of date.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { locate, pin, projectRoot } from "./interpreter.mjs";

export const lacksPath = join(projectRoot, "firmware", "build", "espruino-lacks.json");

/** The built-ins probed: a name, what it is in Node, and an Espruino expression for the same thing. */
const TARGETS = [
  ["String.prototype", String.prototype, '""'],
  ["Array.prototype", Array.prototype, "[]"],
  ["Number.prototype", Number.prototype, "(0)"],
  ["Function.prototype", Function.prototype, "(function(){})"],
  ["Object.prototype", Object.prototype, "({})"],
  ["Uint8Array.prototype", Object.getPrototypeOf(Uint8Array.prototype), "new Uint8Array(1)"],
  ["Promise.prototype", Promise.prototype, "Promise.resolve()"],
  ["Date.prototype", Date.prototype, "new Date(0)"],
  ["RegExp.prototype", RegExp.prototype, "/a/"],
  ["Object", Object, "Object"],
  ["Array", Array, "Array"],
  ["String", String, "String"],
  ["Number", Number, "Number"],
  ["Math", Math, "Math"],
  ["JSON", JSON, "JSON"],
  ["Promise", Promise, "Promise"],
  ["Date", Date, "Date"],
];

/** V8's methods on each target (this Node's). */
export function v8Methods() {
  const out = {};
  for (const [name, obj] of TARGETS) {
    out[name] = Object.getOwnPropertyNames(obj)
      .filter((k) => k !== "constructor" && !k.startsWith("__"))
      .filter((k) => {
        const d = Object.getOwnPropertyDescriptor(obj, k);
        return d && typeof d.value === "function";
      })
      .sort();
  }
  return out;
}

/** Asks the interpreter which of `methods` it lacks, per target. */
export function probeLacks(bin, methods = v8Methods()) {
  const lines = ["var r={};"];
  for (const [name, , expr] of TARGETS) {
    lines.push(`r[${JSON.stringify(name)}]=[];`);
    for (const m of methods[name]) {
      lines.push(
        `try{if(typeof (${expr})[${JSON.stringify(m)}]!=="function")r[${JSON.stringify(name)}].push(${JSON.stringify(m)});}catch(e){r[${JSON.stringify(name)}].push(${JSON.stringify(m)});}`,
      );
    }
  }
  lines.push('print("cng-api "+JSON.stringify(r));quit();');
  const dir = mkdtempSync(join(tmpdir(), "cng-espruino-api-"));
  try {
    writeFileSync(join(dir, "probe.js"), lines.join("\n"));
    const r = spawnSync(bin, ["probe.js"], { cwd: dir, encoding: "latin1", timeout: 30_000 });
    const m = /cng-api (.*)/.exec(r.stdout ?? "");
    if (!m) throw new Error(`the probe did not answer: ${(r.stdout ?? "").slice(-300)} ${r.stderr ?? ""}`);
    return JSON.parse(m[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The file's content for `lacks`. */
export function lacksFile(methods, lacks) {
  const targets = {};
  for (const [name] of TARGETS) targets[name] = { v8: methods[name], lacks: lacks[name] };
  return { espruino: `${pin.version} ${pin.commit.slice(0, 12)}`, targets };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const found = locate();
  if (!found.path) {
    process.stderr.write(`${found.why}\n`);
    process.exit(1);
  }
  const methods = v8Methods();
  const next = lacksFile(methods, probeLacks(found.path, methods));
  let prev = { targets: {} };
  try {
    prev = JSON.parse(readFileSync(lacksPath, "utf8"));
  } catch {}
  for (const [name, t] of Object.entries(next.targets)) {
    const was = new Set(prev.targets[name]?.lacks ?? []);
    const added = t.lacks.filter((m) => !was.has(m));
    const gone = [...was].filter((m) => !t.lacks.includes(m));
    if (added.length || gone.length)
      console.log(`${name}: lacks now ${added.join(", ") || "-"}; has now ${gone.join(", ") || "-"}`);
  }
  writeFileSync(lacksPath, `${JSON.stringify(next, null, 1)}\n`);
  console.log(`wrote ${lacksPath}`);
}
