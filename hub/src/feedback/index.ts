// Feedback: the cue vocabulary as LED/buzzer patterns, seat colours, and the dispatcher guns and the table box
// subscribe to.
export * from "./colours.js";
export * from "./cues.js";
export * from "./dispatcher.js";
