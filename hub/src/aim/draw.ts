// Reading a count as the rule books play it: "When I reach three, each player must point their foam gun" (the
// English seed); "le parrain compte jusqu'à 3, puis chaque joueur en braque un autre … trop lent à réagir, il ne
// braque personne" (the French). So a count is read over a reaction window after "3", not at one instant:
// - a gun held steady from before "3" is read as it is held;
// - a draw at "3" is read at its first steady hold (a hold: the window's reading steady, raised, its newest part on the
//   same seat as the whole) once the gun was steady by "3" + drawMs; not steady by then, the player was too slow (a
//   hand steady in time that moves on, correcting its overshoot or the colour it saw, was in time);
// - a hold left by "3" + switchMs (a switch at "3", a reaction to it), or within lookMs of its start (the player saw
//   the gun's colour and corrected it), gives way to the next hold; one left later is a change of mind after the
//   count, and it stands. Whatever is held at "3" + closeMs is the player's: the count ends there (a gun moving then,
//   still correcting, names nobody).
// Courage likewise: a gun down at any instant from "3" + grace to "3" + courageMs lies down ("trop lent à se coucher,
// devra rester en jeu": lowered later, it stays up).
// Pure: the caller says up to which gun instant it has the stream (coverage), and this says what it reads, or until
// which instant it needs the stream to say.
import { angleDist, type Deg, wrapDeg } from "./angles.js";
import { detectLieDown, type LieDownResult } from "./liedown.js";
import type { LieDownOptions, PickOptions, SnapshotOptions } from "./options.js";
import { readWindow } from "./reading.js";
import { resolveReading, type TargetResult } from "./resolve.js";
import type { SeatId } from "./seats.js";
import type { AimWindow, GunMs } from "./window.js";

/** The count's reaction window (the table's timing), ms after "3". */
export interface DrawWindow {
  /** the first instant read: a gun steady from before "3" is read from here */
  graceMs: number;
  /** a hold left by "3" + this gives way to the next: a switch at "3" */
  switchMs: number;
  /** a hold left within this of its start gives way to the next: a correction after seeing the gun's colour */
  lookMs: number;
  /** the gun must be steady by "3" + this; not by then, the player was too slow */
  drawMs: number;
  /** the count ends at "3" + this: what is held then is the player's, and a gun still moving then names nobody */
  closeMs: number;
}

export type DrawVerdict =
  /** the stream is needed up to gun ms `untilT` to say */
  | { kind: "wait"; untilT: GunMs }
  /** the hold that counts, read at gun ms `t` (its last instant the rule looks at): a target, ambiguous or no seat */
  | { kind: "read"; t: GunMs; result: TargetResult }
  /**
   * no hold counts: too slow (nobody, "slow"), still moving when the count closed ("unstable"), or the gun's own reason
   * when it never had a reading at all
   */
  | { kind: "slow"; result: TargetResult };

/** Gun times of the window's samples in [from, to], oldest first. */
function instants(win: AimWindow, from: GunMs, to: GunMs): GunMs[] {
  const out: GunMs[] = [];
  const newest = win.newestAtOrBefore(to);
  if (newest < 0) return out;
  for (let k = newest; k < win.size && win.t(k) >= from; k++) out.push(win.t(k));
  return out.reverse();
}

/**
 * What the count whose "3" is at gun ms `goT` reads for one gun, with its stream in up to gun ms `upToT`. `offsetDeg`,
 * `bearingRow`, `shooter` and `eligible` as for resolveTarget.
 */
