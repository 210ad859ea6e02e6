// @real-time: the PIN's guessing budget, counted on the wall clock
// Attack: guessing the host PIN by logging in again and again, over TCP and WebSocket, or through requests' `auth`,
// from one address or from thousands (any free address of a home network; 127.0.x.y here, each a device to the hub).
// Wrong secrets count per source and for the whole hub: however many addresses the guesser takes, the PIN is checked
// no more often than the hub's budget allows. The real host logs in all along with its device's token, from any
// address (the guesser's too), and a seat's console with its seat token; a revoked device no longer gets in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, HUB_LIMITS, SecretLimiter, sourceOf } from "../../hub/src/access/limiter.js";
import { authenticate, type CredentialCheck } from "../../hub/src/broker/authenticate.js";
import { connect, request, requestRaw, sleep, testHub } from "../fakes/hub.js";
import { clientFrom, tcpConnect, wsConnect } from "../fakes/raw-mqtt.js";

/** The most PIN checks a guesser trying without pause gets in `ms` under `o` (the doubling waits after the free ones). */
function mostChecks(o: { free: number; baseMs: number; maxMs: number }, ms: number): number {
  let n = o.free;
  for (let t = 0, over = 0; ; over++) {
    t += Math.min(o.maxMs, o.baseMs * 2 ** over);
    if (t > ms) return n;
    n++;
  }
}

/** A guesser at `sources` addresses, trying once a millisecond in turn for `ms`: how many of its guesses were checked. */
function guessFrom(l: SecretLimiter, clock: { now: number }, sources: (i: number) => string, ms: number): number {
  let checked = 0;
  for (let i = 0, end = clock.now + ms; clock.now < end; clock.now++, i++) {
    const from = sources(i);
    if (l.wait(from) > 0) continue;
    checked++;
    l.failed(from);
  }
  return checked;
}

