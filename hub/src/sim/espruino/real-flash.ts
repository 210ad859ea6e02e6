// A gun's flash image for the real interpreter: a folder of its own where the interpreter, run once on a setup
// script, stores the bundle as `.bootcde`, the board as `.boot0` and the gun's `gun.json`, as a flashed board has them.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SETUP = `var fs=require("fs"),s=require("Storage");
s.write(".boot0",fs.readFileSync("boot0.js"));
s.write(".bootcde",fs.readFileSync("gun.js"));
if(fs.readdirSync(".").indexOf("gun.json")>=0)s.write("gun.json",fs.readFileSync("gun.json"));
print("cng-flashed "+s.list().join(","));
quit();`;

function run(bin: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = spawn(bin, args, { cwd, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    c.stdout.on("data", (d: Buffer) => {
      out += d.toString("latin1");
    });
    const t = setTimeout(() => c.kill("SIGKILL"), 15_000);
    c.on("error", reject);
    c.on("close", () => {
      clearTimeout(t);
      resolve(out);
    });
  });
}

export interface FlashFiles {
  /** the firmware bundle */
  code: string;
  /** the board (real-settings.ts bootFile) */
  boot0: string;
  /** gun.json: an object, raw text, or null/undefined for none */
  config?: object | string | null;
}

/** Writes the flash image of a gun on board `boardName` with the interpreter `bin`; resolves with its folder. */
export async function flashImage(bin: string, boardName: string, f: FlashFiles): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `cng-gun-${boardName}-`));
  writeFileSync(join(dir, "gun.js"), f.code, "latin1");
  writeFileSync(join(dir, "boot0.js"), f.boot0);
  if (f.config !== null && f.config !== undefined) {
    writeFileSync(join(dir, "gun.json"), typeof f.config === "string" ? f.config : JSON.stringify(f.config));
  }
  writeFileSync(join(dir, "setup.js"), SETUP);
  const flashed = await run(bin, ["setup.js"], dir);
  if (!/cng-flashed .*\.bootcde/.test(flashed)) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not write the flash image with ${bin}:\n${flashed.slice(-500)}`);
  }
  return dir;
}
