// The MPU-6050's registers the gun uses, named once, with the section of InvenSense's register map (RM-MPU-6000A-00)
// that says each: read by the firmware's driver (its build bakes them in as constants, so the bundle has no table),
// the chip's model both board models run, and the real interpreter's board. The MPU-6500 family, the ICM-20689 and
// the GY-521 clones answer at the same addresses (hardware/imus/mpu6050.mjs).
export var MPU_REG = {
  /** §4.2, register 25: the sample rate divider; the configuration burst starts here */
  SMPLRT_DIV: 0x19,
  /** §4.3: DLPF_CFG, both filters on an MPU-6050, the gyro's on the others */
  CONFIG: 0x1a,
  /** §4.4: FS_SEL, bits 4:3 */
  GYRO_CONFIG: 0x1b,
  /** §4.5: AFS_SEL, bits 4:3 */
  ACCEL_CONFIG: 0x1c,
  /** MPU-6500 register map §2.1, register 29: the accelerometer's filter there; the MPU-6050's free-fall threshold */
  ACCEL_CONFIG2: 0x1d,
  /** §4.17: ACCEL_XOUT_H, then TEMP_OUT (§4.18) and GYRO_XOUT_H (§4.19): fourteen bytes, big-endian */
  ACCEL_XOUT_H: 0x3b,
  TEMP_OUT_H: 0x41,
  GYRO_XOUT_H: 0x43,
  /** §4.28: SLEEP is bit 6 (set at power-on), CLKSEL bits 2:0 */
  PWR_MGMT_1: 0x6b,
  /** §4.32: the part's answer (hardware/imus/mpu6050.mjs) */
  WHO_AM_I: 0x75,
};
