// The calibration wizard over real MQTT: guns aim at the seats the hub names and pull; the hub learns each gun's
// yaw offset, keeps it (retained gun/<id>/cal, across a restart) and asks for a redo when the poses disagree.
import { gunTopic, tableTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import { roundTable } from "../../hub/src/aim/index.js";
import { TestGun } from "../fakes/gun.js";
import { connect, nextMessage, request, testHub } from "../fakes/hub.js";
import { DrivenTime } from "../fakes/time.js";

interface CalView {
  seat: number;
  gun: string;
  targets: number[];
  next: number | null;
  poses: number;
  result: { verdict: "ok" | "redo"; offset: number; spread: number; reasons: string[] } | null;
}

const diff = (a: number, b: number) => Math.abs(((((a - b + 180) % 360) + 360) % 360) - 180);

describe("calibration wizard", () => {
  const stops: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const s of stops.splice(0).reverse()) await s();
  });

  /** A hub with guns at their seats, on time the test drives (`follow` moves it). */
  async function table(offsets: number[]) {
    const time = new DrivenTime();
    const hub = await testHub({ clock: time.clock });
    stops.push(() => hub.stop());
    const host: MqttClient = time.watch(await connect(hub.urls.mqtt, { username: "host", password: hub.pin }));
    stops.push(() => void host.end(true));
    const layout = roundTable(offsets.length);
    const guns: TestGun[] = [];
    for (const [seat, off] of offsets.entries()) {
      const g = await TestGun.pair(hub.urls.mqtt, hub.table, host, hub.pin, `c${seat}`, seat, layout, time);
      g.rawOffset = off;
      guns.push(g);
      stops.push(() => g.close());
    }
    let cal: CalView[] = [];
    host.on("message", (t, p) => {
      if (t === tableTopic(hub.table, "state") && p.length > 0) cal = JSON.parse(p.toString()).calibration ?? [];
    });
    await host.subscribeAsync(tableTopic(hub.table, "state"), { qos: 1 });
    return { hub, host, guns, time, view: () => cal };
  }

  /** Each gun does what the wizard asks: aim at the named seat, hold still a moment, pull. */
  async function follow(t: Awaited<ReturnType<typeof table>>, onPose?: (g: TestGun, pose: number) => void) {
    const pulledAt = new Map<string, number>();
    const pulled = new Set<string>();
    const now = () => t.time.now();
    // after each step of hub time: done, or each gun does what it is asked next
    const step = () => {
      const open = t.view().filter((v) => v.next !== null);
      if (t.view().length > 0 && open.length === 0) return true;
      for (const v of open) {
        const g = t.guns[v.seat]!;
        const key = `${v.seat}:${v.poses}:${v.next}:${v.result?.verdict ?? ""}`;
        if (g.pose.kind !== "aim" || g.pose.target !== v.next) g.pose = { kind: "aim", target: v.next! };
        if (!pulledAt.has(key)) {
          pulledAt.set(key, now());
          onPose?.(g, v.poses);
        } else if (now() - pulledAt.get(key)! > 400 && !pulled.has(key)) {
          // once per pose, after holding still; the hub answers with the next pose, a redo, or "again"
          pulled.add(key);
          g.pull();
        } else if (now() - pulledAt.get(key)! > 2500 && pulled.has(key)) {
          // nothing changed after the pull (a reading with no steady samples): aim and pull again
          pulledAt.set(key, now());
          pulled.delete(key);
        }
      }
      return false;
    };
    await t.time
      .until(step, 15_000, "the calibration")
      .catch((e: Error) => Promise.reject(new Error(`${e.message}: ${JSON.stringify(t.view())}`)));
  }

  it("finds each gun's yaw offset from two poses and keeps it", async () => {
    const offsets = [17, -40, 5, 120];
    const t = await table(offsets);
    const started = await request(t.host, t.hub.table, "calibrate.start", { poses: 2 }, t.hub.pin);
    expect(started).toMatchObject({ ok: true });
    const cals = offsets.map((_, s) => nextMessage(t.host, gunTopic(t.hub.table, `c${s}`, "cal")));
    await follow(t);

    for (const [seat, off] of offsets.entries()) {
      const v = t.view().find((x) => x.seat === seat)!;
      expect(v.result).toMatchObject({ verdict: "ok" });
      expect(diff(v.result!.offset, off)).toBeLessThan(1);
      expect(v.result!.spread).toBeLessThan(1);
      // two poses at seats ≥ 60° apart, never the gun's own seat
      expect(v.targets).toHaveLength(2);
      expect(v.targets).not.toContain(seat);
      const c = await cals[seat]!;
      expect(c).toMatchObject({ v: 1, seat });
      expect(diff(c.off, off)).toBeLessThan(1);
      // the gun was shown where to aim, and told when it was done
      expect(t.guns[seat]!.cues.map((q) => q.c)).toEqual(expect.arrayContaining(["turn", "lock"]));
    }
    // the offsets are kept in the data folder: a restarted hub still has them
    for (const g of t.guns) g.close();
    const dir = t.hub.dataDir;
    await t.hub.close();
    const again = await testHub({ data: dir });
    stops.push(() => again.close());
    const viewer = await connect(again.urls.mqtt);
    stops.push(() => void viewer.end(true));
    const kept = await nextMessage(viewer, gunTopic(again.table, "c3", "cal"));
    expect(diff(kept.off, 120)).toBeLessThan(1);
  });

  it("asks for a redo when the poses disagree by more than 5°, then takes the good ones", async () => {
    const t = await table([30, -10, 60, 0]);
    expect(await request(t.host, t.hub.table, "calibrate.start", { seat: 1, poses: 2 }, t.hub.pin)).toMatchObject({
      ok: true,
    });
    let fumbled = false;
    await follow(t, (g, pose) => {
      // the first time through, the player's second pose is 12° off: a bumped gun, a sloppy aim
      if (g.seat === 1 && pose === 1 && !fumbled) {
        fumbled = true;
        g.rawOffset -= 12;
        t.time.after(600, () => {
          g.rawOffset += 12;
        });
      }
    });
    const v = t.view().find((x) => x.seat === 1)!;
    expect(fumbled).toBe(true);
    expect(t.guns[1]!.cues.map((q) => q.c)).toContain("ambig");
    expect(v.result).toMatchObject({ verdict: "ok" });
    expect(diff(v.result!.offset, -10)).toBeLessThan(1);
    // only the seat that was asked took part
    expect(t.view().map((x) => x.seat)).toEqual([1]);
  });
});
