// The same hub against Debian's mosquitto, configured with the ACL file `cng acl` generates.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { gunTopic } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hubUserFor, mosquittoAcl } from "../../hub/src/broker/mosquitto-acl.js";
import { brokerUp, connect, nextMessage, request, sleep, tempDir, testHub } from "../fakes/hub.js";

const MOSQUITTO = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"].find((p) => existsSync(p));
const PASSWD = "/usr/bin/mosquitto_passwd";
if (!MOSQUITTO) console.warn("SKIPPED external-broker tests: no mosquitto binary (apt-get install mosquitto)");

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

describe.skipIf(!MOSQUITTO || !existsSync(PASSWD))("external mosquitto broker", () => {
  const t = tempDir("cng-mosq-");
  const table = "ext1";
  const hubUser = hubUserFor(table);
  let mosq: ChildProcess;
  let url: string;
  let hub: Awaited<ReturnType<typeof testHub>>;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    const port = await freePort();
    url = `mqtt://127.0.0.1:${port}`;
    // Run as root, mosquitto drops to its own user: it must be able to read the folder.
    chmodSync(t.dir, 0o755);
    const passwd = join(t.dir, "passwd");
    execFileSync(PASSWD, ["-c", "-b", passwd, hubUser, "hub-secret"]);
    execFileSync(PASSWD, ["-b", passwd, "eg1", "gun-one"]);
    execFileSync(PASSWD, ["-b", passwd, "eg2", "gun-two"]);
    chmodSync(passwd, 0o644);
    writeFileSync(join(t.dir, "acl"), mosquittoAcl({ table, hubUser }));
    writeFileSync(
      join(t.dir, "mosquitto.conf"),
      [
        `listener ${port} 127.0.0.1`,
        "allow_anonymous true",
        `password_file ${passwd}`,
        `acl_file ${join(t.dir, "acl")}`,
        "persistence false",
        "log_dest stderr",
        "log_type error",
        "",
      ].join("\n"),
    );
    mosq = spawn(MOSQUITTO!, ["-c", join(t.dir, "mosquitto.conf")], { stdio: "ignore" });
    await brokerUp(url);
    hub = await testHub({
      broker: url,
      brokerUser: hubUser,
      brokerPassword: "hub-secret",
      table,
      data: join(t.dir, "data"),
    });
  });
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await hub?.close();
    mosq?.kill("SIGTERM");
    t.remove();
  });

  it("reports no embedded ports and talks through the external broker", () => {
    expect(hub.mode).toBe("external");
    expect(hub.ports.mqtt).toBeNull();
    expect(hub.urls.mqtt).toBe(url);
  });

  it("a gun's info makes a pairing request; accepting keeps its flashed secret (no key); its will marks it offline; it comes back with that secret", async () => {
    const viewer = await connect(url);
    clients.push(viewer);
    const flashed = {
      username: "eg1",
      password: "gun-one",
      clientId: "eg1",
      will: {
        topic: gunTopic(table, "eg1", "will"),
        payload: Buffer.from('{"v":1,"on":0}'),
        qos: 1 as const,
        retain: false,
      },
    };
    const gun = await connect(url, flashed);
    const cmds: unknown[] = [];
    gun.on("message", (_t, p) => cmds.push(JSON.parse(p.toString())));
    await gun.subscribeAsync(gunTopic(table, "eg1", "cmd"), { qos: 1 });
    const req = nextMessage(viewer, gunTopic(table, "eg1", "status"), (m) => m.paired === false && m.on);
    await sleep(50);
    await gun.publishAsync(
      gunTopic(table, "eg1", "info"),
      JSON.stringify({ v: 1, fw: "1", b: "sim", i: "sim", up: 1 }),
      {
        qos: 1,
      },
    );
    expect(await req).toMatchObject({ why: "connect", info: { fw: "1" } });

    // The viewer cannot accept without the PIN; with it (in the request) it can.
    expect(await request(viewer, table, "pair.accept", { gun: "eg1" })).toMatchObject({
      ok: false,
      e: { code: "forbidden" },
    });
    const paired = nextMessage(viewer, gunTopic(table, "eg1", "status"), (m) => m.paired === true);
    expect(await request(viewer, table, "pair.accept", { gun: "eg1", seat: 0 }, hub.pin)).toMatchObject({ ok: true });
    expect(await paired).toMatchObject({ on: true, seat: 0 });
    // mosquitto cannot learn a key from the hub: a key here would lock the gun out on its next connect
    await sleep(300);
    expect(cmds.filter((m) => (m as { c?: string }).c === "key")).toEqual([]);

    const off = nextMessage(viewer, gunTopic(table, "eg1", "status"), (m) => m.on === false);
    (gun as any).stream.destroy(); // vanish without DISCONNECT: the broker sends the will
    expect(await off).toMatchObject({ why: "will", paired: true, seat: 0 });

    // back with the secret it was flashed with: the broker lets it in, the hub sees it at its seat
    const back = nextMessage(viewer, gunTopic(table, "eg1", "status"), (m) => m.on === true);
    const again = await connect(url, flashed);
    clients.push(again);
    await again.publishAsync(
      gunTopic(table, "eg1", "info"),
      JSON.stringify({ v: 1, fw: "1", b: "sim", i: "sim", up: 2 }),
      {
        qos: 1,
      },
    );
    expect(await back).toMatchObject({ paired: true, seat: 0 });
  });

  it("the ACL keeps a gun to its own topics", async () => {
    const watcher = await connect(url);
    clients.push(watcher);
    const seen: string[] = [];
    watcher.on("message", (topic) => seen.push(topic));
    await watcher.subscribeAsync(gunTopic(table, "eg1", "info"));
    const g2 = await connect(url, { username: "eg2", password: "gun-two", clientId: "eg2" });
    clients.push(g2);
    await g2.publishAsync(
      gunTopic(table, "eg1", "info"),
      JSON.stringify({ v: 1, fw: "evil", b: "x", i: "sim", up: 1 }),
      {
        qos: 1,
      },
    );
    await sleep(200);
    expect(seen).toEqual([]);
    const list = (await request(watcher, table, "guns.list")).r as any;
    expect(list.guns.find((g: any) => g.id === "eg1")?.info?.fw).not.toBe("evil");
  });

  it("a client id that is a topic pattern reads no one's requests (mosquitto's %c is literal too)", async () => {
    const seen: string[] = [];
    for (const clientId of ["#", "+"]) {
      let snoop: MqttClient;
      try {
        snoop = await connect(url, { clientId });
      } catch {
        continue; // refused at the door: fine too
      }
      clients.push(snoop);
      snoop.on("message", (topic, p) => seen.push(`${topic} ${p}`));
      await snoop.subscribeAsync(`cng/v1/${table}/cmd/#`).catch(() => {});
    }
    // the host's console: a plain client whose requests carry the PIN
    const host = await connect(url);
    clients.push(host);
    expect(await request(host, table, "guns.list", undefined, hub.pin)).toMatchObject({ ok: true });
    await sleep(300);
    expect(seen).toEqual([]);
  });
});
