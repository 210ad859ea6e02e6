// Set before every test file. One seed for every property test, so CI runs the same cases each time; change it (or
// set FC_SEED) to explore. Real-time files run one at a time, the others niced beside them (tests/real-time.ts).
import fc from "fast-check";
import { afterAll, beforeAll } from "vitest";
import { holdRealTime, isRealTime, LOCK_WAIT_MS, releaseRealTime, yieldToRealTime } from "./real-time.js";

fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261130) });

// biome-ignore lint/correctness/noEmptyPattern: vitest wants its fixtures destructured; the file is the 2nd argument
beforeAll(async ({}, suite) => {
  if (isRealTime(suite.file.filepath)) await holdRealTime();
  else yieldToRealTime();
}, LOCK_WAIT_MS);
// biome-ignore lint/correctness/noEmptyPattern: as above
afterAll(({}, suite) => {
  if (isRealTime(suite.file.filepath)) releaseRealTime();
});
