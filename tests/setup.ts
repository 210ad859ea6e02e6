// Set before every test file. One seed for every property test, so CI runs the same cases each time; change it (or
// set FC_SEED) to explore. Real-time files take the real-time slots, the others run niced beside them
// (tests/real-time.ts) — decided here, before the test file is imported, since importing takes CPU too.
import fc from "fast-check";
import { afterAll } from "vitest";
import { besideRealTime, holdRealTime, leaveOthers, realTimeSlots, releaseRealTime } from "./real-time.js";

fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261130) });

const file = (globalThis as { __vitest_worker__?: { filepath?: string } }).__vitest_worker__?.filepath;
if (!file) throw new Error("tests/setup.ts: vitest no longer says which file this worker runs (__vitest_worker__)");
const slots = realTimeSlots(file);
if (slots !== 0) await holdRealTime(slots);
else await besideRealTime();
afterAll(() => {
  releaseRealTime();
  leaveOthers();
});
