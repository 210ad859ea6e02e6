// @real-time: simulated hands and guns in real time
// Virtual guns running the real firmware pair with a real hub through the host, and stream their aim.
import { gunTopic } from "@cng/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { Fleet } from "../../hub/src/sim/fleet.js";
import { sleep, testHub } from "../fakes/hub.js";

describe("a fleet of virtual guns", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  let fleet: Fleet | undefined;
  afterAll(async () => {
    await fleet?.stop();
    await hub?.stop();
  });

  it("pairs every gun at its seat through the host, and each streams what its hand does", async () => {
    hub = await testHub();
    fleet = await Fleet.start({ url: hub.urls.mqtt, table: hub.table, pin: hub.pin, guns: 3, seed: 3 });
    const { guns } = await fleet.host.request("guns.list");
    expect(guns.filter((g) => g.paired && g.on).map((g) => [g.id, g.seat])).toEqual([
      ["sim0", 0],
      ["sim1", 1],
      ["sim2", 2],
    ]);
    // raise gun 1 to point level: its pitch shows in its stream (yaw is the gun's own, uncalibrated)
    const g = fleet.guns[1]!;
    g.hand.aim(g.bearings[0]!, Date.now());
    const samples: { p: number }[] = [];
    await fleet.host.subscribe(gunTopic(hub.table, g.id, "aim"), (m) => samples.push(m as { p: number }));
    await sleep(Math.max(0, g.hand.settledAtHub() - Date.now()) + 600);
    expect(samples.length).toBeGreaterThan(3);
    expect(Math.abs(samples.at(-1)!.p - -5)).toBeLessThan(15);
    for (const x of fleet.guns) expect(x.gun.errors).toEqual([]);
  });
});
