// The table: the real-time Godfather. The only layer that knows time (through its Clock port).
export * from "./bots.js";
export * from "./clock.js";
export * from "./gun-clock.js";
export * from "./guns.js";
export * from "./plan.js";
export type * from "./ports.js";
export * from "./powers.js";
export * from "./recentre.js";
export type * from "./records.js";
export * from "./reveal.js";
export * from "./sensors.js";
export * from "./table.js";
export * from "./timing.js";
