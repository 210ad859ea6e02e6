// Feeding the table box. Either from the feedback dispatcher (`followFeedback`: subscribe it), or
// from the broker (`mirrorGunCues`: subscribe it to `cng/v1/<table>/gun/+/cue`). A count goes to
// every gun at once, so the same cue (same name and start time) plays only once; cues meant for
// one player alone (lock, ambig, turn, ident, err) are left out.
import { type CueName, decodeCue } from "@cng/protocol";
import { TABLE_BOX_CUES, type WireCue } from "./cue.js";

export interface FollowOptions {
  /** cue names the box plays (default: the count and the results) */
  names?: CueName[];
  /** cues of the same name without a start time this close together are one cue, ms (default 150) */
  sameWithinMs?: number;
  now?: () => number;
}

type Box = { play(cue: WireCue): void };

/** A listener for the feedback dispatcher's cues (`dispatcher.subscribe(followFeedback(box))`). */
export function followFeedback(box: Box, o: FollowOptions = {}): (cue: WireCue) => void {
  const names = o.names ?? TABLE_BOX_CUES;
  const within = o.sameWithinMs ?? 150;
  const now = o.now ?? Date.now;
  let last: { name: string; at: number | undefined; seen: number } | null = null;
  return (c) => {
    if (!names.includes(c.c)) return;
    const t = now();
    if (last && last.name === c.c) {
      const same = c.at !== undefined ? last.at === c.at : last.at === undefined && t - last.seen < within;
      if (same) return;
    }
    last = { name: c.c, at: c.at, seen: t };
    box.play({ c: c.c, l: c.l, b: c.b, rp: c.rp, at: c.at });
  };
}

/** A bus handler for `cng/v1/<table>/gun/+/cue`: the cues the hub sends the guns. */
export function mirrorGunCues(box: Box, o: FollowOptions = {}): (topic: string, payload: Buffer | string) => void {
  const follow = followFeedback(box, o);
  return (_topic, payload) => {
    const d = decodeCue(payload);
    if (d.ok) follow(d.value);
  };
}
