// Attack: guessing the host PIN (or a seat token, or a gun's key) by logging in again and again, over TCP and
// WebSocket, or through requests' `auth`. One limiter, per source address, checks every secret: a guessing device
// gets a handful of guesses a minute, and the real host on another device logs in at once all along.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, SecretLimiter } from "../../hub/src/access/limiter.js";
import { fakeLog } from "../hardware/fake-log.js";
import { connect, request, testHub } from "../hub/helpers.js";
import { clientFrom, tcpConnect, wsConnect } from "./raw-mqtt.js";

it("lets a source through a handful of guesses a minute, whatever it tries, and leaves other sources alone", () => {
  let now = 0;
  const l = new SecretLimiter({}, () => now);
  let checked = 0;
  // a guesser trying every millisecond for a minute
  for (; now < 60_000; now++) {
    if (l.wait("10.0.0.66") > 0) continue;
    checked++;
    l.failed("10.0.0.66");
  }
  // 5 free, then at +1 s, +2 s, +4 s … each wait doubling up to a minute
  expect(checked).toBeLessThanOrEqual(DEFAULT_LIMITS.free + 6);
  expect(checked).toBeGreaterThanOrEqual(DEFAULT_LIMITS.free + 4);
  expect(l.wait("10.0.0.7")).toBe(0);
  // the next minutes: one a minute
  const before = checked;
  for (; now < 600_000; now++) {
    if (l.wait("10.0.0.66") > 0) continue;
    checked++;
    l.failed("10.0.0.66");
  }
  expect(checked - before).toBeLessThanOrEqual(10);
  // a quiet quarter of an hour forgives it
  now += DEFAULT_LIMITS.forgetMs + 60_000;
  expect(l.wait("10.0.0.66")).toBe(0);
});

describe("guessing against the running hub", () => {
  const said = fakeLog();
  let hub: Awaited<ReturnType<typeof testHub>>;
  beforeAll(async () => {
    hub = await testHub({ log: said.log });
  });
  afterAll(() => hub.stop());

  it("CONNECT guessing over TCP and WebSocket gets a handful through; the host on another address gets in at once", async () => {
    const wrong = (i: number) => String((Number(hub.pin) + 1 + i) % 1_000_000).padStart(6, "0");
    const counts = { tcp: new Map<number, number>(), ws: new Map<number, number>() };
    const hostLogins: number[] = [];
    const t0 = Date.now();
    let n = 0;
    const attack = async (kind: "tcp" | "ws", from: string) => {
      while (Date.now() - t0 < 3000) {
        const batch = Array.from({ length: 10 }, () => {
          const c = { clientId: `g${n}`, username: "host", password: wrong(n++), from };
          return kind === "tcp" ? tcpConnect(hub.ports.mqtt!, c) : wsConnect(hub.urls.ws!, c);
        });
        for (const rc of await Promise.all(batch)) counts[kind].set(rc, (counts[kind].get(rc) ?? 0) + 1);
      }
    };
    const host = async () => {
      while (Date.now() - t0 < 3000) {
        const s = performance.now();
        const c = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
        hostLogins.push(performance.now() - s);
        c.end(true);
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    await Promise.all([attack("tcp", "127.0.0.2"), attack("ws", "127.0.0.3"), host()]);
    for (const kind of ["tcp", "ws"] as const) {
      const checked = counts[kind].get(4) ?? 0;
      const held = counts[kind].get(5) ?? 0;
      console.log(`${kind}: ${checked} guesses checked, ${held} held back in 3 s`);
      // in 3 s: the 5 free ones, then +1 s and +2 s
      expect(checked, kind).toBeGreaterThanOrEqual(DEFAULT_LIMITS.free);
      expect(checked, kind).toBeLessThanOrEqual(DEFAULT_LIMITS.free + 3);
      expect(held, kind).toBeGreaterThan(50);
      expect(counts[kind].get(0) ?? 0, kind).toBe(0);
    }
    // the host logged in all along, quickly
    expect(hostLogins.length).toBeGreaterThan(5);
    console.log(`host logins during the attack: max ${Math.max(...hostLogins).toFixed(1)} ms`);
    expect(Math.max(...hostLogins)).toBeLessThan(1000);
    // even the right PIN from the guessing address waits its turn (right after one more wrong guess)
    const one = { clientId: "late", username: "host", from: "127.0.0.2" };
    expect([4, 5]).toContain(await tcpConnect(hub.ports.mqtt!, { ...one, password: wrong(n++) }));
    expect(await tcpConnect(hub.ports.mqtt!, { ...one, password: hub.pin })).toBe(5);
    // one log line per source and minute, not one per guess
    const lines = said.said.filter((s) => s.fields?.from === "127.0.0.2");
    expect(lines.filter((s) => s.msg.startsWith("refused connection")).length).toBe(1);
    expect(lines.length).toBeLessThanOrEqual(3);
  }, 20_000);

  it("guessing through requests' auth is limited by the same count, per address", async () => {
    const guesser = await connect(hub.urls.mqtt, { clientId: "guesser1" });
    const codes: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await request(guesser, hub.table, "guns.list", undefined, `00000${i}`);
      codes.push(r.ok ? "ok" : r.e!.code);
    }
    expect(codes.filter((c) => c === "auth").length).toBeLessThanOrEqual(DEFAULT_LIMITS.free + 1);
    expect(codes.filter((c) => c === "locked").length).toBeGreaterThan(4);
    // the right PIN from there waits too; from the host's own device it works at once
    expect((await request(guesser, hub.table, "guns.list", undefined, hub.pin)).e?.code).toBe("locked");
    const host = await clientFrom("127.0.0.4", hub.ports.mqtt!, { clientId: "host4" });
    expect(await request(host, hub.table, "guns.list", undefined, hub.pin)).toMatchObject({ ok: true });
    host.end(true);
    guesser.end(true);
  });
});
