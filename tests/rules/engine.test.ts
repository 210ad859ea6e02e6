// The engine's API: typed errors that change nothing, pending(), player views that keep secrets, and random
// full games for every player count of both editions, with powers and the cop variant on and off.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  apply,
  type Decision,
  newGame,
  pending,
  playerView,
  publicView,
  type RuleErrorCode,
  type State,
} from "../../hub/src/rules/index.js";
import { playScenario } from "../../hub/src/rules/scenario.js";
import { names, playRandom, start } from "./play.js";

function ok(state: State, d: Decision): State {
  const r = apply(state, d);
  if (!r.ok) throw new Error(r.error.message);
  return r.state;
}

function refused(state: State, d: Decision, code: RuleErrorCode): void {
  const before = JSON.stringify(state);
  const r = apply(state, d);
  expect(r.ok).toBe(false);
  if (r.ok) return;
  expect(r.error.code).toBe(code);
  expect(r.error.player).toBe(d.seat);
  expect(r.error.message.length).toBeGreaterThan(0);
  expect(JSON.stringify(state)).toBe(before);
}

/** plays one classic round's bullet and aim steps from arrays by seat */
function bulletsAndAims(s: State, cards: ("bbb" | "bang" | "click")[], aims: (number | null)[]): State {
  cards.forEach((card, seat) => {
    s = ok(s, { type: "bullet", seat, card });
  });
  aims.forEach((target, seat) => {
    s = ok(s, { type: "aim", seat, target });
  });
  return s;
}

describe("refused decisions name the player and the reason, and change nothing", () => {
  const classic = () => start({ edition: "classic", players: names(4), seed: 1 });

  it("out of turn: aiming during the bullet step, picking a card twice", () => {
    let s = classic();
    refused(s, { type: "aim", seat: 0, target: 1 }, "wrong-step");
    s = ok(s, { type: "bullet", seat: 0, card: "bang" });
    refused(s, { type: "bullet", seat: 0, card: "click" }, "already-decided");
    refused(s, { type: "courage", seat: 1, lieDown: true }, "wrong-step");
  });

  it("a card already used, a self-aim, an aim at nobody's seat", () => {
    let s = classic();
    s = bulletsAndAims(s, ["bbb", "click", "click", "click"], [null, null, null, null]);
    for (let seat = 0; seat < 4; seat++) s = ok(s, { type: "courage", seat, lieDown: false });
    expect(s.round).toBe(2);
    refused(s, { type: "bullet", seat: 0, card: "bbb" }, "card-used");
    s = bulletsAndAims(s, ["click", "click", "click", "click"], []);
    refused(s, { type: "aim", seat: 2, target: 2 }, "self-aim");
    refused(s, { type: "aim", seat: 2, target: 9 }, "bad-target");
  });

  it("a dead player acting", () => {
    let s = classic();
    s = bulletsAndAims(s, ["bang", "click", "bang", "bang"], [1, null, 1, 1]);
    for (let seat = 0; seat < 4; seat++) s = ok(s, { type: "courage", seat, lieDown: false });
    expect(s.players[1]!.alive).toBe(false);
    refused(s, { type: "bullet", seat: 1, card: "click" }, "dead-player");
  });

  it("a privilege in classic, a pick in classic", () => {
    let s = classic();
    s = bulletsAndAims(s, ["click", "click", "click", "click"], [1, 2, 3, 0]);
    refused(s, { type: "privilege", seat: 0, order: 1 }, "not-allowed");
    refused(s, { type: "pick", seat: 0, card: "cash:5000" }, "not-allowed");
  });

  it("second: a pick not on the table, a pick out of turn, a non-Godfather privilege", () => {
    let s = start({
      edition: "second",
      players: names(4),
      deck: ["cash:5000", "cash:5000", "painting", "painting", "clip", "first-aid", "diamond:1000", "cash:20000"],
    });
    for (let seat = 0; seat < 4; seat++) s = ok(s, { type: "bullet", seat, card: "click" });
    for (let seat = 0; seat < 4; seat++) s = ok(s, { type: "aim", seat, target: (seat + 1) % 4 });
    expect(pending(s)).toMatchObject({ step: "privilege", owed: [{ seat: 0, decision: "privilege" }] });
    refused(s, { type: "privilege", seat: 1, order: 2 }, "not-your-turn");
    s = ok(s, { type: "privilege", seat: 0, order: null });
    for (let seat = 0; seat < 4; seat++) s = ok(s, { type: "courage", seat, lieDown: false });
    expect(pending(s)).toMatchObject({ step: "draft", turn: 0 });
    refused(s, { type: "pick", seat: 1, card: "painting" }, "not-your-turn");
    refused(s, { type: "pick", seat: 0, card: "diamond:10000" }, "not-on-table");
    refused(s, { type: "bullet", seat: 0, card: "bbb" }, "wrong-step");
  });

  it("setup refuses bad options with a typed error", () => {
    const r = newGame({ edition: "second", players: names(4), cop: true });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe("bad-options");
    const dup = newGame({ edition: "classic", players: ["A", "A", "B", "C"] });
    expect(dup.ok).toBe(false);
  });
});

