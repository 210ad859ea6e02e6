// The typed command channel: one op for each of the protocol's map, each decoding its arguments strictly before
// anything happens; a hostile decision or setup from the network gets a coded error naming the field and changes
// nothing; the responses keep the wire shape of hub/src/commands/README.md, whose op tables name every op.
import { readFileSync } from "node:fs";
import type { Decision } from "@cng/protocol";
import { describe, expect, it } from "vitest";
import { OPS } from "../../hub/src/commands/registry.js";
import { decodeArgs } from "../../hub/src/commands/types.js";
import { hubWithHost, request, requestRaw } from "../fakes/hub.js";

const README = readFileSync(new URL("../../hub/src/commands/README.md", import.meta.url), "utf8");

describe("the op registry", () => {
  it("has one op for each name, under that name, and the README's op tables name exactly those", () => {
    for (const [name, op] of Object.entries(OPS)) expect(op.name).toBe(name);
    const documented = new Set([...README.matchAll(/^\| `([a-z]+\.[a-z]+)` +\|/gm)].map((m) => m[1]));
    expect([...documented].sort()).toEqual(Object.keys(OPS).sort());
  });

  it("refuses an argument an op does not have, before it runs", () => {
    for (const [name, op] of Object.entries(OPS)) {
      const r = decodeArgs(op, { zzz: 1 });
      // game.new's arguments are a game's setup: an unknown field is a setup the engine cannot take
      expect(r, name).toMatchObject({ ok: false, error: { code: name === "game.new" ? "bad-options" : "bad-args" } });
    }
  });

  it("decodes each op's arguments into its own types", () => {
    expect(decodeArgs(OPS["secret.bullet"], { card: "bang" })).toEqual({
      ok: true,
      value: { card: "bang", gun: undefined, seat: null },
    });
    expect(decodeArgs(OPS["power.reveal"], { power: "the-kid", seat: 2 })).toEqual({
      ok: true,
      value: { power: "the-kid", seat: 2 },
    });
    expect(decodeArgs(OPS["power.reveal"], { power: "the-godfather" })).toMatchObject({ ok: false });
    expect(decodeArgs(OPS["calibrate.start"], { poses: 2 })).toEqual({
      ok: true,
      value: { seat: null, poses: 2, layout: null },
    });
    expect(decodeArgs(OPS["game.decide"], { decision: { type: "aim", seat: 1, target: null } })).toEqual({
      ok: true,
      value: { decision: { type: "aim", seat: 1, target: null } },
    });
    expect(decodeArgs(OPS["host.decide"], { decision: { type: "phone", seat: 1, flip: "yes" } })).toEqual({
      ok: false,
      error: { code: "bad-decision", message: "decision.flip must be true or false" },
    });
    expect(decodeArgs(OPS["gun.battery"], { gun: "g1", full: true })).toEqual({
      ok: true,
      value: { gun: "g1", full: true },
    });
    expect(decodeArgs(OPS["gun.battery"], { gun: "g1", full: false, volts: 4 })).toMatchObject({ ok: false });
  });
});

describe("hostile requests over MQTT", () => {
  const on = hubWithHost();
  const ask = (op: string, a: unknown) => requestRaw(on.host, on.hub.table, op, a, on.hub.pin);
  const state = async () => (await request(on.host, on.hub.table, "game.state", undefined, on.hub.pin)).r;
  const PLAYERS = ["A", "B", "C", "D"];

  it("a setup that does not decode starts nothing: bad-options, naming the field", async () => {
    const refused: [Record<string, unknown>, { code: string; msg?: string }][] = [
      [
        { edition: "classic", players: PLAYERS, seed: "7" },
        { code: "bad-options", msg: "setup.seed must be a number" },
      ],
      [{ edition: "classic", players: PLAYERS, rules: "mine" }, { code: "bad-options" }],
      [{ edition: "classic", players: PLAYERS, table: { timing: "slow" } }, { code: "bad-args" }],
    ];
    for (const [setup, e] of refused) expect(await ask("game.new", setup)).toMatchObject({ ok: false, e });
    expect(await state()).toEqual({ game: null });
    expect((await ask("game.list", {})).r).toEqual({ games: [] });
  });

  it("a decision that does not decode changes nothing: bad-decision, naming the field; the response keeps its shape", async () => {
    expect((await ask("game.new", { edition: "classic", players: PLAYERS, seed: 2 })).ok).toBe(true);
    const before = await state();
    const hostile: [unknown, string][] = [
      [{ type: "bullet", seat: 0 }, "decision.card is missing"],
      [{ type: "bullet", seat: 0, card: "bang", extra: true }, "decision.extra is no field it may have"],
      [{ type: "bullet", seat: "0", card: "bang" }, "decision.seat must be a number"],
      [{ type: "bullet", seat: 0, card: "knife" }, "decision.card must be one of bbb, bang, click"],
      [{ type: "nuke", seat: 0 }, `decision.type must be one of`],
      [{ type: "constructor", seat: 0 }, `decision.type must be one of`],
      [
        JSON.parse('{"type":"aim","seat":0,"target":null,"__proto__":{"x":1}}'),
        "decision.__proto__ is no field it may have",
      ],
    ];
    for (const [decision, msg] of hostile) {
      const r = await ask("game.decide", { decision });
      expect(Object.keys(r).sort(), JSON.stringify(decision)).toEqual(["e", "id", "ok", "v"]);
      expect(r.ok).toBe(false);
      expect(r.e!.code).toBe("bad-decision");
      expect(r.e!.msg).toContain(msg);
    }
    // not an object at all: the arguments are wrong
    for (const decision of [null, "aim", [1], 3]) {
      expect(await ask("game.decide", { decision })).toMatchObject({
        ok: false,
        e: { code: "bad-args" },
      });
    }
    expect(await state()).toEqual(before);
    // a well-formed one goes through, and the answer keeps the README's shape
    const good: Decision = { type: "bullet", seat: 0, card: "click" };
    const r = await request(on.host, on.hub.table, "game.decide", { decision: good }, on.hub.pin);
    expect(Object.keys(r).sort()).toEqual(["id", "ok", "r", "v"]);
    expect(r.ok && r.r).toEqual({ game: 1, decisions: 1, events: [] });
  });

  it("every op answers a request with an argument it has not, with bad-args or bad-options, and nothing changes", async () => {
    const before = await request(on.host, on.hub.table, "table.status");
    for (const op of Object.keys(OPS)) {
      const r = await ask(op, { zzz: 1 });
      expect(r, op).toMatchObject({ ok: false, e: { code: op === "game.new" ? "bad-options" : "bad-args" } });
    }
    const after = await request(on.host, on.hub.table, "table.status");
    expect(after.r).toEqual(before.r);
  });
});
