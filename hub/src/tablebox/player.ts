// Plays a cue's step lists on an LED and a buzzer, like the gun firmware's player:
// one track each, steps timed from an absolute start so repeats do not drift,
// a new cue replaces only the tracks it has steps for, the last colour stays on.
import type { TableCue } from "./cue.js";

export interface CueOutputs {
  /** show 0xRRGGBB */
  colour(rgb: number): void;
  /** sound `hz` for `ms`; 0 Hz = silence */
  tone(hz: number, ms: number): void;
}

interface Track {
  timer: NodeJS.Timeout | null;
}

export class CuePlayer {
  private readonly led: Track = { timer: null };
  private readonly buzzer: Track = { timer: null };

  constructor(
    private readonly out: CueOutputs,
    private readonly now: () => number = Date.now,
  ) {}

  play(cue: TableCue): void {
    const rp = cue.rp ?? 1;
    const start = cue.at ?? this.now();
    if (cue.name === "off" && !cue.l && !cue.b) {
      this.stop();
      return;
    }
    if (cue.l?.length) this.run(this.led, cue.l, rp, start, (v) => this.out.colour(v), null);
    if (cue.b?.length) this.run(this.buzzer, cue.b, rp, start, (v, ms) => this.out.tone(v, ms), 0);
  }

  /** LED off, buzzer silent, nothing pending. */
  stop(): void {
    this.clear(this.led);
    this.clear(this.buzzer);
    this.out.colour(0);
    this.out.tone(0, 0);
  }

  private clear(k: Track): void {
    if (k.timer) clearTimeout(k.timer);
    k.timer = null;
  }

  private run(
    k: Track,
    steps: number[],
    rp: number,
    t: number,
    out: (v: number, ms: number) => void,
    end: number | null,
  ): void {
    this.clear(k);
    let i = 0;
    let left = rp;
    const step = () => {
      k.timer = null;
      if (i >= steps.length) {
        i = 0;
        if (--left <= 0) {
          if (end !== null) out(end, 0);
          return;
        }
      }
      out(steps[i], steps[i + 1]);
      t += steps[i + 1];
      i += 2;
      k.timer = setTimeout(step, Math.max(0, t - this.now()));
    };
    k.timer = setTimeout(step, Math.max(0, t - this.now()));
  }
}
