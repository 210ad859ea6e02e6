// The Puck.js v2's own accelerometer + gyro, read through Espruino's Puck object.

/** WHO_AM_I (ST LSM6DS3TR-C datasheet, register 0x0F) */
const WHO_AM_I = 0x0f;

/** @type {import("./index.mjs").ImuKind} */
export default {
  kind: "lsm6ds3",
  name: "LSM6DS3TR-C",
  bus: "board",
  onChip: { chip: "NRF52", board: "Puck.js" },
  // its firmware driver, firmware/src/puck.ts
  driver: "puck",
  // its model (firmware/espruino/chips/lsm6ds3.mjs), behind the Puck object of the Puck.js's own board model
  model: "Lsm6ds3",
  hz: 52,
  ids: {
    register: WHO_AM_I,
    whoAmI: [[106, "LSM6DS3TR-C"]],
    why: "the Puck.js v2's accelerometer + gyro (ST LSM6DS3TR-C datasheet, WHO_AM_I 0x0F = 0x6A)",
  },
  needs: { fields: [], why: "" },
  pins: () => [],
  module: "the Puck's LSM6DS3TR-C",
  current: [0.6, "LSM6DS3TR-C accelerometer + gyro at 52 Hz: 0.6 mA (Espruino's Puck.accelOn figures)"],
  wiring: () => [["IMU (LSM6DS3TR-C)", "on the board", "I2C inside", "read through Puck.accelOn, not a pin of yours"]],
  summary: (_imu, hz) => `the Puck's LSM6DS3TR-C through Puck.accelOn, ${hz} Hz, gyro ±2000 °/s`,
  check: {
    read: () => `var id=Puck.accelRd(${WHO_AM_I});P("imu WHO_AM_I 0x"+id.toString(16)+" "+(N[id]||"unknown"));`,
    hook: () =>
      `var o=Puck,on=o.on;o.on=function(ev,f){return on.call(o,ev,ev==="accel"?function(d){var t=getTime();f(d);H.n++;H.s+=getTime()-t;}:f);};`,
    per: (_imu, hz) => `at ${hz} Hz`,
  },
};