describe("the limiter", () => {
  it("lets one source through a handful of guesses a minute", () => {
    const clock = { now: 0 };
    const l = new SecretLimiter({}, () => clock.now);
    const first = guessFrom(l, clock, () => "10.0.0.66", 60_000);
    // 5 free, then at +1 s, +2 s, +4 s … each wait doubling up to a minute
    expect(first).toBe(mostChecks(DEFAULT_LIMITS, 60_000));
    // the next nine minutes: one a minute
    expect(guessFrom(l, clock, () => "10.0.0.66", 540_000)).toBeLessThanOrEqual(10);
    // a quiet quarter of an hour forgives it
    clock.now += DEFAULT_LIMITS.forgetMs + 60_000;
    expect(l.wait("10.0.0.66")).toBe(0);
  });

  for (const sources of [300, 20_000]) {
    it(`gives ${sources} rotating sources together no more checks than the hub's budget`, () => {
      const clock = { now: 0 };
      const l = new SecretLimiter({}, () => clock.now);
      const addr = (i: number) => `10.${(i % sources) >> 16}.${((i % sources) >> 8) & 255}.${i % 256}`;
      const minute = guessFrom(l, clock, addr, 60_000);
      expect(minute).toBeLessThanOrEqual(mostChecks(HUB_LIMITS, 60_000));
      const tenMinutes = minute + guessFrom(l, clock, addr, 540_000);
      expect(tenMinutes).toBeLessThanOrEqual(mostChecks(HUB_LIMITS, 600_000));
      // the same as a single source gets at the hub's pace: the count does not grow with the addresses
      expect(mostChecks(HUB_LIMITS, 600_000)).toBeLessThan(40);
      // and a new source waits too: the hub's wait is everyone's
      expect(l.wait("192.168.1.200")).toBeGreaterThan(0);
      expect(l.waitOf("192.168.1.200").scope).toBe("hub");
    });
  }

  it("does not forget the hub's count when more sources come than it remembers", () => {
    const clock = { now: 0 };
    const l = new SecretLimiter({}, () => clock.now);
    for (let i = 0; i < 15_000; i++) {
      clock.now += 1;
      if (l.wait(`10.1.${i >> 8}.${i & 255}`) === 0) l.failed(`10.1.${i >> 8}.${i & 255}`);
    }
    // past maxSources the oldest sources are forgotten, but the hub's own wait stands
    expect(l.wait("10.1.0.0")).toBeGreaterThan(0);
    expect(l.wait("10.9.9.9")).toBeGreaterThan(0);
  });

  it("counts IPv6 addresses by their /64, IPv4 in IPv6 as IPv4", () => {
    expect(sourceOf("2001:db8:1:2:aaaa::1", "x")).toBe(sourceOf("2001:db8:1:2:bbbb:cccc:dddd:eeee", "x"));
    expect(sourceOf("2001:db8:1:2::1", "x")).toBe("2001:db8:1:2::/64");
    expect(sourceOf("2001:0db8:0001:0002::1", "x")).toBe("2001:db8:1:2::/64");
    expect(sourceOf("2001:db8:1:3::1", "x")).not.toBe(sourceOf("2001:db8:1:2::1", "x"));
    expect(sourceOf("fe80::1%eth0", "x")).toBe("fe80:0:0:0::/64");
    expect(sourceOf("::1", "x")).toBe("0:0:0:0::/64");
    expect(sourceOf("::ffff:10.0.0.5", "x")).toBe("10.0.0.5");
    expect(sourceOf(undefined, "client:a")).toBe("client:a");
  });

  it("checks the secrets the hub made at any time, and only the PIN waits", () => {
    const c: CredentialCheck = {
      hubSecret: "h".repeat(32),
      hostPin: () => "123456",
      hostDevice: (t) => (t === "hd.token" ? "dev1" : null),
      isPaired: (g) => g === "g1",
      checkGun: (g, s) => g === "g1" && s === "gunkey",
      seatOfToken: (t) => (t === "seattoken" ? 2 : null),
      mayRequestPairing: () => true,
      hostDeviceKey: () => null,
      seatToken: () => null,
      now: () => 0,
      freshNonce: () => true,
      checkGunProof: () => false,
    };
    const wait = { ms: 30_000, scope: "hub" as const };
    expect(authenticate(c, "host", "hd.token", wait)).toEqual({
      ok: true,
      principal: { role: "host", device: "dev1" },
    });
    expect(authenticate(c, "seat-2", "seattoken", wait)).toMatchObject({ ok: true });
    expect(authenticate(c, "g1", "gunkey", wait)).toMatchObject({ ok: true });
    // the right PIN waits its turn: a wait that let it through would tell the guesser it was right
    expect(authenticate(c, "host", "123456", wait)).toMatchObject({ ok: false, waited: true });
    expect(authenticate(c, "host", "123456")).toMatchObject({ ok: true, principal: { role: "host" } });
    expect(authenticate(c, "seat-2", "nope", wait)).toMatchObject({ ok: false, guess: true });
  });
});

