// The cue the table box plays: the same LED and buzzer pattern a gun gets, by name.
import type { CueName } from "@cng/protocol";

/** `{name, l, b, rp, at}`: LED pairs (0xRRGGBB, ms), buzzer pairs (Hz, ms), repeats, hub start time. */
export interface TableCue {
  name: CueName;
  l?: number[];
  b?: number[];
  rp?: number;
  /** hub time (ms, Unix epoch) to start; absent = now */
  at?: number;
}

/** A cue as the protocol (`CueMsg`) or the feedback dispatcher (`CueDelivery`) spells it: name in `c`. */
export interface WireCue {
  c: CueName;
  l?: number[];
  b?: number[];
  rp?: number;
  at?: number;
}

/** Accepts a table cue, a protocol `CueMsg` or a feedback `CueDelivery`, and returns a table cue. */
export function toTableCue(c: TableCue | WireCue): TableCue {
  const name = "name" in c ? c.name : c.c;
  const out: TableCue = { name };
  if (c.l) out.l = c.l;
  if (c.b) out.b = c.b;
  if (c.rp !== undefined) out.rp = c.rp;
  if (c.at !== undefined) out.at = c.at;
  return out;
}

/** Cues the table box shows by default: the count and the results. */
export const TABLE_BOX_CUES: CueName[] = ["beat", "go", "wound", "dead", "win", "off"];
