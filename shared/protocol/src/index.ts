export * from "./codec.js";
export * from "./errors.js";
export * from "./messages.js";
export * from "./mount.js";
export * from "./topics.js";
export * from "./validate.js";
export * from "./version.js";
