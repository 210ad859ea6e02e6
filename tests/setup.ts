// Set before every test file. One seed for every property test, so CI runs the same cases each time; change it (or
// set FC_SEED) to explore. Real-time files take the real-time slots, the others run niced beside them (tests/real-time.ts).
import fc from "fast-check";
import { afterAll, beforeAll } from "vitest";
import {
  besideRealTime,
  holdRealTime,
  LOCK_WAIT_MS,
  leaveOthers,
  realTimeSlots,
  releaseRealTime,
} from "./real-time.js";

fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261130) });

// biome-ignore lint/correctness/noEmptyPattern: vitest wants its fixtures destructured; the file is the 2nd argument
beforeAll(async ({}, suite) => {
  const slots = realTimeSlots(suite.file.filepath);
  if (slots !== 0) await holdRealTime(slots);
  else await besideRealTime();
}, LOCK_WAIT_MS);
afterAll(() => {
  releaseRealTime();
  leaveOthers();
});
