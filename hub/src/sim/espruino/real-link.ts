// The harness's side of the real interpreter's USB (its stdout): the board's reports, "\x01<kind><json>\n" frames
// (firmware/espruino/board.js `__b.rep`), picked out of the text around them, which is what the board itself wrote
// to USB; and waits for a report.

/** What each report carries. */
export interface Reports {
  /** booted: epoch ms of gun ms 0, the board's own JsVars, Espruino's version */
  B: { t0: number; u: number; v: string };
  /** the LED's colour 0xRRGGBB, at gun ms */
  L: [number, number];
  /** the buzzer's frequency (Hz, 0: silent), at gun ms */
  T: [number, number];
  /** a WiFi connect: ssid, password */
  W: [string, string];
  /** the radio's power save; with profiling on, also the answer to `__b.pr()`: samples and µs a sample */
  P: string | { n: number; us: number };
  /** the soft access point is up, or down */
  S: boolean;
  /** a TCP connect: host, port */
  N: [string, number];
  /** console text from LoopbackB (the console moved away from USB) */
  C: string;
  /** where the console went: "usb" or a device */
  K: string;
  /** the firmware asked for a reboot */
  R: undefined;
  /** a harness command threw */
  E: string;
  /** two things on one pin */
  X: string;
  /** every command before `__b.k(n)` has run */
  A: number;
  /** a Storage file: name, text */
  F: [string, string | undefined];
  /** memory: usage, peak, free, total (JsVars) */
  M: { u: number; pk: number; f: number; t: number };
  /** timer `n` ran at gun ms */
  Z: [number, number];
  /** a Puck.js's firmware called NRF.setSecurity with these options */
  Q: unknown;
  /** the MPU-6050's low-pass filters as the firmware configured them: accelerometer, gyro, Hz */
  I: [number, number];
}
export type ReportKind = keyof Reports;

/** A report as it arrives. */
export type Report = { [K in ReportKind]: { kind: K; v: Reports[K] } }[ReportKind];

interface Waiter {
  kind: ReportKind;
  match: (v: never) => boolean;
  resolve: (v: never) => void;
}

export interface LinkListener {
  /** what the board wrote to USB itself */
  text(t: string): void;
  report(r: Report): void;
  /** a frame that is no report */
  bad(e: Error): void;
}

export class BoardLink {
  private inFrame = false;
  private frame = "";
  private waiters: Waiter[] = [];

  constructor(private readonly hear: LinkListener) {}

  /** A piece of the interpreter's stdout. */
  parse(s: string): void {
    let text = "";
    for (let i = 0; i < s.length; ) {
      if (this.inFrame) {
        const j = s.indexOf("\n", i);
        if (j < 0) {
          this.frame += s.slice(i);
          break;
        }
        this.frame += s.slice(i, j);
        this.inFrame = false;
        if (text) {
          this.hear.text(text);
          text = "";
        }
        this.report(this.frame);
        this.frame = "";
        i = j + 1;
      } else {
        const j = s.indexOf("\x01", i);
        text += j < 0 ? s.slice(i) : s.slice(i, j);
        if (j < 0) break;
        this.inFrame = true;
        i = j + 1;
      }
    }
    if (text) this.hear.text(text);
  }

  /** The next report of `kind` that `match` takes. */
  wait<K extends ReportKind>(kind: K, match: (v: Reports[K]) => boolean = () => true): Promise<Reports[K]> {
    return new Promise((resolve) =>
      this.waiters.push({ kind, match: match as (v: never) => boolean, resolve: resolve as (v: never) => void }),
    );
  }

  private report(f: string): void {
    let v: unknown;
    try {
      v = f.length > 1 ? JSON.parse(f.slice(1)) : undefined;
    } catch {
      this.hear.bad(new Error(`unreadable report from the board: ${f.slice(0, 80)}`));
      return;
    }
    const r = { kind: f[0], v } as Report;
    this.hear.report(r);
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) {
      if (w.kind === r.kind && w.match(r.v as never)) w.resolve(r.v as never);
      else this.waiters.push(w);
    }
  }
}
