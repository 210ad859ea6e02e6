// The IMU kinds a gun may be built with, one module a kind in this folder: its bus, what it answers as WHO_AM_I, the
// profile fields and pins it takes, its rating, its wiring rows and the builder's check of it. Read by the firmware
// build, the profile and pin checks, the wiring pages, the power figures, the board models and `cng check`. A new
// kind: its module here, its firmware driver (firmware/src) and its chip model (firmware/espruino/chips).
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const files = readdirSync(here)
  .filter((f) => f.endsWith(".mjs") && f !== "index.mjs")
  .sort();

/** kind → its entry */
export const IMUS = Object.fromEntries(
  await Promise.all(
    files.map(async (f) => {
      const e = (await import(pathToFileURL(join(here, f)).href)).default;
      if (`${e.kind}.mjs` !== f) throw new Error(`hardware/imus/${f}: its kind is "${e.kind}", not its file's name`);
      return [e.kind, e];
    }),
  ),
);

/** The IMU kinds, as a sentence: "a, b or c". */
export function imuKindList() {
  const k = Object.keys(IMUS);
  return k.length > 1 ? `${k.slice(0, -1).join(", ")} or ${k[k.length - 1]}` : k.join("");
}

/** The entry of a profile's IMU kind, or undefined for one no module here knows. */
export function imuOf(b) {
  return Object.hasOwn(IMUS, b?.imu?.kind ?? "") ? IMUS[b.imu.kind] : undefined;
}

/** The rate the firmware samples a profile's IMU at: the profile's, else the kind's. */
export function imuHz(b) {
  return b.imu.hz ?? imuOf(b).hz;
}
