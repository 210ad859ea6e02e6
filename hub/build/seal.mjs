// The dashboard's cryptography: hub/src/seal (compiled by `tsc -b` to hub/dist/seal) with the @noble primitives it
// uses, as one ES module for the browser (rollup, terser) → hub/dist/web/seal.js, served at /vendor/seal.js. The hub
// runs the same code from hub/dist/seal: one source for both ends.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import nodeResolve from "@rollup/plugin-node-resolve";
import { rollup } from "rollup";
import { minify } from "terser";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const out = join(root, "hub", "dist", "web", "seal.js");

const bundle = await rollup({
  input: join(root, "hub", "dist", "seal", "index.js"),
  plugins: [nodeResolve({ browser: true })],
  onwarn(w, warn) {
    if (w.code !== "CIRCULAR_DEPENDENCY") warn(w);
  },
});
const { output } = await bundle.generate({ format: "es" });
await bundle.close();
const min = await minify(output[0].code, { module: true, ecma: 2020 });
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, min.code);
console.log(`build:seal: ${min.code.length} bytes (${output[0].code.length} before terser) → ${out}`);
