// How a person draws at a count, on the beats they hear the guns play (ears.ts): at "1"; at "3" after a reaction, as
// the rule books say; timed so the swing ends on the "3" the beats foretell; or pointing early and switching at "3".
import { angleDiff } from "../aim/index.js";
import type { SimGun } from "./fleet.js";
import { drawCue, swingMsFor } from "./human.js";
import { logNormal } from "./prng.js";

export interface Draw {
  /** "3" at hub ms, the count's pace, and the bearing the move goes to (null: a lie-down) */
  goAt: number;
  pace: number;
  bearing: number | null;
  /** makes the move that counts, on a cue heard at hub ms `cue` (after `reactionMs`) */
  act(cue: number, reactionMs?: number): void;
  /** a switcher's move at "1": true when it is not already the one that counts (null: nothing to show early) */
  early: ((cue: number) => boolean) | null;
  /** the last move is planned */
  done(): void;
}

/** Calls `fn` with when the person heard the count's `kind` tone due at hub ms `at` (or `at`, when no gun played it). */
function hear(
  g: SimGun,
  stopped: () => boolean,
  kind: "beat" | "go",
  at: number,
  pace: number,
  fn: (h: number) => void,
) {
  g.ears.when(kind, at - pace / 2, at + pace / 2, (h) => {
    if (!stopped()) fn(h ?? at);
  });
}

/** The person's reaction to "3" (a beat they wait for). */
function reaction3(g: SimGun): number {
  const t = g.hand.traits;
  return logNormal(g.random, t.reaction3MedianMs, t.reaction3Sigma);
}

/** Draws at a count as the person holding `g` does (until `stopped`). */
export function drawAtCount(g: SimGun, stopped: () => boolean, d: Draw): void {
  const { goAt, pace } = d;
  const heard = (kind: "beat" | "go", at: number, fn: (h: number) => void) => hear(g, stopped, kind, at, pace, fn);
  const one = goAt - 2 * pace;
  const kind = g.person.draw;
  if (kind === "one")
    heard("beat", one, (h1) => {
      d.act(h1);
      d.done();
    });
  else if (kind === "three")
    heard("go", goAt, (h3) => {
      d.act(h3, reaction3(g));
      d.done();
    });
  else if (kind === "timed")
    heard("beat", one, (h1) =>
      heard("beat", goAt - pace, (h2) => {
        // the swing is timed to end on the "3" the beats heard so far foretell
        const p = g.hand.pose(g.hand.now());
        const angle = d.bearing === null ? 60 : Math.hypot(angleDiff(d.bearing, p.yaw), p.pitch);
        const c = drawCue(g.random, g.person, "timed", h1, h2 + (h2 - h1), swingMsFor(g.hand.traits, angle));
        d.act(c.cueMs, c.reactionMs);
        d.done();
      }),
    );
  else
    heard("beat", one, (h1) => {
      // with nothing to show early (a lie-down), a switcher moves at "3"
      const switches = d.early === null ? true : d.early(h1);
      heard("go", goAt, (h3) => {
        if (switches) d.act(h3, reaction3(g));
        d.done();
      });
    });
}

/** When the person hears "1" of the count whose "3" is at `goAt` (until `stopped`). */
export function hearOne(g: SimGun, stopped: () => boolean, goAt: number, pace: number, fn: (h1: number) => void): void {
  hear(g, stopped, "beat", goAt - 2 * pace, pace, fn);
}
