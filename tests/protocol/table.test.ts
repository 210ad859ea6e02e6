// The contract for what the hub publishes about a game (shared/protocol/src/table.ts): its vectors
// (shared/protocol/vectors/table.json) against the strict decoders, and what the hub really publishes — random
// games through the rules engine and GameHost, a running hub's retained table/state and a gun's status — decoding to
// itself.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type Decoded,
  decodeGunStatus,
  decodePlayerView,
  decodeTableAim,
  decodeTableEvents,
  decodeTableState,
  type GameEvent,
  type GameNewArgs,
  gunTopic,
  type Payload,
  TABLE_MAX_BYTES,
  tableTopic,
} from "@cng/protocol";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Bus } from "../../hub/src/bus/bus.js";
import { rulesEngine } from "../../hub/src/game/engine.js";
import { GameHost } from "../../hub/src/game/host.js";
import { GameSession } from "../../hub/src/game/session.js";
import type { Logger } from "../../hub/src/log.js";
import { Rng, randomDecision, type SetupOptions } from "../../hub/src/rules/index.js";
import { open as openSealed, viewKey } from "../../hub/src/seal/index.js";
import { openDb } from "../../hub/src/store/db.js";
import { GameLog } from "../../hub/src/store/game-log.js";
import { connect, request, tempDir, testHub, waitFor } from "../fakes/hub.js";

type Kind = keyof typeof TABLE_MAX_BYTES;
interface ValidVector {
  name: string;
  kind: Kind;
  value: Record<string, unknown>;
}
interface InvalidVector {
  kind?: Kind;
  payload?: string;
  base?: string;
  set?: Record<string, unknown>;
  drop?: string;
  code: string;
  field?: string;
}

const file = new URL("../../shared/protocol/vectors/table.json", import.meta.url);
const vectors = JSON.parse(readFileSync(file, "utf8")) as { valid: ValidVector[]; invalid: InvalidVector[] };

const decoders: Record<Kind, (p: Payload) => Decoded<unknown>> = {
  state: decodeTableState,
  view: decodePlayerView,
  events: decodeTableEvents,
  aim: decodeTableAim,
  status: decodeGunStatus,
};

/** A copy of `value` with `path` (dotted, list indexes as numbers) set to `to`, or removed when `to` is undefined. */
function patched(value: unknown, path: string, to?: unknown): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  const keys = path.split(".");
  let at = copy;
  for (const k of keys.slice(0, -1)) at = at[k] as Record<string, unknown>;
  const last = keys[keys.length - 1]!;
  if (to === undefined) delete at[last];
  else at[last] = to;
  return copy;
}

/** An invalid vector's payload and kind. */
function payloadOf(v: InvalidVector): [Kind, string] {
  if (v.payload !== undefined) return [v.kind!, v.payload];
  const base = vectors.valid.find((x) => x.name === v.base);
  if (!base) throw new Error(`no valid vector ${v.base}`);
  let value: unknown = base.value;
  for (const [path, to] of Object.entries(v.set ?? {})) value = patched(value, path, to);
  if (v.drop) value = patched(value, v.drop);
  return [base.kind, JSON.stringify(value)];
}

