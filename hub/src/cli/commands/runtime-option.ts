// `--runtime vm|espruino` of `cng sim` and `cng demo`: where the virtual guns' firmware runs.
import { Option } from "commander";
import { chooseRuntime, type GunRuntime } from "../../sim/espruino/index.js";

export function runtimeOption(): Option {
  return new Option(
    "--runtime <where>",
    "where each gun's firmware runs: vm (Node's vm) or espruino (the real interpreter, npm run espruino:build)",
  )
    .choices(["vm", "espruino"])
    .default("vm");
}

/** The runtime to use; says so when the interpreter is missing and the guns fall back to the vm. */
export async function resolveRuntime(want: GunRuntime, say: (line: string) => void): Promise<GunRuntime> {
  const r = await chooseRuntime(want);
  if (r.note) say(`note: ${r.note}`);
  return r.runtime;
}