describe("guessing against the running hub", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  /** the host's device: it logged in with the PIN once, before the attack */
  let token = "";
  let deviceId = "";
  let seatToken = "";
  /** when the guessing began, and the guesses checked since: the hub's budget covers every test after it */
  let attackFrom = 0;
  let checkedSoFar = 0;
  beforeAll(async () => {
    hub = await testHub();
    const host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    const r = await request(host, hub.table, "devices.enrol", { name: "the host's laptop" }, hub.pin);
    expect(r.ok).toBe(true);
    ({ token } = r.r as { token: string });
    deviceId = (r.r as { device: { id: string } }).device.id;
    seatToken = ((await request(host, hub.table, "seat.token", { seat: 1 }, hub.pin)).r as { token: string }).token;
    host.end(true);
  });
  afterAll(() => hub.stop());

  it("guessing from 300 rotating addresses over TCP and WebSocket gets no more than the hub's budget; the host gets in all along", async () => {
    const wrong = (i: number) => String((Number(hub.pin) + 1 + i) % 1_000_000).padStart(6, "0");
    const codes = new Map<number, number>();
    const hostLogins: number[] = [];
    const seatLogins: number[] = [];
    const t0 = Date.now();
    attackFrom = t0;
    const ATTACK_MS = 4000;
    let n = 0;
    const addr = (i: number) => `127.0.${1 + ((i % 300) >> 8)}.${1 + ((i % 300) % 250)}`;
    const attack = async (kind: "tcp" | "ws") => {
      while (Date.now() - t0 < ATTACK_MS) {
        const batch = Array.from({ length: 20 }, () => {
          const i = n++;
          const c = { clientId: `g${i}`, username: "host", password: wrong(i), from: addr(i) };
          return kind === "tcp" ? tcpConnect(hub.ports.mqtt!, c) : wsConnect(hub.urls.ws!, c);
        });
        for (const rc of await Promise.all(batch)) codes.set(rc, (codes.get(rc) ?? 0) + 1);
      }
    };
    // the host, from a new address each time, among them the guesser's own
    const host = async () => {
      for (let i = 0; Date.now() - t0 < ATTACK_MS; i++) {
        const s = performance.now();
        const rc = await tcpConnect(hub.ports.mqtt!, {
          clientId: `host${i}`,
          username: "host",
          password: token,
          from: i % 2 ? addr(i * 7) : `127.0.9.${1 + i}`,
        });
        hostLogins.push(rc === 0 ? performance.now() - s : Number.POSITIVE_INFINITY);
        const ss = performance.now();
        const sc = await wsConnect(hub.urls.ws!, {
          clientId: `seat${i}`,
          username: "seat-1",
          password: seatToken,
          from: addr(i * 13),
        });
        seatLogins.push(sc === 0 ? performance.now() - ss : Number.POSITIVE_INFINITY);
        await sleep(200);
      }
    };
    await Promise.all([attack("tcp"), attack("ws"), host()]);
    const took = Date.now() - t0;
    const checked = codes.get(4) ?? 0;
    const held = codes.get(5) ?? 0;
    checkedSoFar = checked;
    console.log(`${n} guesses from 300 addresses in ${took} ms: ${checked} checked, ${held} held back`);
    expect(codes.get(0) ?? 0).toBe(0);
    expect(checked).toBeGreaterThanOrEqual(HUB_LIMITS.free);
    expect(checked).toBeLessThanOrEqual(mostChecks(HUB_LIMITS, took));
    // most guesses held back (how many 4 s allow depends on the machine's load)
    expect(held).toBeGreaterThan(n / 2);
    // the host and a seat's console logged in every time (one refused counts as never), and without waiting on the
    // guesser's budget (its waits are 3 s and up): a busy 2-core machine answers within a second or two
    expect(hostLogins.length).toBeGreaterThanOrEqual(3);
    console.log(`host logins during the attack: max ${Math.max(...hostLogins).toFixed(1)} ms`);
    expect(Math.max(...hostLogins)).toBeLessThan(3000);
    expect(Math.max(...seatLogins)).toBeLessThan(3000);
    // the right PIN, from an address that never guessed, waits like the rest: the budget is the hub's. Just after a
    // wrong guess (checked, it starts a new wait; held, the wait is still on), however long the checks above took
    await tcpConnect(hub.ports.mqtt!, { clientId: "last", username: "host", password: wrong(n), from: addr(n) });
    expect(
      await tcpConnect(hub.ports.mqtt!, { clientId: "pin", username: "host", password: hub.pin, from: "127.0.8.8" }),
    ).toBe(5);
    // requests' auth: the PIN waits, the device's token and the seat token go through
    const c = await clientFrom("127.0.8.9", hub.ports.mqtt!, { clientId: "req1" });
    expect((await request(c, hub.table, "guns.list", undefined, hub.pin)).e?.code).toBe("locked");
    expect(await request(c, hub.table, "devices.list", undefined, token)).toMatchObject({ ok: true });
    expect(["locked", "auth"]).not.toContain((await request(c, hub.table, "game.state", undefined, seatToken)).e?.code);
    c.end(true);
  }, 30_000);

  it("more than 10,000 addresses do not reset the count", async () => {
    let checked = 0;
    const t0 = Date.now();
    const ADDRESSES = 10_500;
    for (let i = 0; i < ADDRESSES; i += 150) {
      const batch = Array.from({ length: Math.min(150, ADDRESSES - i) }, (_, k) => {
        const a = i + k;
        return tcpConnect(hub.ports.mqtt!, {
          clientId: `r${a}`,
          username: "host",
          password: "999999",
          from: `127.${10 + (a >> 16)}.${(a >> 8) & 255}.${1 + ((a & 255) % 254)}`,
        });
      });
      for (const rc of await Promise.all(batch)) if (rc === 4) checked++;
    }
    const took = Date.now() - t0;
    console.log(`${ADDRESSES} addresses, one guess each, in ${took} ms: ${checked} checked`);
    // the hub's budget was spent by the attack before: nothing beyond its doubling waits, since the first guess
    checkedSoFar += checked;
    expect(checkedSoFar).toBeLessThanOrEqual(mostChecks(HUB_LIMITS, Date.now() - attackFrom));
    expect(
      await tcpConnect(hub.ports.mqtt!, { clientId: "pin2", username: "host", password: hub.pin, from: "127.0.7.7" }),
    ).toBe(5);
    // and the host still gets in with its token
    expect(
      await tcpConnect(hub.ports.mqtt!, { clientId: "host-x", username: "host", password: token, from: "127.0.7.7" }),
    ).toBe(0);
  }, 120_000);

  it("a revoked device is closed at once and no longer gets in", async () => {
    const other = await connect(hub.urls.mqtt, { username: "host", password: token });
    const r = await request(other, hub.table, "devices.enrol", { name: "a phone" }, token);
    const phone = r.r as { token: string; device: { id: string } };
    const live = await clientFrom("127.0.6.6", hub.ports.mqtt!, {
      clientId: "phone",
      username: "host",
      password: phone.token,
    });
    const list = await request(other, hub.table, "devices.list", undefined, token);
    const names = (list.r as { devices: { name: string; self: boolean }[] }).devices;
    expect(names).toEqual([
      expect.objectContaining({ name: "the host's laptop", self: true }),
      expect.objectContaining({ name: "a phone", self: false }),
    ]);
    const closed = new Promise<void>((res) => live.once("close", () => res()));
    expect(await request(other, hub.table, "devices.revoke", { id: phone.device.id }, token)).toMatchObject({
      ok: true,
    });
    await closed;
    expect(
      await tcpConnect(hub.ports.mqtt!, {
        clientId: "phone2",
        username: "host",
        password: phone.token,
        from: "127.0.6.6",
      }),
    ).toBe(5);
    // from the laptop itself, which the hub-wide budget never holds back: the revoked token is simply wrong
    expect((await request(other, hub.table, "guns.list", undefined, phone.token)).e?.code).toBe("auth");
    // bad input changes nothing
    expect((await request(other, hub.table, "devices.revoke", { id: "no such" }, token)).e?.code).toBe("bad-args");
    expect((await request(other, hub.table, "devices.revoke", { id: "nosuch" }, token)).e?.code).toBe("unknown-device");
    expect((await requestRaw(other, hub.table, "devices.enrol", { name: 5 }, token)).e?.code).toBe("bad-args");
    expect((await request(other, hub.table, "devices.list", undefined, token)).r).toMatchObject({
      devices: [{ id: deviceId }],
    });
    live.end(true);
    other.end(true);
  });
});