export function readDraw(
  win: AimWindow,
  goT: GunMs,
  upToT: GunMs,
  w: DrawWindow,
  offsetDeg: Deg,
  bearingRow: readonly Deg[],
  shooter: SeatId,
  opts: SnapshotOptions & PickOptions,
  eligible?: (seat: SeatId) => boolean,
): DrawVerdict {
  const steadyBy = goT + w.drawMs;
  const closeT = goT + w.closeMs;
  const switchBy = goT + w.switchMs;
  const confirmedBy = (start: GunMs) => Math.min(closeT, Math.max(switchBy, start + w.lookMs, goT + w.graceMs));
  // a hold that began this early is confirmed at switchBy whenever it began: reading from here is enough
  const from = Math.min(goT + w.graceMs, switchBy - w.lookMs);
  /** the hold now: where it began (its heading), when, and its latest reading */
  let hold: { start: GunMs; headingDeg: Deg; t: GunMs; result: TargetResult } | null = null;
  /** the gun was steady by the window's end: in time, whatever it corrects after */
  let inTime = false;
  let last: TargetResult = { kind: "nobody", reason: "no-samples" };
  const times = instants(win, from, Math.min(upToT, closeT));
  const first = times[0];
  for (const t of times) {
    if (hold !== null && t > confirmedBy(hold.start)) return { kind: "read", t: hold.t, result: hold.result };
    const r = readWindow(win, t, opts);
    const result = resolveReading(r, offsetDeg, bearingRow, shooter, opts, eligible);
    if (t >= goT + w.graceMs) last = result;
    const steady =
      r.kind === "reading" &&
      (result.kind === "target" ||
        result.kind === "ambiguous" ||
        (result.kind === "nobody" && result.reason === "no-seat"));
    if (!steady || r.kind !== "reading") {
      // left in time to count as a switch or a correction (else it was confirmed above): the next hold is the one
      hold = null;
      if (t > steadyBy && !inTime) return slow(last);
      continue;
    }
    const heading = wrapDeg(r.rawHeadingDeg + offsetDeg);
    const tail = wrapDeg(r.rawTailDeg + offsetDeg);
    if (
      hold !== null &&
      angleDist(heading, hold.headingDeg) <= opts.departDeg &&
      angleDist(tail, hold.headingDeg) <= opts.departDeg
    ) {
      hold.t = t;
      hold.result = result;
      continue;
    }
    // a new hold: the gun steadied, or moved on from the last one while steady (an overshoot corrected, a nudge)
    if (t > steadyBy && !inTime) return { kind: "slow", result: { kind: "nobody", reason: "slow" } };
    inTime = true;
    // held at the first instant read: it began then or before
    hold = { start: t === first ? from : t, headingDeg: heading, t, result };
  }
  if (hold !== null) {
    const by = confirmedBy(hold.start);
    return upToT >= by ? { kind: "read", t: hold.t, result: hold.result } : { kind: "wait", untilT: by };
  }
  if (upToT >= closeT) return inTime ? { kind: "slow", result: { kind: "nobody", reason: "unstable" } } : slow(last);
  if (upToT >= steadyBy && !inTime) return slow(last);
  // nothing held now: a hold beginning at the newest instant would be settled a look later (or the window ends)
  return { kind: "wait", untilT: Math.min(inTime ? closeT : steadyBy, Math.max(switchBy, upToT + w.lookMs)) };
}

/** Too slow; a gun that never gave a reading keeps its own reason (silent, stale: the caller's drop rule). */
function slow(last: TargetResult): DrawVerdict {
  const silent = last.kind === "nobody" && (last.reason === "no-samples" || last.reason === "stale");
  return { kind: "slow", result: silent ? last : { kind: "nobody", reason: "slow" } };
}

export type CourageVerdict = { kind: "wait"; untilT: GunMs } | { kind: "read"; t: GunMs; result: LieDownResult };

/**
 * The courage count whose "3" is at gun ms `goT`: down at the first instant from "3" + grace to "3" + courageMs the gun
 * reads lowered or flat; otherwise what it reads at that window's end (up, or unknown without samples).
 */
export function readCourage(
  win: AimWindow,
  goT: GunMs,
  upToT: GunMs,
  w: { graceMs: number; courageMs: number },
  opts: SnapshotOptions & LieDownOptions,
): CourageVerdict {
  const end = goT + w.courageMs;
  for (const t of instants(win, goT + w.graceMs, Math.min(upToT, end))) {
    const r = detectLieDown(win, t, opts);
    if (r.kind === "down") return { kind: "read", t, result: r };
  }
  if (upToT < end) return { kind: "wait", untilT: end };
  return { kind: "read", t: end, result: detectLieDown(win, end, opts) };
}
