// The IMU driver interface: every driver fills the same orientation record.

export interface Orient {
  /** yaw, degrees, counter-clockwise seen from above; arbitrary zero (the hub calibrates) */
  y: number;
  /** pitch, degrees, nose up positive */
  p: number;
  /** roll, degrees */
  r: number;
  /** 1 when the gun has been still for a moment */
  s: number;
  /** gun ms of the sample */
  t: number;
}

export interface Imu {
  /** start sampling; an error text when the chip does not answer */
  start(): string | undefined;
  /** fill `o` with the latest orientation */
  get(o: Orient): void;
  /** the hub says the gun lies still now: take the next window as gyro bias */
  still(): void;
}

export var RAD = 180 / Math.PI;
