// The firmware bundles the hub can send over the air: the build's firmware/dist/<board>/gun.js, for boards whose
// profile has "ota" and whose Storage holds the USB-flashed bundle plus two updates (firmware/src/ota.ts).
import { existsSync, readFileSync } from "node:fs";
import { boardNames, bundlePathFor, loadBoard, projectRoot } from "../boards/profile.js";
import type { OtaBundle } from "./ota.js";

/** A board's bundle, or why it cannot be updated over the air. */
export function otaBundle(board: string): OtaBundle | string {
  if (!boardNames().includes(board)) return `unknown board ${board}`;
  const b = loadBoard(board);
  if (!b.has?.includes("ota")) {
    // the profile's own words say why, and how that board is flashed instead
    return `${board} has no updates over the air: ${b.otaWhyNot ?? "its profile leaves them out; flash it with cng flash"}`;
  }
  const path = bundlePathFor(board);
  if (!existsSync(path)) return `no ${board} bundle at ${path}: run npm run build`;
  const code = readFileSync(path, "latin1");
  // factory bundle + two update slots, with room to spare for gun.json and Storage's own headers
  if (b.storage && code.length * 3 + 8192 > b.storage) {
    return `${board}'s Storage (${b.storage} bytes) cannot hold three ${code.length}-byte bundles: flash it by USB with cng flash`;
  }
  return { board, fw: firmwareVersion(), code };
}

/** The version the build baked into the bundles. */
export function firmwareVersion(): string {
  const sizes = `${projectRoot}firmware/dist/sizes.json`;
  if (existsSync(sizes)) return (JSON.parse(readFileSync(sizes, "utf8")) as { version: string }).version;
  return (JSON.parse(readFileSync(`${projectRoot}package.json`, "utf8")) as { version: string }).version;
}
