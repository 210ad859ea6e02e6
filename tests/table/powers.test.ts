// Super Powers at a table of physical cards: two guns (decision 11), the Kid's own count, the Cunning's card
// learned at the reveal, chosen reveals refused once too late, the Specialist from the host.
import { describe, expect, it } from "vitest";
import { seatColour } from "../../hub/src/feedback/index.js";
import { type Decision, newGame, type PowerId, type State } from "../../hub/src/rules/index.js";
import type { SecretSource } from "../../hub/src/table/index.js";
import { PowerRig, play } from "./power-rig.js";

const physical = (n: number): SecretSource[] => Array.from({ length: n }, () => ({ kind: "physical" }));

function game(deal: PowerId[]): State {
  const g = newGame({
    edition: "classic",
    players: ["A", "B", "C", "D", "E"].slice(0, deal.length),
    seed: 3,
    powerDeal: deal,
  });
  if (!g.ok) throw new Error(g.error.message);
  return g.state;
}

/** Round 1 on the engine: B, C and D shoot E dead; A (You-don't-need-it-anymore) may take E's gun. */
function afterDeath(): State {
  const ds: Decision[] = [];
  const cards = ["click", "bang", "bang", "bang", "click"] as const;
  const aims = [1, 4, 4, 4, 0];
  for (let s = 0; s < 5; s++) ds.push({ type: "bullet", seat: s, card: cards[s]! });
  for (let s = 0; s < 5; s++) ds.push({ type: "aim", seat: s, target: aims[s]! });
  for (let s = 0; s < 5; s++) ds.push({ type: "courage", seat: s, lieDown: false });
  return play(game(["you-dont-need-it-anymore", "six-feet-under", "super-coward", "the-specialist", "the-kid"]), ds);
}

describe("two guns (You-don't-need-it-anymore)", () => {
  function twoGunRound(lowered: number | null) {
    const rig = new PowerRig(afterDeath(), physical(5));
    rig.table.begin();
    expect(rig.table.status.waiting).toEqual([{ seat: 0, for: "host", decision: "take-gun" }]);
    expect(rig.table.hostDecide({ type: "take-gun", seat: 0, from: 4 }).ok).toBe(true);
    expect(rig.records).toContainEqual({ kind: "gun-taken", round: 2, seat: 0, from: 4 });
    expect(rig.table.status.guns2).toEqual([{ seat: 0, from: 4 }]);
    // A holds both guns at A's seat: its own at B, E's (gun 2) at C
    rig.aim(0, 0, 1);
    rig.aim(4, 0, 2);
    rig.aim(1, 1, 0);
    rig.aim(2, 2, 3);
    rig.aim(3, 3, 0);
    expect(rig.table.startRound().ok).toBe(true);
    let pulled = false;
    rig.run(
      () => rig.table.state.round === 3 || rig.table.state.over,
      () => {
        const a = rig.table.status.activity;
        if (a?.kind === "count" && a.purpose === "courage" && lowered !== null)
          rig.poses[lowered] = { kind: "lowered" };
        if (a?.kind === "reveal" && a.window === "bang" && rig.clock.now() >= a.opensAt + 100 && !pulled) {
          pulled = true;
          rig.pull(4);
        }
      },
    );
    return rig;
  }

  it("the dead player's gun is the taker's gun 2: its own aim, its own cues, its pull reveals gun 2's card", () => {
    const rig = twoGunRound(4);
    expect(rig.decisions).toContainEqual({ type: "aim", seat: 0, target: 1 });
    expect(rig.decisions).toContainEqual({ type: "aim", seat: 0, target: 2, gun: 2 });
    expect(rig.decisions).toContainEqual({ type: "bullet", seat: 0, card: "bang", gun: 2 });
    expect(rig.decisions).toContainEqual({ type: "bullet", seat: 0, card: "click" });
    // the taken gun's LED follows its own target
    expect(rig.cues).toContainEqual(expect.objectContaining({ to: 4, name: "lock", opts: { colour: seatColour(2) } }));
    // lowering only the taken gun is not a lie-down
    expect(rig.decisions).toContainEqual({ type: "courage", seat: 0, lieDown: false });
    expect(rig.events).toContainEqual({ type: "wound", seat: 2, by: 0, wounds: 1 });
  });

  it("the owner lies down with their own gun: both guns are down", () => {
    const rig = twoGunRound(0);
    expect(rig.decisions).toContainEqual({ type: "courage", seat: 0, lieDown: true });
    expect(rig.events.some((e) => e.type === "wound" && e.by === 0)).toBe(false);
  });
});

