// The feedback dispatcher: the table says "cue X to seat S at time T"; subscribers (the gun adapter, the
// table box) each get the pattern ready to send. The hub maps seats to guns and stamps `v`/`n`.
import type { CueName, HubMs } from "@cng/protocol";
import type { Seat } from "../rules/index.js";
import type { Rgb } from "./colours.js";
import { type CuePattern, cuePattern } from "./cues.js";

/** One seat's gun, or every gun (and the table box). */
export type CueTarget = Seat | "all";

export interface CueOptions {
  /** hub time to start; absent = now */
  at?: HubMs;
  /** seat colour for lock / turn / ident / win */
  colour?: Rgb;
  /** ident: blink this many times (a seat number) */
  times?: number;
  /** lock: the other seat's colour, when the gun points between two seats */
  blink?: Rgb;
}

/** A cue ready for the wire (the protocol CueMsg without `v` and `n`). */
export interface CueDelivery extends CuePattern {
  to: CueTarget;
  c: CueName;
  at?: HubMs;
}

export type CueListener = (cue: CueDelivery) => void;

export class FeedbackDispatcher {
  private readonly listeners = new Set<CueListener>();

  /** Returns the unsubscribe function. */
  subscribe(fn: CueListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  cue(to: CueTarget, name: CueName, opts: CueOptions = {}): void {
    const delivery: CueDelivery = { to, c: name, ...cuePattern(name, opts.colour, opts.times, opts.blink) };
    if (opts.at !== undefined) delivery.at = opts.at;
    for (const fn of this.listeners) fn(delivery);
  }
}