describe("table vectors", () => {
  it.each(vectors.valid.map((v) => [v.name, v] as const))("%s decodes to itself", (_name, v) => {
    const json = JSON.stringify(v.value);
    expect(decoders[v.kind](json)).toEqual({ ok: true, value: v.value });
    expect(decoders[v.kind](Buffer.from(json))).toEqual({ ok: true, value: v.value });
  });

  it.each(vectors.invalid.map((v) => [v.base ?? v.kind, v.field ?? v.payload, v] as const))(
    "%s: %s is refused",
    (_base, _what, v) => {
      const [kind, payload] = payloadOf(v);
      const d = decoders[kind](payload);
      expect(d.ok).toBe(false);
      if (d.ok) return;
      expect(d.error.code).toBe(v.code);
      if (v.field) expect(d.error.field).toBe(v.field);
      // the message names what is wrong
      if (v.field) expect(d.error.message).toContain(v.field);
      expect(d.error.message.length).toBeGreaterThan(8);
    },
  );

  it("an oversize payload is refused before it is parsed", () => {
    for (const kind of Object.keys(decoders) as Kind[]) {
      const d = decoders[kind](Buffer.alloc(TABLE_MAX_BYTES[kind] + 1, "{"));
      expect(d.ok ? "ok" : d.error.code).toBe("size");
    }
  });

  it("a valid message with any one value replaced by any JSON is classified, never thrown on", () => {
    const paths = (x: unknown, at: string[] = []): string[] =>
      x !== null && typeof x === "object"
        ? Object.entries(x).flatMap(([k, y]) => [[...at, k].join("."), ...paths(y, [...at, k])])
        : [];
    fc.assert(
      fc.property(fc.constantFrom(...vectors.valid), fc.nat(), fc.jsonValue(), (v, pick, junk) => {
        const all = paths(v.value);
        const d = decoders[v.kind](JSON.stringify(patched(v.value, all[pick % all.length]!, junk)));
        expect(typeof d.ok).toBe("boolean");
      }),
      { numRuns: 3000 },
    );
  });

  it("a decoder never throws, whatever it is given", () => {
    const junk: unknown[] = [null, undefined, "", "{", "1", '{"v":1}', '{"v":1,"events":[null]}', { length: 3 }];
    for (const kind of Object.keys(decoders) as Kind[])
      for (const j of junk) expect(decoders[kind](j as Payload).ok).toBe(false);
  });
});

/** A bus that keeps what is published, as the broker would carry it (JSON text). */
function recordingBus(): { bus: Bus; sent: { topic: string; body: string }[] } {
  const sent: { topic: string; body: string }[] = [];
  const bus = {
    publish: async (topic: string, payload: string | object) => {
      sent.push({ topic, body: typeof payload === "string" ? payload : JSON.stringify(payload) });
    },
  } as unknown as Bus;
  return { bus, sent };
}

const quiet = { info() {}, warn() {}, error() {}, debug() {}, child: () => quiet } as unknown as Logger;

describe("what GameHost publishes for real games decodes", () => {
  const t = tempDir("cng-table-contract-");
  afterAll(() => t.remove());

  const games: [string, SetupOptions, number][] = [
    ["classic", { edition: "classic", players: ["Ann", "Bob", "Cid", "Dee"], seed: 1 }, 1],
    [
      "classic, powers and cop",
      { edition: "classic", players: ["A", "B", "C", "D", "E", "F"], seed: 7, powers: true, cop: true },
      2,
    ],
    ["second", { edition: "second", players: ["A", "B", "C", "D", "E", "F", "G", "H"], seed: 3 }, 3],
    [
      "classic, powers",
      { edition: "classic", players: ["Ann", "Bob", "Cid", "Dee", "Eve"], seed: 21, powers: true },
      4,
    ],
  ];
  const seen = new Set<GameEvent["type"]>();

  it.each(games)("%s: every table/state, player view and table/events until the end", async (name, setup, seed) => {
    const db = openDb(join(t.dir, `${name.replace(/\W+/g, "-")}.db`));
    try {
      const { bus, sent } = recordingBus();
      // each seat's view sealed under its console's key, as the hub does
      const keyOf = (seat: number) => viewKey(`token-${seat}`, "main", seat);
      const host = new GameHost(new GameSession(new GameLog(db), rulesEngine), bus, "main", quiet, keyOf);
      expect((await host.start(setup)).ok).toBe(true);
      await host.publishState();
      const rng = new Rng(seed);
      for (let i = 0; i < 5000 && !host.session.game!.state.over; i++) {
        const d = randomDecision(host.session.game!.state, rng);
        expect((await host.decide(d!, "test")).ok).toBe(true);
      }
      expect(host.session.game!.state.over).toBe(true);
      const kinds = new Set<string>();
      for (const m of sent) {
        const levels = m.topic.split("/");
        const leaf = levels.pop()!;
        const kind: Kind = leaf === "view" ? "view" : (leaf as Kind);
        kinds.add(kind);
        const body = kind === "view" ? openSealed(keyOf(Number(levels.pop())), m.body) : m.body;
        if (body === null) throw new Error(`${m.topic}: not sealed under its seat's key`);
        const d = decoders[kind](body);
        if (!d.ok) throw new Error(`${m.topic} ${body.slice(0, 200)}…: ${d.error.message}`);
        expect(d.value).toEqual(JSON.parse(body));
        if (kind === "events") for (const e of (d.value as { events: GameEvent[] }).events) seen.add(e.type);
      }
      expect([...kinds].sort()).toEqual(["events", "state", "view"]);
    } finally {
      db.close();
    }
  });

  it("those games showed most kinds of event", () => {
    expect(seen.size).toBeGreaterThanOrEqual(12);
  });
});

