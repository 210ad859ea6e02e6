// The virtual Espruino board: run a firmware bundle on a PC as a gun.
export { type BoardProfile, boardNames, bundlePathFor, loadBoard, projectRoot } from "./board.js";
export { type ClockMode, VirtualClock } from "./clock.js";
export {
  createVirtualGun,
  type LedEvent,
  type ToneEvent,
  type VirtualGun,
  type VirtualGunOptions,
  type VirtualUsbSerial,
} from "./gun.js";
export { ImuInputs, type ImuModelOptions, Mpu6050Model, rvcFrame } from "./imu.js";
export { angleDiff, bodyGravity, bodyRate, type Motion, type Pose, rotation, still } from "./motion.js";
