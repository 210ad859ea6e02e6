// The virtual Espruino board: run a firmware bundle on a PC as a gun, in Node's vm or on the real interpreter.

export {
  type BoardProfile,
  boardNames,
  bundlePathFor,
  consoleDevice,
  loadBoard,
  projectRoot,
} from "../../boards/profile.js";
export { bridgeGun, needsBridge, plug } from "./cable.js";
export { type ClockMode, VirtualClock } from "./clock.js";
export type { Gun, GunOptions, GunRuntime, GunWifi, LedEvent, ToneEvent, VirtualUsbSerial } from "./gun.js";
export { ImuInputs, type ImuModelOptions } from "./imu.js";
export { findInterpreter, type Interpreter } from "./interpreter.js";
export { angleDiff, bodyGravity, bodyRate, type Motion, type Pose, rotation, still } from "./motion.js";
export { POWERSAVE_MODES, powersaveAtBoot, radioSleeps } from "./radio.js";
export { type RealGun, type RealGunOptions, startRealGun } from "./real-gun.js";
export { chooseRuntime, createGun } from "./runtime.js";
export { createVirtualGun, type VirtualGun, type VirtualGunOptions } from "./vm-gun.js";
