// What a player does with the gun outside a count: points and pulls (the Godfather's order, the re-centre pose), a
// pull once a reveal window opens, one pull or two when the phone comes (two: flip it).
import type { Seat } from "../rules/index.js";
import type { Clock } from "../table/clock.js";
import type { SimGun } from "./fleet.js";
import { PULL_HOLD_MS } from "./hand.js";

/** Points at `seat`, settles, pulls. */
export async function pointAndPull(g: SimGun, clock: Clock, seat: Seat): Promise<void> {
  g.hand.aim(g.aimAt(seat), clock.now());
  await g.hand.pull(g.hand.settledAtHub() + 200 - clock.now());
}

/** The round's re-centre pose: point at the Godfather, settle, pull, lower the gun. */
export async function recentrePose(g: SimGun, clock: Clock, godfather: Seat): Promise<void> {
  const now = clock.now();
  g.hand.aim(g.aimAt(godfather), now);
  const pullIn = g.hand.settledAtHub() + 200 - now;
  // then lowers it, as a person does once the pose is taken: a slow player whose count's aim starts after "go"
  // would otherwise still point at the Godfather, steady, and the table would rightly take that as the aim
  g.hand.hold(g.centre, now + pullIn + PULL_HOLD_MS);
  await g.hand.pull(pullIn);
}

/** A pull a reaction after the reveal window opens at hub ms `opensAt`. */
export async function revealPull(g: SimGun, clock: Clock, opensAt: number): Promise<void> {
  const reaction = g.hand.traits.reactionMedianMs * (0.8 + 0.4 * g.random());
  await g.hand.pull(opensAt + reaction - clock.now());
}

/** The phone has come: two pulls flip it, one passes it on. */
export async function answerPhone(g: SimGun, flip: boolean): Promise<void> {
  const delay = g.hand.traits.reactionMedianMs;
  if (flip) await g.hand.doublePull(delay);
  else await g.hand.pull(delay);
}