describe("pending", () => {
  it("lists who still owes a card, then an aim, then courage; the round moves on by itself", () => {
    let s = start({ edition: "classic", players: names(4), seed: 3 });
    expect(pending(s).owed.map((o) => o.seat)).toEqual([0, 1, 2, 3]);
    s = ok(s, { type: "bullet", seat: 2, card: "click" });
    expect(pending(s).owed.map((o) => o.seat)).toEqual([0, 1, 3]);
    for (const seat of [0, 1, 3]) s = ok(s, { type: "bullet", seat, card: "click" });
    expect(pending(s).step).toBe("aim");
  });

  it("the Kid aims last and the Cunning picks last once revealed", () => {
    let s = start({
      edition: "classic",
      players: names(4),
      powers: true,
      powerDeal: ["the-kid", "the-cunning", "dragon-skin", "super-coward"],
    });
    expect(pending(s).optional.map((o) => o.seat)).toEqual([0, 1]);
    s = ok(s, { type: "reveal", seat: 0, power: "the-kid" });
    s = ok(s, { type: "reveal", seat: 1, power: "the-cunning" });
    for (const seat of [0, 2, 3]) s = ok(s, { type: "bullet", seat, card: "click" });
    expect(pending(s).owed.map((o) => o.seat)).toEqual([1, 2, 3]);
    expect(pending(s).step).toBe("aim");
    refused(s, { type: "aim", seat: 0, target: 1 }, "wrong-step");
    for (const seat of [1, 2, 3]) s = ok(s, { type: "aim", seat, target: 0 });
    expect(pending(s)).toMatchObject({ step: "kid-aim", owed: [{ seat: 0, decision: "aim" }] });
    // the Kid sees the others' aims
    expect(playerView(s, 0).players[2]!.aim).toBe(0);
    s = ok(s, { type: "aim", seat: 0, target: 2 });
    expect(pending(s)).toMatchObject({ step: "cunning-bullet", owed: [{ seat: 1, decision: "bullet" }] });
  });
});

