// The builder's check: what a board in hand says of itself (snippet.ts), sent and read back (run.ts).
export { CHECK_MS, type CheckReport, type ConsoleLink, describeCheck, runCheck } from "./run.js";
export { CHECK_COLOURS, CHECK_MARK, CHECK_RUN_MS, CHECK_TONES, checkSnippet } from "./snippet.js";
