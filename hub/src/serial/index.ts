// USB-tethered guns: the line protocol and the bridge onto the broker.
export {
  type BridgeCredentials,
  type BridgeLogin,
  type SerialGunBridge,
  type SerialGunBridgeOptions,
  startSerialGunBridge,
} from "./bridge.js";
export {
  type GunLine,
  type Hello,
  LineSplitter,
  lineForGun,
  MAX_LINE,
  parseGunLine,
  SERIAL_GUN_BAUD,
} from "./lines.js";
