// The MPU-6050 on I2C (a GY-521 breakout), and the parts sold under its name that answer like it.
import { MPU_REG } from "../../firmware/espruino/chips/mpu6050-map.mjs";

/** what the parts sold under its name answer as WHO_AM_I, and which part each is */
const WHO_AM_I = [
  [104, "MPU-6050"],
  [112, "MPU-6500"],
  [113, "MPU-9250"],
  [115, "MPU-9255"],
  [152, "ICM-20689 or a GY-521 clone"],
];

/** the address the profile gives it, or the part's own with AD0 low */
const addr = (imu) => imu.addr ?? 0x68;

/** @type {import("./index.mjs").ImuKind} */
export default {
  kind: "mpu6050",
  name: "MPU-6050",
  bus: "i2c",
  // its firmware driver, firmware/src/mpu6050.ts
  driver: "mpu6050",
  // its register model (firmware/espruino/chips/mpu6050.mjs), on I2C1 at its address (AD0 low: 0x68)
  model: "Mpu6050",
  addr: 0x68,
  hz: 50,
  ids: {
    register: MPU_REG.WHO_AM_I,
    whoAmI: WHO_AM_I,
    why: "GY-521 boards sold as MPU-6050 often carry an MPU-6500 (WHO_AM_I 0x70) or a clone answering 0x98 (13 of 20 in one buyer's batch: https://github.com/ElectronicCats/mpu6050/issues/21; https://github.com/danjperron/mpu6050TestInC/issues/4). The registers the firmware uses (0x19-0x1D, 0x3B-0x48, 0x6B) are the same on them but for the accelerometer's low-pass filter: CONFIG (0x1A) sets it on an MPU-6050, ACCEL_CONFIG2 (0x1D) on the others, where CONFIG filters only the gyro and the accelerometer runs at 218-460 Hz until 0x1D is written; the firmware writes both, and 0x1D is the MPU-6050's free-fall threshold, idle with its interrupt off (InvenSense MPU-6000/6050 register map 4.2 and MPU-6500 register map 2.1, TDK ICM-20689 datasheet; the Linux driver inv_mpu6050 writes ACCEL_CONFIG_2 on every part but the MPU-6050)",
  },
  // the firmware driver's constants: its registers, named once (numbers in the bundle, no table)
  defines: Object.fromEntries(Object.entries(MPU_REG).map(([k, v]) => [`MPU_${k}`, v])),
  needs: { fields: ["scl", "sda"], why: "imu.scl and imu.sda are required for an MPU-6050" },
  // the breakout's pull-ups hold both lines high
  pins: (imu) => [
    { what: "I2C SCL", pin: imu.scl, needs: "i2c", atReset: "high" },
    { what: "I2C SDA", pin: imu.sda, needs: "i2c", atReset: "high" },
  ],
  part: {
    part: "IMU MPU-6050",
    module: "GY-521 breakout (it may carry an MPU-6500 or a clone: the firmware takes them; `cng check` says which)",
    eur: 2,
  },
  module: "GY-521",
  rating: {
    what: "GY-521 breakout (MPU-6050 or a part answering like it, behind the board's own 3.3 V regulator)",
    vin: [3.0, 5.0],
    ma: 5,
    why: "its regulator feeds the chip (VDD 2.375-3.46 V) from 3-5 V; 3.9 mA for the chip, about 1 mA for the board's LED",
    src: "MPU-6000/6050 Product Specification 3.4 (VDD, current); GY-521 sellers' listings (3-5 V)",
    seen: "unconfirmed",
  },
  current: [4, "MPU-6050 gyro + accelerometer: 3.8 mA (InvenSense datasheet) + the GY-521's power LED"],
  size: "GY-521 ≈ 21 × 16",
  wiring: (imu, three) => [
    ["IMU (GY-521)", "VCC", three, "the GY-521 has its own regulator; 3V3 is fine"],
    ["IMU (GY-521)", "GND", "GND", ""],
    ["IMU (GY-521)", "SCL", imu.scl, "I2C clock; the GY-521 has the pull-ups"],
    ["IMU (GY-521)", "SDA", imu.sda, "I2C data"],
    ["IMU (GY-521)", "AD0", addr(imu) === 0x69 ? three : "GND or open", `I2C address 0x${addr(imu).toString(16)}`],
  ],
  summary: (imu, hz) => `MPU-6050 on I2C, address 0x${addr(imu).toString(16)}, sampled at ${hz} Hz`,
  check: {
    read: (imu, js) => {
      const a = addr(imu);
      return (
        `var id,i,t;I2C1.setup({scl:${js(imu.scl)},sda:${js(imu.sda)},bitrate:400000});` +
        `try{I2C1.writeTo(${a},${MPU_REG.WHO_AM_I});id=I2C1.readFrom(${a},1)[0];` +
        `P("imu WHO_AM_I 0x"+id.toString(16)+" "+(N[id]?N[id]+": the firmware takes it":"unknown: the firmware refuses it"));` +
        `t=getTime();for(i=0;i<20;i++){I2C1.writeTo(${a},${MPU_REG.ACCEL_XOUT_H});I2C1.readFrom(${a},14);}` +
        `P("imu read "+Math.round((getTime()-t)*5e4)+" us for 14 bytes at 400 kHz");` +
        `}catch(e){P("imu not answering on I2C ("+e+"): check SCL, SDA, VCC, GND and AD0");}`
      );
    },
    // its sampling is the interval at the IMU's rate (compared loosely: 1000 / 52 printed here and computed on the
    // board may differ in the last digit)
    hook: (_imu, hz) =>
      `var si=setInterval;global.setInterval=function(f,ms){return si(Math.abs(ms-${1000 / hz})<0.01?function(){var t=getTime();f();H.n++;H.s+=getTime()-t;}:f,ms);};`,
    per: (_imu, hz) => `at ${hz} Hz`,
  },
};
