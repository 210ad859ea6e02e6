// Where the real Espruino interpreter is (built by `npm run espruino:build`, see firmware/espruino/build.mjs), and
// the board it boots with.
import { readdirSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { adcCount } from "../../boards/chips.js";
import { projectRoot } from "../../boards/profile.js";

export interface Interpreter {
  /** the binary, or undefined when there is none */
  path: string | undefined;
  /** why there is none, and what to run */
  why?: string;
  /** the version it is built from (pin.json) */
  version: string;
}

interface Locator {
  locate(): { path: string | undefined; why?: string };
  pin: { version: string };
}

let found: Promise<Interpreter> | undefined;

/** The interpreter, looked up once per process (ESPRUINO_BIN, else the build's cache). */
export function findInterpreter(): Promise<Interpreter> {
  found ??= import(pathToFileURL(`${projectRoot}firmware/espruino/interpreter.mjs`).href).then((m: Locator) => {
    const l = m.locate();
    return { path: l.path, why: l.why, version: m.pin.version };
  });
  return found;
}

/** The board around the interpreter (ES5), stored as `.boot0` before the firmware. */
export const boardShimPath = `${projectRoot}firmware/espruino/board.js`;

/** The chips' models both boards run (ES5 modules). */
export const chipsDir = `${projectRoot}firmware/espruino/chips/`;

/**
 * The chips' models as one script for the interpreter: each file after the ones it imports, in a function scope of
 * its own, its exports put on the one global `__chips` and its imports taken from there. One global, not one a name:
 * Espruino looks a global up along a list, so every name added there slows every builtin the firmware reaches for.
 */
export function chipScript(): string {
  const done = new Set<string>();
  const out: string[] = [];
  const add = (file: string) => {
    if (done.has(file)) return;
    done.add(file);
    const src = readFileSync(chipsDir + file, "utf8");
    const imports: string[] = [];
    for (const m of src.matchAll(/^import \{([^}]*)\} from "\.\/([\w-]+\.mjs)";$/gm)) {
      add(m[2]!);
      for (const name of m[1]!.split(",").map((n) => n.trim()))
        if (name) imports.push(`var ${name} = __chips.${name};`);
    }
    const body = src.replace(/^import \{[^}]*\} from "[^"]*";\n/gm, "");
    if (/^import /m.test(body)) throw new Error(`${file}: only \`import { a, b } from "./x.mjs"\` is understood`);
    const exports = [...body.matchAll(/^export (?:function|var) ([\w$]+)/gm)].map((m) => `__chips.${m[1]} = ${m[1]};`);
    out.push(`(function () {\n${imports.join("\n")}\n${body.replace(/^export /gm, "")}\n${exports.join("\n")}\n})();`);
  };
  for (const f of readdirSync(chipsDir)
    .filter((f) => f.endsWith(".mjs"))
    .sort())
    add(f);
  return `var __chips = {};\n${out.join("\n")}`;
}

/**
 * `.boot0` for a board: its settings as `__c`, the chip facts the board model shares with the vm's (the ADC's
 * transfer, the chips' models: ES5 source and all), then the board. `extra` runs after it.
 */
export function boardBoot(settings: object, extra = ""): string {
  return `var __c=${JSON.stringify(settings)};\nvar adcCount=${adcCount.toString()};\n${chipScript()}\n${readFileSync(boardShimPath, "utf8")}\n${extra}`;
}