describe("views keep secrets", () => {
  it("a player sees their own hand and card, never another's, never the deck", () => {
    let s = start({ edition: "classic", players: names(4), seed: 11, powers: true, cop: true });
    s = ok(s, { type: "bullet", seat: 0, card: "bbb" });
    const mine = playerView(s, 0);
    const theirs = playerView(s, 1);
    expect(mine.me.card).toBe("bbb");
    expect(theirs.me.card).toBeNull();
    expect(JSON.stringify({ ...theirs, me: null })).not.toContain("bbb");
    expect(mine.me.power).toBe(s.players[0]!.power);
    for (const v of [mine, theirs, publicView(s)]) {
      expect(Object.keys(v)).not.toContain("deck");
      expect(v.players.every((p) => p.power === null && p.role === null && p.score === undefined)).toBe(true);
      expect(v.deckLeft).toBe(35);
    }
    // the future draw order appears nowhere in any view
    const upcoming = JSON.stringify(s.deck.slice(s.deckPos));
    expect(JSON.stringify(publicView(s))).not.toContain(upcoming.slice(1, -1));
  });

  it("the wounds that kill: 3 for all, the Unbreakable's 4 shown only once its power is revealed", () => {
    const file = new URL("./scenarios/powers-unbreakable-three-wounds.json", import.meta.url);
    const scenario = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    const before = playScenario({ ...scenario, rounds: [] });
    const after = playScenario(scenario);
    if (!before.ok || !after.ok) throw new Error("the scenario plays");
    // Bob (seat 1) holds the Unbreakable: secret at first, revealed by his third wound
    expect(publicView(before.state).players.map((p) => p.deadly)).toEqual([3, 3, 3, 3]);
    expect(publicView(before.state).players[1]!.power).toBeNull();
    const bob = publicView(after.state).players[1]!;
    expect(bob).toMatchObject({ alive: true, wounds: 3, deadly: 4, power: "the-unbreakable" });
    expect(playerView(after.state, 0).players[1]!.deadly).toBe(4);
  });

  it("aims stay hidden until every aim is in; lie-downs until the courage step is over", () => {
    let s = start({ edition: "classic", players: names(4), seed: 2 });
    for (let seat = 0; seat < 4; seat++) s = ok(s, { type: "bullet", seat, card: "click" });
    s = ok(s, { type: "aim", seat: 0, target: 1 });
    expect(publicView(s).players[0]!.aim).toBeUndefined();
    expect(publicView(s).players[0]!.waiting).toBe(false);
    expect(publicView(s).players[1]!.waiting).toBe(true);
    for (let seat = 1; seat < 4; seat++) s = ok(s, { type: "aim", seat, target: 0 });
    expect(publicView(s).players[0]!.aim).toBe(1);
    s = ok(s, { type: "courage", seat: 0, lieDown: true });
    expect(publicView(s).players[0]!.lyingDown).toBeUndefined();
  });
});

describe("random full games reach the end", () => {
  const cases: { edition: "classic" | "second"; n: number; powers?: boolean; cop?: boolean }[] = [];
  for (let n = 4; n <= 6; n++)
    for (const powers of [false, true])
      for (const cop of [false, true]) cases.push({ edition: "classic", n, powers, cop });
  for (let n = 4; n <= 8; n++) cases.push({ edition: "second", n });

  for (const c of cases) {
    it(`${c.edition}, ${c.n} players${c.powers ? ", powers" : ""}${c.cop ? ", cop" : ""}`, () => {
      for (let g = 0; g < 25; g++) {
        const { state } = playRandom(
          { edition: c.edition, players: names(c.n), seed: g, powers: c.powers, cop: c.cop },
          1000 + g,
        );
        expect(state.over).toBe(true);
        expect(state.step).toBe("over");
        expect(state.round).toBeLessThanOrEqual(8);
        const alive = state.players.filter((p) => p.alive).length;
        if (alive > 1) expect(state.round).toBe(8);
        for (const w of state.winners) expect(state.players[w]!.alive).toBe(true);
        if (alive > 0) expect(state.winners.length).toBeGreaterThan(0);
        expect(publicView(state).players.every((p) => typeof p.score === "number")).toBe(true);
      }
    });
  }
});

describe("the cop's phone", () => {
  it("passes among the sharers, starting with the Godfather or the next sharer clockwise", () => {
    let s = start({ edition: "classic", players: names(5), godfather: 1, copSeat: 3, seed: 4 });
    for (let seat = 0; seat < 5; seat++) s = ok(s, { type: "bullet", seat, card: "click" });
    for (let seat = 0; seat < 5; seat++) s = ok(s, { type: "aim", seat, target: null });
    // the Godfather (seat 1) lies down: the phone starts with seat 2
    for (let seat = 0; seat < 5; seat++) s = ok(s, { type: "courage", seat, lieDown: seat === 1 });
    const order: number[] = [];
    while (s.step === "phone") {
      const turn = pending(s).turn!;
      order.push(turn);
      refused(s, { type: "phone", seat: turn === 0 ? 4 : 0, flip: false }, "not-your-turn");
      s = ok(s, { type: "phone", seat: turn, flip: turn === 3 });
    }
    expect(order).toEqual([2, 3, 4, 0]);
    expect(s.switchboard).toBe(1);
  });
});
