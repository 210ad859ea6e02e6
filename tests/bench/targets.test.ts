// The bench targets, without timing: through the hub and through the bare broker, a gun's aim samples
// reach the consumer (counted) and a trigger press comes back as an `ident` cue.
import { encAim, encTrig, gunTopic } from "@cng/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { openTarget, TABLE, type Target } from "../../hub/src/bench/load/targets.js";
import { connectMqtt, type MqttClient } from "../../hub/src/bus/connect.js";
import { sleep } from "../fakes/hub.js";

describe("bench targets (embedded aedes)", () => {
  let target: Target | undefined;
  let gun: MqttClient | undefined;
  afterEach(async () => {
    gun?.end(true);
    await target?.close();
  });

  for (const mode of ["raw", "hub"] as const) {
    it(`${mode}: aim is counted at the consumer; a trigger press is answered with a cue`, async () => {
      target = await openTarget("aedes", mode, 2, performance.timeOrigin + performance.now());
      const login = target.guns[1]!;
      gun = await connectMqtt(target.url, { ...login, clientId: login.id, reconnectPeriod: 0 });
      const cue = new Promise<Record<string, unknown>>((resolve) =>
        gun!.on("message", (_t, p) => resolve(JSON.parse(p.toString()))),
      );
      await gun.subscribeAsync(gunTopic(TABLE, login.id, "cue"), { qos: 1 });
      for (let i = 0; i < 5; i++) gun.publish(gunTopic(TABLE, login.id, "aim"), encAim(1000 + i, 10, 5, 0, false));
      await gun.publishAsync(gunTopic(TABLE, login.id, "trig"), encTrig(1, "p", 2000, -1), { qos: 1 });
      expect(await cue).toMatchObject({ v: 1, c: "ident" });
      for (let i = 0; i < 100 && target.sink.count < 5; i++) await sleep(10);
      expect(target.sink.count).toBe(5);
    });
  }
});
