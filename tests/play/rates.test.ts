// Aim rates: only changes are sent, a lost command is sent again, and a rate given by hand stands until the
// table's activity changes it.
import { describe, expect, it } from "vitest";
import type { GunService } from "../../hub/src/guns/service.js";
import { AimRates, FAST_HZ, SLOW_HZ } from "../../hub/src/play/rates.js";
import { ManualClock } from "../../hub/src/table/clock.js";

function rig(fast: Set<number> = new Set()) {
  const clock = new ManualClock(0);
  const sent: { gun: string; hz: number }[] = [];
  const told = new Map<string, number>();
  const gun = { id: "g1", paired: true, on: true, seat: 1, info: undefined as { hz: number } | undefined };
  const guns = {
    registry: { all: () => [gun] },
    toldRate: (id: string) => told.get(id),
    command: async (id: string, body: { c: string; hz: number }) => {
      told.set(id, body.hz);
      sent.push({ gun: id, hz: body.hz });
    },
  } as unknown as GunService;
  // what the table asks for now: the hub looks again by itself when a gun is due an answer
  const want = { fast };
  const rates: AimRates = new AimRates(guns, clock, () => rates.update(want.fast));
  return { rates, sent, gun, guns, want, tick: (ms: number) => clock.advance(ms) };
}

describe("aim rates", () => {
  it("sends a gun its rate once, and again only when the activity changes it", () => {
    const r = rig();
    r.rates.update(new Set());
    r.rates.update(new Set());
    r.rates.update(new Set([1]));
    r.rates.update(new Set([1]));
    expect(r.sent.map((s) => s.hz)).toEqual([SLOW_HZ, FAST_HZ]);
  });

  it("tells a gun again when, well after, it still says another rate (the command was lost)", () => {
    const r = rig(new Set([1]));
    r.rates.update(new Set([1]));
    r.gun.info = { hz: SLOW_HZ };
    r.tick(500);
    r.rates.update(new Set([1]));
    expect(r.sent).toHaveLength(1);
    r.tick(1500);
    r.rates.update(new Set([1]));
    expect(r.sent.map((s) => s.hz)).toEqual([FAST_HZ, FAST_HZ]);
  });

  it("tells it again with nothing else happening at the table, until the gun says the rate", () => {
    // the command went out before the gun's subscription reached the broker; its info still says the old rate
    const r = rig(new Set([1]));
    r.gun.info = { hz: 25 };
    r.rates.update(new Set([1]));
    r.tick(1499);
    expect(r.sent).toHaveLength(1);
    r.tick(1);
    expect(r.sent.map((s) => s.hz)).toEqual([FAST_HZ, FAST_HZ]);
    r.gun.info = { hz: FAST_HZ };
    r.tick(10_000);
    expect(r.sent).toHaveLength(2);
  });

  it("a gun that never answers is told a few times, not for ever", () => {
    const r = rig(new Set([1]));
    r.rates.update(new Set([1]));
    r.tick(60_000);
    expect(r.sent.map((s) => s.hz)).toEqual([FAST_HZ, FAST_HZ, FAST_HZ, FAST_HZ, FAST_HZ]);
  });

  it("leaves a rate given by hand until the table's activity changes the rate", async () => {
    const r = rig();
    r.rates.update(new Set());
    await r.guns.command("g1", { c: "rate", hz: 10 } as never);
    r.gun.info = { hz: 10 };
    r.tick(5000);
    r.rates.update(new Set());
    expect(r.sent.map((s) => s.hz)).toEqual([SLOW_HZ, 10]);
    r.rates.update(new Set([1]));
    expect(r.sent.map((s) => s.hz)).toEqual([SLOW_HZ, 10, FAST_HZ]);
  });

  it("tells a gun that has not answered a rate given by hand that rate again, not its own", async () => {
    // both commands went out before the gun's subscription reached the broker: its info still says its default
    const r = rig();
    r.gun.info = { hz: 25 };
    r.rates.update(new Set());
    await r.guns.command("g1", { c: "rate", hz: FAST_HZ } as never);
    r.tick(1500);
    expect(r.sent.map((s) => s.hz)).toEqual([SLOW_HZ, FAST_HZ, FAST_HZ]);
    r.gun.info = { hz: FAST_HZ };
    r.tick(10_000);
    expect(r.sent).toHaveLength(3);
  });

  it("tells a gun back online again: it starts at its own default", () => {
    const r = rig();
    r.rates.update(new Set());
    r.rates.forget("g1");
    r.rates.update(new Set());
    expect(r.sent.map((s) => s.hz)).toEqual([SLOW_HZ, SLOW_HZ]);
  });
});
