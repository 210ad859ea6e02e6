// Property tests (fast-check): conservation, card counts, determinism, immutability, and the equal split
// against a brute-force search.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  apply,
  canCut,
  equalSplit,
  replay as replayAll,
  type SetupOptions,
  type State,
} from "../../hub/src/rules/index.js";
import { names, playRandom, start } from "./play.js";

const CLASSIC_TOTAL = 15 * 5000 + 15 * 10000 + 10 * 20000;

function held(state: State): number {
  return state.players.reduce((sum, p) => sum + (p.alive ? p.money : 0), 0);
}
function onTable(state: State): number {
  return state.bills[0] * 5000 + state.bills[1] * 10000 + state.bills[2] * 20000;
}
function dealtMoney(state: State): number {
  return (state.deck.slice(0, state.deckPos) as number[]).reduce((a, b) => a + b, 0);
}
function lootCards(state: State): number {
  return state.players.reduce((sum, p) => sum + p.cashCards + p.diamonds + p.paintings, 0);
}

const classicOptions = fc.record({
  n: fc.integer({ min: 4, max: 6 }),
  seed: fc.integer(),
  bot: fc.integer(),
  powers: fc.boolean(),
  cop: fc.boolean(),
});
const secondOptions = fc.record({ n: fc.integer({ min: 4, max: 8 }), seed: fc.integer(), bot: fc.integer() });

describe("conservation", () => {
  it("classic: money dealt = held by the living + on the table + removed by death, after every decision", () => {
    fc.assert(
      fc.property(classicOptions, ({ n, seed, bot, powers, cop }) => {
        playRandom({ edition: "classic", players: names(n), seed, powers, cop }, bot, (_b, _d, s) => {
          expect(held(s) + onTable(s) + s.removedByDeath).toBe(dealtMoney(s));
        });
      }),
      { numRuns: 60 },
    );
    expect(CLASSIC_TOTAL).toBe(425000);
  });

  it("second: loot cards dealt = held + on the table + removed by death + used (clips, first-aid)", () => {
    fc.assert(
      fc.property(secondOptions, ({ n, seed, bot }) => {
        playRandom({ edition: "second", players: names(n), seed }, bot, (_b, _d, s) => {
          expect(lootCards(s) + s.cards.length + s.removedByDeath + s.lootUsed).toBe(s.deckPos);
        });
      }),
      { numRuns: 60 },
    );
  });
});

