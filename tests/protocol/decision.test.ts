// A player's decision off the network or the log (shared/protocol/src/decision.ts): every decision the rules engine's
// bots make decodes to itself; anything else — not an object, an unknown kind, a field missing, extra, or of the
// wrong type or range — is refused with a coded error that names the field, and nothing is ever thrown.
import {
  BULLETS,
  DECISION_TYPES,
  type Decision,
  decodeDecision,
  decodeGameSetup,
  HOST_CHOICES,
  type HostChoice,
  hostDecision,
  LOOT_CARDS,
  MAX_SEATS,
  POWERS,
} from "@cng/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apply, newGame, Rng, randomDecision, type State } from "../../hub/src/rules/index.js";

/** One well-formed decision of each kind. */
const ONE_OF_EACH: { [K in Decision["type"]]: Extract<Decision, { type: K }> } = {
  reveal: { type: "reveal", seat: 0, power: "the-kid" },
  bullet: { type: "bullet", seat: 1, card: "bang", gun: 2 },
  aim: { type: "aim", seat: 2, target: null },
  privilege: { type: "privilege", seat: 3, order: 1 },
  courage: { type: "courage", seat: 4, lieDown: true },
  "doesnt-hurt": { type: "doesnt-hurt", seat: 5, use: false },
  phone: { type: "phone", seat: 6, flip: true },
  specialist: { type: "specialist", seat: 7, discard: null, use: false },
  "take-gun": { type: "take-gun", seat: 0, from: 3 },
  pick: { type: "pick", seat: 1, card: "clip", discard: "click" },
};

/** The fields each kind must have besides `type` and `seat`. */
const REQUIRED: { [K in Decision["type"]]: string[] } = {
  reveal: ["power"],
  bullet: ["card"],
  aim: ["target"],
  privilege: ["order"],
  courage: ["lieDown"],
  "doesnt-hurt": ["use"],
  phone: ["flip"],
  specialist: ["discard"],
  "take-gun": ["from"],
  pick: ["card"],
};

const refusal = (x: unknown) => {
  const d = decodeDecision(x);
  if (d.ok) throw new Error(`decoded: ${JSON.stringify(x)}`);
  return { code: d.error.code, field: d.error.field };
};

