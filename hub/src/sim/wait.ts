// Waiting in the simulator's own time: real for `cng demo` and `cng sim`, a clock the tests drive for whole games
// in milliseconds. Checks are polled on that clock, so a driven game never waits on a real timer.
import type { Clock } from "../table/clock.js";

/** Resolves with the first truthy `check()`, polled every `everyMs` of `clock`; fails after `ms` saying `what`. */
export function waitOn<T>(
  clock: Clock,
  what: string,
  ms: number,
  check: () => T | undefined | null | false,
  everyMs = 25,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const end = clock.now() + ms;
    const tick = () => {
      let v: T | undefined | null | false;
      try {
        v = check();
      } catch (e) {
        reject(e);
        return;
      }
      if (v) resolve(v);
      else if (clock.now() > end) reject(new Error(`timed out waiting for ${what}`));
      else clock.setTimer(everyMs, tick);
    };
    tick();
  });
}

/**
 * `fn` every `ms` of `clock` until the returned stop is called. `aligned`: on the multiples of `ms` (parties that
 * stream at one rate then tick in the same step of a driven clock).
 */
export function everyOn(clock: Clock, ms: number, fn: () => void, aligned = false): () => void {
  let id = 0;
  let stopped = false;
  const arm = () => {
    const t = clock.now();
    id = clock.setTimer(aligned ? Math.ceil((t + 1) / ms) * ms - t : ms, () => {
      if (stopped) return;
      arm();
      fn();
    });
  };
  arm();
  return () => {
    stopped = true;
    clock.clearTimer(id);
  };
}
