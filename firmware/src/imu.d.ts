// The IMU's driver: the build puts in this module's place the driver its board's IMU kind names (hardware/imus,
// `driver`: mpu6050.ts, bno085.ts, puck.ts), so the gun carries that one only.
import type { Imu } from "./orient";

/** The driver for `hz` samples a second (a chip with a rate of its own ignores it); it samples from `start()`. */
export declare function imu(hz: number): Imu;