describe("decodeDecision", () => {
  it("takes one decision of each kind as it is, optional fields left out or given", () => {
    expect(Object.keys(ONE_OF_EACH).sort()).toEqual([...DECISION_TYPES].sort());
    for (const d of Object.values(ONE_OF_EACH)) expect(decodeDecision(d)).toEqual({ ok: true, value: d });
    expect(decodeDecision({ type: "bullet", seat: 0, card: "bbb" }).ok).toBe(true);
    expect(decodeDecision({ type: "specialist", seat: 0, discard: "bang" }).ok).toBe(true);
    expect(decodeDecision({ type: "pick", seat: 0, card: "godfather" }).ok).toBe(true);
    for (const card of LOOT_CARDS) expect(decodeDecision({ type: "pick", seat: 0, card }).ok).toBe(true);
    for (const power of POWERS) expect(decodeDecision({ type: "reveal", seat: 0, power }).ok).toBe(true);
  });

  it("takes every decision the rules engine's bots make, in random games of both editions", () => {
    let decisions = 0;
    for (const [edition, powers] of [
      ["classic", true],
      ["classic", false],
      ["second", false],
    ] as const) {
      for (let seed = 1; seed <= 20; seed++) {
        const made = newGame({ edition, players: ["a", "b", "c", "d", "e"], seed, powers, cop: powers });
        if (!made.ok) throw new Error(made.error.message);
        let s: State = made.state;
        const rng = new Rng(seed);
        while (!s.over) {
          const d = randomDecision(s, rng)!;
          // through JSON, as the network and the log carry it
          expect(decodeDecision(JSON.parse(JSON.stringify(d)))).toEqual({ ok: true, value: d });
          const r = apply(s, d);
          if (!r.ok) throw new Error(r.error.message);
          s = r.state;
          decisions++;
        }
      }
    }
    expect(decisions).toBeGreaterThan(5000);
  });

  it("refuses what is not an object", () => {
    for (const x of [null, undefined, 0, "aim", true, [], [{ type: "aim", seat: 0, target: null }]])
      expect(refusal(x)).toEqual({ code: "type", field: "decision" });
  });

  it("refuses an unknown or missing kind, inherited names included", () => {
    expect(refusal({ seat: 0 })).toEqual({ code: "field", field: "decision.type" });
    for (const type of ["nuke", "AIM", "", "constructor", "toString", "__proto__", "hasOwnProperty"])
      expect(refusal({ type, seat: 0 })).toEqual({ code: "range", field: "decision.type" });
    for (const type of [1, null, true, ["aim"], { aim: 1 }])
      expect(refusal({ type, seat: 0 })).toEqual({ code: "type", field: "decision.type" });
  });

  it("refuses each kind without its seat or a field it needs, or with a field it has not", () => {
    for (const [type, d] of Object.entries(ONE_OF_EACH)) {
      const { seat: _, ...noSeat } = d;
      expect(refusal(noSeat), type).toEqual({ code: "field", field: "decision.seat" });
      for (const f of REQUIRED[type as Decision["type"]]) {
        const without: Record<string, unknown> = { ...d };
        delete without[f];
        expect(refusal(without), `${type} without ${f}`).toEqual({ code: "field", field: `decision.${f}` });
      }
      expect(refusal({ ...d, extra: 1 }), type).toEqual({ code: "field", field: "decision.extra" });
      // a field of another kind is no field of this one
      const other = type === "aim" ? { lieDown: true } : { target: 1 };
      expect(refusal({ ...d, ...other }), type).toMatchObject({ code: "field" });
    }
    // an own `__proto__` key, as JSON.parse makes it
    expect(refusal(JSON.parse('{"type":"aim","seat":0,"target":null,"__proto__":{"admin":true}}'))).toEqual({
      code: "field",
      field: "decision.__proto__",
    });
  });

  it("refuses fields of the wrong type or out of range, naming them", () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...ONE_OF_EACH.aim, seat: "1" }, "type", "seat"],
      [{ ...ONE_OF_EACH.aim, seat: 1.5 }, "type", "seat"],
      [{ ...ONE_OF_EACH.aim, seat: -1 }, "range", "seat"],
      [{ ...ONE_OF_EACH.aim, seat: MAX_SEATS }, "range", "seat"],
      [{ ...ONE_OF_EACH.aim, seat: Number.NaN }, "type", "seat"],
      [{ ...ONE_OF_EACH.aim, seat: null }, "type", "seat"],
      [{ ...ONE_OF_EACH.aim, target: "Bob" }, "type", "target"],
      [{ ...ONE_OF_EACH.aim, target: 99 }, "range", "target"],
      [{ ...ONE_OF_EACH.aim, gun: 1 }, "range", "gun"],
      [{ ...ONE_OF_EACH.aim, gun: "2" }, "type", "gun"],
      [{ ...ONE_OF_EACH.bullet, card: "BANG" }, "range", "card"],
      [{ ...ONE_OF_EACH.bullet, card: 1 }, "type", "card"],
      [{ ...ONE_OF_EACH.reveal, power: "the-godfather" }, "range", "power"],
      [{ ...ONE_OF_EACH.privilege, order: [1] }, "type", "order"],
      [{ ...ONE_OF_EACH.courage, lieDown: "yes" }, "type", "lieDown"],
      [{ ...ONE_OF_EACH.courage, lieDown: 1 }, "type", "lieDown"],
      [{ ...ONE_OF_EACH["doesnt-hurt"], use: null }, "type", "use"],
      [{ ...ONE_OF_EACH.phone, flip: "true" }, "type", "flip"],
      [{ ...ONE_OF_EACH.specialist, discard: "knife" }, "range", "discard"],
      [{ ...ONE_OF_EACH.specialist, use: 0 }, "type", "use"],
      [{ ...ONE_OF_EACH["take-gun"], from: "3" }, "type", "from"],
      [{ ...ONE_OF_EACH.pick, card: "cash:1" }, "range", "card"],
      [{ ...ONE_OF_EACH.pick, discard: null }, "type", "discard"],
    ];
    for (const [d, code, field] of cases)
      expect(refusal(d), JSON.stringify(d)).toEqual({ code, field: `decision.${field}` });
    // the error says what is wrong in words too
    expect(decodeDecision({ type: "bullet", seat: 0, card: "x" })).toEqual({
      ok: false,
      error: { code: "range", field: "decision.card", message: `decision.card must be one of ${BULLETS.join(", ")}` },
    });
    expect(decodeDecision({ type: "courage", seat: 0, lieDown: 1 }, "a.decision")).toMatchObject({
      ok: false,
      error: { field: "a.decision.lieDown" },
    });
  });

  it("never throws, and what it lets through the engine judges without throwing", () => {
    const made = newGame({ edition: "classic", players: ["a", "b", "c", "d"], seed: 1, powers: true });
    if (!made.ok) throw new Error(made.error.message);
    const field = fc.oneof(
      fc.constantFrom(...DECISION_TYPES, ...POWERS, ...BULLETS, ...LOOT_CARDS, "godfather", null, true, false, 2),
      fc.integer({ min: -2, max: 9 }),
      fc.jsonValue(),
    );
    const hostile = fc.oneof(
      fc.record(
        {
          type: fc.oneof(fc.constantFrom(...DECISION_TYPES), fc.jsonValue()),
          seat: fc.oneof(fc.integer({ min: -1, max: 9 }), fc.jsonValue()),
          target: field,
          card: field,
          power: field,
          order: field,
          lieDown: field,
          use: field,
          flip: field,
          discard: field,
          from: field,
          gun: field,
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(hostile, (x) => {
        const d = decodeDecision(x);
        if (!d.ok) return ["type", "range", "field"].includes(d.error.code) && typeof d.error.field === "string";
        apply(made.state, d.value);
        return true;
      }),
      { numRuns: 20_000, seed: 29 },
    );
  });
});

