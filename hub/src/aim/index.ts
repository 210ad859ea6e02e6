// The aim layer: seat geometry, calibration, target resolution, lie-down. Pure: no MQTT, no clock, no I/O.
export * from "./angles.js";
export * from "./calibration.js";
export * from "./draw.js";
export * from "./gun-clock.js";
export * from "./liedown.js";
export * from "./live.js";
export * from "./options.js";
export * from "./pick.js";
export * from "./reading.js";
export * from "./resolve.js";
export * from "./seats.js";
export * from "./tracker.js";
export * from "./window.js";
