// Time for the whole-table tests: real time (a browser or a real interpreter in the game), or time the test drives
// (DrivenTime, hub/src/sim/driven-time.ts), behind one interface.
import type { MqttClient } from "mqtt";
import { sleep } from "./hub.js";

export { DrivenTime } from "../../hub/src/sim/driven-time.js";

export interface TestTime {
  now(): number;
  /** `fn` every `ms` until the returned stop is called */
  every(ms: number, fn: () => void): () => void;
  /** `fn` once after `ms` */
  after(ms: number, fn: () => void): void;
  /** work in flight (a request) that time must wait for */
  track<T>(p: Promise<T>): Promise<T>;
  /** a client whose traffic time waits for */
  watch(c: MqttClient): MqttClient;
  /** resolves with what `done` gives, failing after `ms` (of this time) saying what it waited for */
  until<T>(done: () => T | undefined | null | false, ms: number, what: string): Promise<T>;
}

export const realTime: TestTime = {
  now: () => Date.now(),
  every(ms, fn) {
    const t = setInterval(fn, ms);
    return () => clearInterval(t);
  },
  after(ms, fn) {
    setTimeout(fn, ms);
  },
  track: (p) => p,
  watch: (c) => c,
  async until(done, ms, what) {
    const end = Date.now() + ms;
    for (;;) {
      const v = done();
      if (v) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await sleep(10);
    }
  },
};
