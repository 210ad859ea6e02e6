// `cng check`: the builder's check (./snippet.ts) sent to a board's console, and what it prints, read back.
import { lipoPercent } from "@cng/protocol";
import { gaugeFault } from "../boards/chips.js";
import type { BoardProfile } from "../boards/profile.js";
import { CHECK_MARK, CHECK_RUN_MS, CHECK_TONES, checkSnippet } from "./snippet.js";

/** A byte stream to the board's console and back: a serial port, or a simulated board's USB. */
export interface ConsoleLink {
  send(text: string): void;
  onData(fn: (text: string) => void): void;
}

export interface CheckReport {
  /** every CHECK line, without the mark, in order */
  lines: string[];
  /** what the IMU answered as WHO_AM_I, when it was asked */
  whoAmI?: number;
  /** the battery's volts as the gun reads them (with its calibration) */
  volts?: number;
  /** the battery pin's ADC count */
  count?: number;
  /** the gun firmware's work per IMU sample, µs, and how many samples that is the mean of */
  us?: number;
  samples?: number;
  /** all lines came, up to "done" */
  done: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long the check runs on the board: its steps, the LED and the tones, the firmware timed, with room. */
export const CHECK_MS = 1400 + 4000 + (CHECK_TONES.length + 1) * 600 + 300 + CHECK_RUN_MS + 3000;

/**
 * Runs the check on the board behind `link`: takes the console (the `repl` line a gun on a USB cable gives it back on,
 * Ctrl-C; a Puck.js on Bluetooth gives it only when started with its button held), stops the gun (`reset()`: RAM only,
 * Storage stays), sends the check and reads its lines; the check ends by restarting the gun. `onLine` sees each line
 * as it comes (the builder watches the LED and listens meanwhile).
 */
export async function runCheck(
  link: ConsoleLink,
  board: BoardProfile,
  onLine: (l: string) => void = () => {},
  timeoutMs = CHECK_MS,
): Promise<CheckReport> {
  const lines: string[] = [];
  let buf = "";
  let done = false;
  let finished: () => void = () => {};
  const end = new Promise<void>((r) => {
    finished = r;
  });
  link.onData((d) => {
    buf += d;
    let i = buf.indexOf("\n");
    while (i >= 0) {
      const raw = buf.slice(0, i).replace(/\r$/, "");
      buf = buf.slice(i + 1);
      const at = raw.indexOf(CHECK_MARK);
      // the REPL echoes what it is sent: the check's own text is no answer
      if (at >= 0 && !raw.includes("function P(")) {
        const l = raw.slice(at + CHECK_MARK.length);
        lines.push(l);
        onLine(l);
        if (l === "done") {
          done = true;
          finished();
        }
      }
      i = buf.indexOf("\n");
    }
  });
  link.send('repl {"v":1}\n');
  await sleep(300);
  link.send("\x03");
  await sleep(200);
  link.send("\x10reset();\n");
  await sleep(1500);
  link.send(`\x10${checkSnippet(board)}\n`);
  await Promise.race([end, sleep(timeoutMs)]);
  const r: CheckReport = { lines, done };
  for (const l of lines) {
    const id = /^imu WHO_AM_I 0x([0-9a-f]+)/.exec(l);
    if (id) r.whoAmI = parseInt(id[1]!, 16);
    const v =
      /^battery .* ([0-9.]+) V with gun\.json's calibration/.exec(l) ?? /^battery .*, ([0-9.]+) V as read/.exec(l);
    if (v && r.volts === undefined) r.volts = Number(v[1]);
    const n = /^battery \w+: count (\d+) of \d+/.exec(l);
    if (n) r.count = Number(n[1]);
    const us = /^imu work (\d+) us per sample, (\d+) samples/.exec(l);
    if (us) {
      r.us = Number(us[1]);
      r.samples = Number(us[2]);
    }
  }
  return r;
}

/**
 * The report in words: the charge the volts mean on the LiPo curve, or, when the battery pin reads no cell, the
 * wiring fault that does it (on USB the switch is off: a divider after it reads nothing).
 */
export function describeCheck(r: CheckReport, board: BoardProfile): string[] {
  const out = [...r.lines];
  const fault = board.bat && r.count !== undefined ? gaugeFault(board, r.count) : undefined;
  if (fault) out.push(fault);
  else if (r.volts !== undefined && board.bat)
    out.push(
      `battery ≈ ${lipoPercent(r.volts)} % on the LiPo curve (calibrate it once on Setup if the multimeter disagrees)`,
    );
  if (!r.done) out.push("the check did not finish: see what it printed last");
  return out;
}