describe("the host's choices", () => {
  it("send decisions the decoder takes, one per button, and cover what the host is asked for without a form", () => {
    const sent: Decision[] = [];
    for (const type of DECISION_TYPES) {
      for (const c of (HOST_CHOICES[type] ?? []) as HostChoice<typeof type>[]) {
        const d = hostDecision(type, 2, c, c.each === "dead" ? 5 : 2);
        expect(decodeDecision(d), JSON.stringify(d)).toEqual({ ok: true, value: d });
        sent.push(d);
      }
    }
    expect(new Set(sent.map((d) => d.type))).toEqual(new Set(["doesnt-hurt", "specialist", "take-gun", "phone"]));
    // every button differs from the others: no two send the same decision
    expect(new Set(sent.map((d) => JSON.stringify(d))).size).toBe(sent.length);
    expect(sent).toContainEqual({ type: "take-gun", seat: 2, from: 5 });
    expect(sent).toContainEqual({ type: "specialist", seat: 2, discard: null, use: false });
  });
});

describe("decodeGameSetup", () => {
  it("takes the setups of every scenario shape and refuses unknown fields and wrong types, naming them", () => {
    expect(decodeGameSetup({ edition: "classic", players: ["A", "B", "C", "D"] }).ok).toBe(true);
    const full = {
      edition: "classic",
      players: ["A", "B", "C", "D"],
      godfather: 2,
      seed: -7,
      deck: [5000, 20000],
      powers: true,
      cop: true,
      powerDeal: [null, "the-kid", null, null],
      copSeat: 1,
    };
    expect(decodeGameSetup(full)).toEqual({ ok: true, value: full });
    expect(decodeGameSetup({ edition: "second", players: ["A"], deck: ["painting", "clip"] }).ok).toBe(true);
    const no = (x: unknown) => {
      const d = decodeGameSetup(x);
      return d.ok ? null : { code: d.error.code, field: d.error.field };
    };
    expect(no({ players: ["A"] })).toEqual({ code: "field", field: "setup.edition" });
    expect(no({ edition: "third", players: ["A"] })).toEqual({ code: "range", field: "setup.edition" });
    expect(no({ edition: "classic", players: "A,B" })).toEqual({ code: "type", field: "setup.players" });
    expect(no({ edition: "classic", players: ["A", ""] })).toEqual({ code: "range", field: "setup.players[1]" });
    expect(no({ edition: "classic", players: ["A"], seed: "7" })).toEqual({ code: "type", field: "setup.seed" });
    expect(no({ edition: "classic", players: ["A"], powers: "yes" })).toEqual({ code: "type", field: "setup.powers" });
    expect(no({ edition: "classic", players: ["A"], deck: [4000] })).toEqual({ code: "range", field: "setup.deck[0]" });
    expect(no({ edition: "classic", players: ["A"], powerDeal: ["x"] })).toEqual({
      code: "range",
      field: "setup.powerDeal[0]",
    });
    expect(no({ edition: "classic", players: ["A"], table: {} })).toEqual({ code: "field", field: "setup.table" });
  });
});
