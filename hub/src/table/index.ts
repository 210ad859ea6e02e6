// The table: the real-time Godfather. The only layer that knows time (through its Clock port).
export * from "./bots.js";
export * from "./clock.js";
export * from "./count.js";
export * from "./guns.js";
export type * from "./job.js";
export * from "./phone.js";
export * from "./plan.js";
export type * from "./ports.js";
export * from "./powers.js";
export * from "./privilege.js";
export * from "./recentre.js";
export * from "./recentre-pose.js";
export type * from "./records.js";
export * from "./reveal.js";
export * from "./reveal-window.js";
export * from "./sensors.js";
export * from "./table.js";
export * from "./timing.js";
