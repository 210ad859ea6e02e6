// What comes next in the round's first half, from the engine's state and the round's plan: the console players'
// cards, the host's start, the re-centre pose, the aim count (the Kid's after the others'), the Godfather's
// privilege, the courage count, then the reveal of physical cards.
import { aimsLast, type Pending, type Seat } from "../rules/index.js";
import { CountJob } from "./count.js";
import { cardOf } from "./guns.js";
import type { JobContext } from "./job.js";
import type { SecretSource } from "./ports.js";
import { PrivilegeJob } from "./privilege.js";
import { RecentreJob } from "./recentre-pose.js";
import { RevealJob } from "./reveal-window.js";
import type { RoundView } from "./round-view.js";

/** Starts the hold-up's next part, or says whom it waits for. True when something was settled without waiting. */
export function holdupNext(
  ctx: JobContext,
  view: RoundView,
  p: Pending,
  source: (seat: Seat) => SecretSource,
): boolean {
  const s = ctx.state;
  const consoleOwed = p.owed.filter((o) => o.decision === "bullet" && source(o.seat).kind === "console");
  if (consoleOwed.length > 0) {
    ctx.setWaiting(consoleOwed.map((o) => ({ seat: o.seat, for: "secret" })));
    return false;
  }
  if (!ctx.plan.started) {
    ctx.setWaiting([{ seat: s.godfather, for: "start" }]);
    return false;
  }
  if (!ctx.plan.recentred) {
    const posing = view.recentreSlots();
    if (posing.length > 0) return RecentreJob.start(ctx, posing);
  }
  const alive = view.aliveSeats();
  const kid = alive.find((seat) => aimsLast(s.players[seat]!));
  const guns = view.activeSlots();
  // the Kid aims after everyone else: a count of its own once the others' aims are known
  const aims = guns.filter((slot) => view.shooter(slot)!.seat !== kid && !view.aimKnown(slot));
  if (aims.length > 0) return CountJob.start(ctx, "aim", aims);
  const kidAims = guns.filter((slot) => view.shooter(slot)!.seat === kid && !view.aimKnown(slot));
  if (kidAims.length > 0) return CountJob.start(ctx, "aim", kidAims);
  if (s.edition === "second" && !view.privilegeKnown()) return PrivilegeJob.start(ctx);
  // with two guns the owner lies down as one player: their own gun (gun 1) says it
  const courage = alive.filter((seat) => !view.courageKnown(seat));
  if (courage.length > 0) return CountJob.start(ctx, "courage", courage);
  const physical = guns.filter((slot) => {
    const sh = view.shooter(slot)!;
    return source(sh.seat).kind === "physical" && cardOf(s, sh) === null;
  });
  if (physical.length > 0) return RevealJob.next(ctx, physical);
  throw new Error(`the table is stuck in step ${s.step}`);
}
