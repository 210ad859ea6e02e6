// The protocol as the firmware bundles it (shared/protocol, ES5), run on the real Espruino interpreter against the
// shared test vectors: the gun's encoders write the same bytes there as in Node, its light decoder takes the valid
// cues and commands and refuses the invalid ones with the same codes, and gun ids and topics check the same.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as protocol from "@cng/protocol";
import { rollup } from "rollup";
import { expect, it } from "vitest";
import { projectRoot } from "../../hub/src/sim/espruino/index.js";
import { interpreter } from "../fakes/real-gun.js";

interface Vector {
  kind: string;
  json?: string;
  payload?: string;
  value?: unknown;
  code?: string;
  gun?: boolean;
  enc?: [string, ...unknown[]];
}
const read = (f: string) =>
  (JSON.parse(readFileSync(`${projectRoot}shared/protocol/vectors/${f}`, "utf8")) as { vectors: Vector[] }).vectors;

const NAMES = ["g1", "a0_-z9", "x".repeat(32), "x".repeat(33), "-g1", "G1", "g 1", "g/1", "+", "#", "", "é"];

it.skipIf(!interpreter.path)("encodes, decodes and checks names on the real interpreter as in Node", async () => {
  const i = interpreter;
  // the protocol as the firmware build takes it: the ES5 output of tsc, one IIFE
  const bundle = await rollup({ input: `${projectRoot}shared/protocol/dist/index.js`, onwarn: () => {} });
  const { output } = await bundle.generate({ format: "iife", name: "P", strict: false });
  await bundle.close();

  const valid = read("valid.json");
  const encoded = valid.filter((v) => v.enc);
  const accepted = valid.filter((v) => v.kind === "cue" || v.kind === "cmd");
  const refused = read("invalid.json").filter((v) => v.gun);
  const script = `${output[0]!.code}
var E = ${JSON.stringify(encoded.map((v) => v.enc))};
var A = ${JSON.stringify(accepted.map((v) => [v.kind, v.json]))};
var R = ${JSON.stringify(refused.map((v) => [v.kind, v.payload]))};
var N = ${JSON.stringify(NAMES)};
var out = {
  enc: E.map(function (e) { return P[e[0]].apply(null, e.slice(1).map(function (a) { return a === null ? undefined : a; })); }),
  acc: A.map(function (a) { return P.decIn(a[0], a[1]); }),
  ref: R.map(function (a) { return P.decIn(a[0], a[1]); }),
  names: N.map(function (n) { return P.isName(n); }),
  topic: P.gunTopic("main", "g1", "aim")
};
print("cng-out " + JSON.stringify(out));
quit();`;
  const dir = mkdtempSync(join(tmpdir(), "cng-espruino-proto-"));
  let got: { enc: string[]; acc: unknown[]; ref: unknown[]; names: boolean[]; topic: string };
  try {
    writeFileSync(join(dir, "t.js"), script);
    const r = spawnSync(i.path!, ["t.js"], { cwd: dir, encoding: "latin1", timeout: 20_000 });
    const m = /cng-out (.*)/.exec(r.stdout);
    if (!m) throw new Error(`no answer from the interpreter:\n${r.stdout.slice(-800)}`);
    got = JSON.parse(m[1]!);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  expect(encoded.length).toBeGreaterThan(5);
  encoded.forEach((v, k) => {
    const [name] = v.enc!;
    expect(JSON.parse(got.enc[k]!), name).toEqual(JSON.parse(v.json!));
    if (name !== "encInfo" && name !== "encErr") expect(got.enc[k], name).toBe(v.json);
  });
  for (const [k, v] of accepted.entries()) expect(got.acc[k], v.json).toEqual(v.value);
  for (const [k, v] of refused.entries()) expect(got.ref[k], v.payload).toBe(v.code);
  expect(got.names).toEqual(NAMES.map((n) => protocol.isName(n)));
  expect(got.names.slice(0, 3)).toEqual([true, true, true]);
  expect(got.topic).toBe(protocol.gunTopic("main", "g1", "aim"));
});
