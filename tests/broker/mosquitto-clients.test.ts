// Debian's mosquitto_pub / mosquitto_sub against the embedded broker: other clients, same rules.
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { gunTopic } from "@cng/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, nextMessage, request, sleep, testHub } from "../fakes/hub.js";

const run = promisify(execFile);
const PUB = "/usr/bin/mosquitto_pub";
const SUB = "/usr/bin/mosquitto_sub";
const present = existsSync(PUB) && existsSync(SUB);
if (!present)
  console.warn("SKIPPED mosquitto client tests: no mosquitto_pub/mosquitto_sub (apt-get install mosquitto-clients)");

describe.skipIf(!present)("mosquitto command-line clients on the embedded broker", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  beforeAll(async () => {
    hub = await testHub();
  });
  afterAll(() => hub.stop());

  it("a gun made of mosquitto_pub asks to pair; the host sees it; a wrong host PIN is refused", async () => {
    const host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    const st = nextMessage(host, gunTopic(hub.table, "cli1", "status"), (m) => m.info?.fw === "cli");
    await sleep(50);
    const port = String(hub.ports.mqtt);
    // -l: one message per stdin line, staying connected like a gun does
    const gun = spawn(PUB, [
      ...["-h", "127.0.0.1", "-p", port, "-u", "cli1", "-P", "x", "-i", "cli1", "-q", "1"],
      ...["-t", gunTopic(hub.table, "cli1", "info"), "-l"],
    ]);
    gun.stdin.write('{"v":1,"fw":"cli","b":"pc","i":"sim","up":1}\n');
    expect(await st).toMatchObject({ paired: false, on: true });
    const refused = await run(SUB, [
      "-h",
      "127.0.0.1",
      "-p",
      port,
      "-u",
      "host",
      "-P",
      "wrong",
      "-t",
      "#",
      "-C",
      "1",
      "-W",
      "2",
    ]).then(
      () => null,
      (e) => e,
    );
    expect(refused?.stderr ?? "").toMatch(/not authori[sz]ed|bad user name or password|Connection Refused/i);
    // and a viewer made of mosquitto_sub reads the retained status
    const { stdout } = await run(SUB, [
      ...["-h", "127.0.0.1", "-p", port, "-t", gunTopic(hub.table, "+", "status"), "-C", "1", "-W", "3"],
    ]);
    expect(JSON.parse(stdout)).toMatchObject({ v: 1, paired: false });
    expect((await request(host, hub.table, "guns.list")).ok).toBe(true);
    host.end(true);
    gun.kill();
  });
});
