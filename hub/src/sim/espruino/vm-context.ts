// The vm's global scope shaped as Espruino's: its pins as objects, and without the JavaScript Espruino lacks, so a
// bundle leaning on it fails in tests as it would on a board.
import { readFileSync } from "node:fs";
import vm from "node:vm";
import { projectRoot } from "../../boards/profile.js";

/** Built-ins of these names are what Espruino's objects are in V8 (firmware/espruino/api.mjs probes the same). */
const TARGET_EXPR: Record<string, string> = {
  "Uint8Array.prototype": "Object.getPrototypeOf(Uint8Array.prototype)",
};
let lacking: string | undefined;
/** `delete …` of every built-in method the real interpreter lacks (firmware/build/espruino-lacks.json). */
function lackingBuiltins(): string {
  if (lacking === undefined) {
    const file = JSON.parse(readFileSync(`${projectRoot}firmware/build/espruino-lacks.json`, "utf8")) as {
      targets: Record<string, { lacks: string[] }>;
    };
    lacking = Object.entries(file.targets)
      .flatMap(([t, { lacks }]) => lacks.map((m) => `delete ${TARGET_EXPR[t] ?? t}[${JSON.stringify(m)}];`))
      .join("");
  }
  return lacking;
}

/** A pin as the firmware holds it; the board's models compare pins by name. */
export class Pin {
  constructor(readonly name: string) {}
  toString(): string {
    return this.name;
  }
}

/** Pin globals the profiles use: D0–D48, A0. */
export function pins(): Record<string, Pin> {
  const p: Record<string, Pin> = { A0: new Pin("A0") };
  for (let i = 0; i <= 48; i++) p[`D${i}`] = new Pin(`D${i}`);
  return p;
}

/** A pin's name, from a Pin or anything the firmware passed as one. */
export const pinName = (x: unknown): string => String(x);

/** A context whose globals are `globals`, with `global` as Espruino has it, and what Espruino lacks gone. */
export function espruinoContext(globals: Record<string, unknown>): vm.Context {
  const ctx = vm.createContext(globals);
  vm.runInContext("var global = globalThis;", ctx);
  vm.runInContext(
    "delete globalThis.Map; delete globalThis.Set; delete globalThis.WeakMap; delete globalThis.WeakSet;" +
      "delete globalThis.Symbol; delete globalThis.Proxy; delete globalThis.Reflect;" +
      lackingBuiltins(),
    ctx,
  );
  return ctx;
}
