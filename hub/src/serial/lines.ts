// The serial gun line protocol (hardware/SERIAL.md) lives in shared/protocol (lines.ts): the dashboard's Bluetooth
// bridge checks the same lines in the browser. What only a serial port needs is here.
export { type GunLine, type Hello, LineSplitter, lineForGun, MAX_LINE, parseGunLine } from "@cng/protocol";

/** The gun's serial speed, as in the board profiles. */
export const SERIAL_GUN_BAUD = 115200;