describe("chosen powers with physical cards", () => {
  /** Round 1 up to the Specialist's choice: her bbb (seat 3) hits seat 2; what the rig saw on the way. */
  function toSpecialist() {
    const rig = new PowerRig(game(["the-kid", "the-cunning", "the-insane", "the-specialist"]), physical(4));
    rig.table.begin();
    expect(rig.table.revealPower(0, "the-kid").ok).toBe(true);
    expect(rig.table.revealPower(1, "the-cunning").ok).toBe(true);
    rig.aim(0, 0, 2);
    rig.aim(1, 1, 3);
    rig.aim(2, 2, 0);
    rig.aim(3, 3, 2);
    expect(rig.table.startRound().ok).toBe(true);
    const counts: number[][] = [];
    const refused: string[] = [];
    const pulls = new Set<string>();
    rig.run(
      () => rig.table.state.step === "specialist" || rig.table.state.round === 2,
      () => {
        const a = rig.table.status.activity;
        if (a?.kind === "count" && a.goAt !== null) {
          const key = JSON.stringify([a.purpose, a.seats]);
          if (!counts.some((c) => JSON.stringify(c) === key)) counts.push(JSON.parse(key));
          if (a.purpose === "aim" && refused.length === 0) {
            const r = rig.table.revealPower(2, "the-kid");
            void r;
            const c = rig.table.revealPower(2, "the-cunning");
            if (!c.ok) refused.push(c.error);
          }
          if (a.purpose === "courage" && refused.length === 1) {
            const r = rig.table.revealPower(2, "the-insane");
            if (!r.ok) refused.push(r.error);
          }
        }
        if (a?.kind === "reveal" && rig.clock.now() >= a.opensAt + 100) {
          // the Specialist shows the bbb, the Cunning a Bang!
          const who = a.window === "bbb" ? 3 : 1;
          if (!pulls.has(a.window)) {
            pulls.add(a.window);
            rig.pull(who);
          }
        }
      },
    );
    return { rig, counts, refused };
  }

  it("the Kid aims in a count of its own after the others; the Cunning's card is learned at the reveal", () => {
    const { rig, counts, refused } = toSpecialist();
    expect(counts.slice(0, 2)).toEqual([
      ["aim", [1, 2, 3]],
      ["aim", [0]],
    ]);
    expect(refused).toHaveLength(2);
    expect(refused[0]).toMatch(/before aiming/);
    expect(refused[1]).toMatch(/courage/);
    const aimAt = (seat: number) => rig.decisions.findIndex((d) => d.type === "aim" && d.seat === seat);
    expect(aimAt(0)).toBeGreaterThan(aimAt(3));
    expect(rig.decisions).toContainEqual({ type: "bullet", seat: 1, card: "bang" });
    expect(rig.decisions).toContainEqual({ type: "bullet", seat: 3, card: "bbb" });
    expect(rig.events).toContainEqual({ type: "wound", seat: 3, by: 1, wounds: 1 });
    // the Specialist's choice comes from her console or the host
    expect(rig.table.status.waiting).toEqual([{ seat: 3, for: "host", decision: "specialist" }]);
    expect(rig.table.hostDecide({ type: "specialist", seat: 3, discard: "click" }).ok).toBe(true);
    expect(rig.table.state.players[3]!.hand[0]).toBe(1);
    expect(rig.table.state.players[3]!.spent).toBe(true);
  });

  it("the Specialist who does not answer in the reveal window keeps her power (her choice)", () => {
    const { rig } = toSpecialist();
    expect(rig.table.status.waiting).toEqual([{ seat: 3, for: "host", decision: "specialist" }]);
    const hand = [...rig.table.state.players[3]!.hand];
    rig.clock.advance(rig.table.timing.revealWindowMs - 50);
    expect(rig.table.state.step).toBe("specialist");
    rig.clock.advance(100);
    expect(rig.decisions.at(-1)).toEqual({ type: "specialist", seat: 3, discard: null, use: false });
    expect(rig.table.state.step).not.toBe("specialist");
    expect(rig.table.state.players[3]!.hand).toEqual(hand);
    expect(rig.table.state.players[3]!.spent).toBe(false);
    expect(rig.events.some((e) => e.type === "power-revealed" && e.seat === 3)).toBe(false);
  });
});
