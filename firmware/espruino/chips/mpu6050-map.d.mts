/** The MPU-6050's registers the gun uses, by their names in InvenSense's register map. */
export var MPU_REG: {
  SMPLRT_DIV: number;
  CONFIG: number;
  GYRO_CONFIG: number;
  ACCEL_CONFIG: number;
  ACCEL_CONFIG2: number;
  ACCEL_XOUT_H: number;
  TEMP_OUT_H: number;
  GYRO_XOUT_H: number;
  PWR_MGMT_1: number;
  WHO_AM_I: number;
};
