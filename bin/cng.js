#!/usr/bin/env node
// The `cng` command. The hub is TypeScript compiled to hub/dist by `npm run build` (run by npm ci).
import { existsSync } from "node:fs";

const main = new URL("../hub/dist/cli/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write(
    "cng: the hub is not built yet. Run `npm ci` (or `npm run build`) in the project folder first.\n",
  );
  process.exit(1);
}
await import(main.href);