describe("a running hub's table/state decodes", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  beforeAll(async () => {
    hub = await testHub();
  });
  afterAll(() => hub.stop());

  it("before a game, and with a game at its table: the retained message and table.status", async () => {
    const host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    try {
      let last: string | null = null;
      host.on("message", (topic, p) => {
        if (topic === tableTopic(hub.table, "state")) last = p.toString();
      });
      await host.subscribeAsync(tableTopic(hub.table, "state"), { qos: 1 });
      const before = await request(host, hub.table, "table.status");
      expect(decodeTableState(JSON.stringify(before.r))).toMatchObject({ ok: true, value: { id: null, game: null } });
      const setup: GameNewArgs = {
        edition: "second",
        players: ["Ann", "Bob", "Cid", "Dee"],
        seed: 5,
        table: { secrets: "console", timing: "fast", autoRound: false },
      };
      expect((await request(host, hub.table, "game.new", setup, hub.pin)).ok).toBe(true);
      expect((await request(host, hub.table, "pair.listen", { seat: 2 }, hub.pin)).ok).toBe(true);
      const d = await waitFor(() => {
        const x = last === null ? null : decodeTableState(last);
        if (x && !x.ok) throw new Error(x.error.message);
        return x?.ok && x.value.table !== null && x.value.pairing !== null ? x.value : undefined;
      });
      expect(d).toMatchObject({ game: { edition: "second" }, table: { paused: false }, pairing: { seat: 2 } });
      const now = await request(host, hub.table, "table.status");
      expect(decodeTableState(JSON.stringify(now.r)).ok).toBe(true);
    } finally {
      host.end(true);
    }
  });
});

describe("a running hub's gun status decodes", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  beforeAll(async () => {
    hub = await testHub();
  });
  afterAll(() => hub.stop());

  it("a new gun asking to pair, with its info and the hub's warning; forgotten when it goes", async () => {
    const host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    const gun = await connect(hub.urls.mqtt, { clientId: `${hub.table}-g7`, username: "g7", password: "factory" });
    try {
      const seen: string[] = [];
      host.on("message", (topic, p) => {
        if (topic === gunTopic(hub.table, "g7", "status")) seen.push(p.toString());
      });
      await host.subscribeAsync(gunTopic(hub.table, "g7", "status"), { qos: 1 });
      const statuses = () =>
        seen.flatMap((x) => {
          const d = decodeGunStatus(x);
          return d.ok ? [d.value] : [];
        });
      const info = { v: 1, fw: "0.1.0", b: "esp32-mpu6050", i: "mpu6050", up: 1.5, hz: 25 };
      await gun.publishAsync(gunTopic(hub.table, "g7", "info"), JSON.stringify(info), { qos: 1, retain: true });
      const asking = await waitFor(() => statuses().find((x) => x.info), 5000, "the status with the gun's info");
      expect(asking).toMatchObject({ on: true, paired: false, seat: null, info });
      expect(asking.warn?.[0]).toMatch(/not paired/);
      // every status the hub wrote decodes
      for (const x of seen) expect(decodeGunStatus(x)).toMatchObject({ ok: true });
      // a gun that never paired leaves nothing behind: its retained status is cleared
      gun.end(true);
      await waitFor(() => seen.at(-1) === "", 5000, "the status cleared");
      expect(decodeGunStatus("")).toMatchObject({ ok: false, error: { code: "json" } });
    } finally {
      gun.end(true);
      host.end(true);
    }
  });
});