describe("bullet cards", () => {
  it("every living player (and every second gun) holds 9 - r unused cards at the start of round r", () => {
    const check = (opts: SetupOptions, bot: number) =>
      playRandom(opts, bot, (before, _d, s) => {
        if (s.over || s.round === before.round) return;
        for (const p of s.players) {
          if (!p.alive) continue;
          expect(p.hand[0] + p.hand[1] + p.hand[2]).toBe(9 - s.round);
          if (p.gun2) expect(p.gun2[0] + p.gun2[1] + p.gun2[2]).toBe(9 - s.round);
        }
      });
    fc.assert(
      fc.property(classicOptions, ({ n, seed, bot, powers, cop }) => {
        check({ edition: "classic", players: names(n), seed, powers, cop }, bot);
      }),
      { numRuns: 40 },
    );
    fc.assert(
      fc.property(secondOptions, ({ n, seed, bot }) => {
        check({ edition: "second", players: names(n), seed }, bot);
      }),
      { numRuns: 40 },
    );
  });

  it("classic hands never exceed 1 bbb, 2 bang, 5 click (second: 0 bbb; clips may add a bang)", () => {
    fc.assert(
      fc.property(classicOptions, ({ n, seed, bot, powers, cop }) => {
        const { state } = playRandom({ edition: "classic", players: names(n), seed, powers, cop }, bot);
        for (const p of state.players) {
          expect(p.hand[0]).toBeLessThanOrEqual(1);
          expect(p.hand[1]).toBeLessThanOrEqual(2);
          expect(p.hand[2]).toBeLessThanOrEqual(5);
          expect(Math.min(...p.hand)).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("one card per living player (and per second gun) per round: all are in when the courage step opens", () => {
    fc.assert(
      fc.property(classicOptions, ({ n, seed, bot, powers, cop }) => {
        playRandom({ edition: "classic", players: names(n), seed, powers, cop }, bot, (before, _d, s) => {
          if (s.step !== "courage" || before.step === "courage") return;
          s.players.forEach((p, seat) => {
            if (!p.alive) return;
            expect(s.card[seat]).not.toBeNull();
            if (p.gun2 && p.gun2[0] + p.gun2[1] + p.gun2[2] > 0) expect(s.card2[seat]).not.toBeNull();
          });
        });
      }),
      { numRuns: 40 },
    );
  });
});

describe("determinism and immutability", () => {
  it("replaying the decisions from the same setup gives the same state, byte for byte", () => {
    fc.assert(
      fc.property(classicOptions, fc.boolean(), ({ n, seed, bot, powers, cop }, second) => {
        const opts: SetupOptions = second
          ? { edition: "second", players: names(n), seed }
          : { edition: "classic", players: names(n), seed, powers, cop };
        const { decisions, state } = playRandom(opts, bot);
        let replay = start(opts);
        for (const d of decisions) {
          const r = apply(replay, d);
          if (!r.ok) throw new Error(r.error.message);
          replay = r.state;
        }
        expect(JSON.stringify(replay)).toBe(JSON.stringify(state));
        const again = replayAll(opts, decisions);
        expect(again.ok && JSON.stringify(again.state)).toBe(JSON.stringify(state));
      }),
      { numRuns: 30 },
    );
  });

  it("apply never mutates its input state", () => {
    fc.assert(
      fc.property(classicOptions, ({ n, seed, bot, powers, cop }) => {
        playRandom(
          {
            edition: n > 5 ? "second" : "classic",
            players: names(n),
            seed,
            powers: n <= 5 && powers,
            cop: n <= 5 && cop,
          },
          bot,
          (before, d) => {
            const frozen = JSON.stringify(before);
            apply(before, d);
            expect(JSON.stringify(before)).toBe(frozen);
          },
        );
      }),
      { numRuns: 20 },
    );
  });
});

// ---- equal split vs brute force ----

/** Exhaustive search: assign each bill to one of k groups or to the table; the best S, then most 20k, then 10k. */
function bruteSplit(bills: number[], k: number): { each: number; used: [number, number, number] } {
  let best = { each: 0, used: [0, 0, 0] as [number, number, number] };
  const sums = new Array(k).fill(0);
  const used: [number, number, number] = [0, 0, 0];
  const idx = (b: number) => (b === 5000 ? 0 : b === 10000 ? 1 : 2);
  const better = (each: number, u: [number, number, number]) =>
    each > best.each || (each === best.each && (u[2] > best.used[2] || (u[2] === best.used[2] && u[1] > best.used[1])));
  const go = (i: number) => {
    if (i === bills.length) {
      const s = sums[0];
      if (s > 0 && sums.every((x) => x === s) && better(s, used)) best = { each: s, used: [...used] };
      return;
    }
    go(i + 1); // stays on the table
    for (let g = 0; g < k; g++) {
      sums[g] += bills[i]!;
      used[idx(bills[i]!)]++;
      go(i + 1);
      sums[g] -= bills[i]!;
      used[idx(bills[i]!)]--;
    }
  };
  go(0);
  return best;
}

describe("equal split", () => {
  it("equals an exhaustive search on small inputs (largest share, then big bills first)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(5000, 10000, 20000), { minLength: 0, maxLength: 8 }),
        fc.integer({ min: 1, max: 4 }),
        (bills, k) => {
          const counts: [number, number, number] = [0, 0, 0];
          for (const b of bills) counts[b === 5000 ? 0 : b === 10000 ? 1 : 2]++;
          const want = bruteSplit(bills, k);
          const got = equalSplit(counts, k);
          expect(got.each).toBe(want.each);
          if (want.each > 0) expect(got.used).toEqual(want.used);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("k = 0 leaves everything; k = 1 takes everything", () => {
    expect(equalSplit([2, 1, 1], 0)).toEqual({ each: 0, used: [0, 0, 0] });
    expect(equalSplit([2, 1, 1], 1)).toEqual({ each: 40000, used: [2, 1, 1] });
  });

  it("canCut agrees with the seed example: three 5k groups from 5,5,5 but no 20k group for three", () => {
    expect(canCut(3, 0, 0, 3, 1)).toBe(true);
    expect(canCut(0, 0, 2, 3, 4)).toBe(false);
  });
});
