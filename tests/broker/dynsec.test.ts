// Hubs that provision their guns on Debian's mosquitto through its dynamic-security plugin (`cng broker init`,
// `cng hub --broker … --dynsec`): pairing, keys, forgetting, topic rights between tables, attackers, and two
// simulated tables playing at once on one broker.
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { gunTopic, tableTopic } from "@cng/protocol";
import type { IClientOptions, MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDemo } from "../../hub/src/bench/demo-game.js";
import { admitGun } from "../../hub/src/broker/dynsec-admin.js";
import { CONF_FILE, DYNSEC_FILE, findPlugin, pluginCandidates } from "../../hub/src/broker/dynsec-init.js";
import { initBroker } from "../../hub/src/cli/commands/broker.js";
import { startVenue } from "../../hub/src/venue/server.js";
import {
  brokerUp,
  closed,
  connect,
  connectRefused,
  granted,
  nextMessage,
  request,
  sleep,
  tempDir,
  testHub,
  waitFor,
} from "../fakes/hub.js";
import { DrivenTime } from "../fakes/time.js";

const MOSQUITTO = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"].find((p) => existsSync(p));
const PLUGIN = findPlugin();
const CAN = !!MOSQUITTO && !!PLUGIN;
if (!CAN) {
  const why = !MOSQUITTO ? "no mosquitto binary" : `no dynamic-security plugin (looked in ${pluginCandidates()[0]}, …)`;
  if (process.env.CI) throw new Error(`dynsec tests cannot run in CI: ${why} (apt-get install mosquitto)`);
  console.warn(`SKIPPED dynamic-security tests: ${why} (apt-get install mosquitto)`);
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

const INFO = JSON.stringify({ v: 1, fw: "1", b: "sim", i: "sim", up: 1 });

describe("cng broker init", () => {
  it("refuses a folder with files unless --force, and says where it looked for the plugin", () => {
    const t = tempDir("cng-dsinit-");
    try {
      const quiet = () => {};
      const base = { dir: t.dir, table: [], port: 1883, admin: "cng-admin", force: false };
      expect(() => initBroker({ ...base, candidates: ["/nowhere/a.so", "/nowhere/b.so"] }, quiet)).toThrow(
        /not found; looked in:\n {2}\/nowhere\/a\.so\n {2}\/nowhere\/b\.so\nInstall mosquitto 2\.x \(Debian\/Ubuntu: apt-get install mosquitto/,
      );
      expect(() => initBroker({ ...base, plugin: "/nowhere/x.so" }, quiet)).toThrow(/no such file/);
      writeFileSync(join(t.dir, "keep"), "x");
      expect(() => initBroker({ ...base, plugin: process.execPath }, quiet)).toThrow(/not empty.*--force/);
      const lines: string[] = [];
      const r = initBroker({ ...base, plugin: process.execPath, force: true, table: ["t1"] }, (l) => lines.push(l));
      expect(lines.join("\n")).toContain(`cng-admin / ${r.password}`);
      const conf = readFileSync(join(t.dir, CONF_FILE), "utf8");
      expect(conf).toContain(`plugin ${process.execPath}`);
      expect(conf).toContain(`plugin_opt_config_file ${join(t.dir, DYNSEC_FILE)}`);
      const js = readFileSync(join(t.dir, DYNSEC_FILE), "utf8");
      expect(js).not.toContain(r.password); // only its hash
      expect(JSON.parse(js).roles.map((x: { rolename: string }) => x.rolename)).toEqual([
        "cng-admin",
        "cng-venue",
        "cng-t1-viewer",
      ]);
    } finally {
      t.remove();
    }
  });
});

describe.skipIf(!CAN)("hubs provisioning guns on mosquitto's dynamic-security plugin", () => {
  const t = tempDir("cng-dynsec-");
  let mosq: ChildProcess;
  let url: string;
  let admin: { username: string; password: string };
  let hubA: Awaited<ReturnType<typeof testHub>>;
  let hubB: Awaited<ReturnType<typeof testHub>>;
  const clients: MqttClient[] = [];
  const login = (table: string) => ({ url, ...admin, table });
  const track = (c: MqttClient) => {
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    const port = await freePort();
    url = `mqtt://127.0.0.1:${port}`;
    chmodSync(t.dir, 0o755); // run as root, mosquitto drops to its own user
    const dir = join(t.dir, "broker");
    mkdirSync(dir);
    const r = initBroker(
      { dir, table: [], port, bind: "127.0.0.1", admin: "cng-admin", force: false, plugin: PLUGIN! },
      () => {},
    );
    admin = { username: "cng-admin", password: r.password };
    appendFileSync(join(dir, CONF_FILE), "persistence false\nlog_dest stderr\nlog_type error\n");
    mosq = spawn(MOSQUITTO!, ["-c", join(dir, CONF_FILE)], { stdio: ["ignore", "ignore", "inherit"] });
    await brokerUp(url);
    const hubOpts = (table: string) => ({
      broker: url,
      brokerUser: admin.username,
      brokerPassword: admin.password,
      dynsec: true,
      table,
      data: join(t.dir, `data-${table}`),
    });
    hubA = await testHub(hubOpts("da"));
    hubB = await testHub(hubOpts("db"));
  });
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await hubA?.close();
    await hubB?.close();
    mosq?.kill("SIGTERM");
    t.remove();
  });

  /** A gun like the firmware: username = id, client id `<table>-<id>`, a will; on `key` it drops and comes back. */
  function gunOpts(table: string, id: string, password: string): IClientOptions {
    return {
      username: id,
      password,
      clientId: `${table}-${id}`,
      will: { topic: gunTopic(table, id, "will"), payload: Buffer.from('{"v":1,"on":0}'), qos: 1, retain: false },
    };
  }
  async function gunOnline(table: string, id: string, password: string): Promise<{ gun: MqttClient; cmds: any[] }> {
    const gun = track(await connect(url, gunOpts(table, id, password)));
    const cmds: any[] = [];
    gun.on("message", (topic, p) => {
      if (!topic.endsWith("/cmd")) return;
      const m = JSON.parse(p.toString());
      cmds.push(m);
      // as the firmware: the key replaces its secret, it drops at once (the broker sends its will), back in a second
      if (m.c === "key") (gun as any).stream.destroy();
    });
    expect(await granted(gun, gunTopic(table, id, "cmd"))).not.toBe(128);
    await gun.publishAsync(gunTopic(table, id, "info"), INFO, { qos: 1 });
    return { gun, cmds };
  }
  /** The host's console: on a dynsec broker it logs in with the plugin admin's login (docs/external-broker.md). */
  const host = async () => track(await connect(url, { ...admin }));

  /** Lets the gun in, it asks, the host accepts: returns the key it got. */
  async function pair(table: string, hub: typeof hubA, id: string, secret: string, seat: number): Promise<string> {
    await admitGun(login(table), [{ gun: id, secret }]);
    const h = await host();
    const asking = nextMessage(h, gunTopic(table, id, "status"), (m) => m.paired === false && m.on);
    const { gun, cmds } = await gunOnline(table, id, secret);
    await asking;
    const off = nextMessage(h, gunTopic(table, id, "status"), (m) => m.on === false);
    const res = await request(h, table, "pair.accept", { gun: id, seat }, hub.pin);
    expect(res, JSON.stringify(res)).toMatchObject({ ok: true });
    const key = (await waitFor(() => cmds.find((m) => m.c === "key"))).k as string;
    expect(key.length).toBeGreaterThanOrEqual(16);
    expect(gun.connected).toBe(false);
    await off;
    const back = nextMessage(h, gunTopic(table, id, "status"), (m) => m.paired === true && m.on === true);
    // the firmware retries with a backoff until the broker takes the key
    let again: MqttClient | undefined;
    for (let i = 0; !again; i++) {
      await sleep(200);
      again = await connect(url, gunOpts(table, id, key)).catch((e) => {
        if (i > 10) throw e;
        return undefined;
      });
    }
    track(again);
    await again.publishAsync(gunTopic(table, id, "info"), INFO, { qos: 1 });
    expect(await back).toMatchObject({ seat });
    again.end(true);
    return key;
  }

  it("pair: the gun gets its key and comes back with it; its flashed secret and wrong ones are refused", async () => {
    const key = await pair("da", hubA, "dg1", "flashed-dg1", 0);
    await connectRefused(url, gunOpts("da", "dg1", "flashed-dg1"));
    await connectRefused(url, gunOpts("da", "dg1", `${key}x`));
    const ok = track(await connect(url, gunOpts("da", "dg1", key)));
    // a paired gun has a paired gun's rights: aim goes through
    const h = await host();
    const seen = nextMessage(h, gunTopic("da", "dg1", "aim"), () => true, 2000);
    await sleep(100);
    await ok.publishAsync(gunTopic("da", "dg1", "aim"), JSON.stringify({ v: 1, t: 1, y: 1, p: 0, r: 0 }));
    expect(await seen).toBeTruthy();
    ok.end(true);
  });

  it("an unknown gun without a login is refused; a pending gun may only say who it is", async () => {
    await connectRefused(url, gunOpts("da", "nobody1", "anything"));
    await admitGun(login("da"), [{ gun: "dp1", secret: "flashed-dp1" }]);
    const g = track(await connect(url, gunOpts("da", "dp1", "flashed-dp1")));
    expect(await granted(g, gunTopic("da", "dp1", "cal"))).toBe(128);
    const h = await host();
    const seen: string[] = [];
    h.on("message", (topic) => seen.push(topic));
    await h.subscribeAsync(gunTopic("da", "dp1", "aim"));
    await g.publishAsync(gunTopic("da", "dp1", "aim"), JSON.stringify({ v: 1, t: 1, y: 1, p: 0, r: 0 }));
    await sleep(300);
    expect(seen).toEqual([]);
  });

  it("forget: the gun is disconnected and refused; re-pairing gives a new key", async () => {
    const key = await pair("da", hubA, "dg2", "flashed-dg2", 1);
    const gun = track(await connect(url, gunOpts("da", "dg2", key)));
    const h = await host();
    const gone = closed(gun, 3000);
    expect(await request(h, "da", "gun.forget", { gun: "dg2" }, hubA.pin)).toMatchObject({ ok: true });
    await gone;
    await connectRefused(url, gunOpts("da", "dg2", key));
    // let in again with the secret it holds now (the old key), paired again: a new key
    const key2 = await pair("da", hubA, "dg2", key, 2);
    expect(key2).not.toBe(key);
    await connectRefused(url, gunOpts("da", "dg2", key));
  });

  it("a gun of table A can neither publish nor read in table B; nor publish as another gun", async () => {
    const keyA = await pair("da", hubA, "dg3", "flashed-dg3", 3);
    await pair("db", hubB, "dh1", "flashed-dh1", 0);
    const g = track(await connect(url, gunOpts("da", "dg3", keyA)));
    expect(await granted(g, "cng/v1/db/#")).toBe(128);
    expect(await granted(g, gunTopic("db", "dh1", "cmd"))).toBe(128);
    expect(await granted(g, gunTopic("da", "dg1", "cmd"))).toBe(128);
    expect(await granted(g, tableTopic("db", "state"))).toBe(128);
    const h = await host();
    const seen: string[] = [];
    h.on("message", (topic) => seen.push(topic));
    await h.subscribeAsync(["cng/v1/db/#", "cng/v1/da/gun/dg1/#"]);
    await sleep(100);
    seen.length = 0;
    const trig = JSON.stringify({ v: 1, n: 1, t: 1, e: "p" });
    await g.publishAsync(gunTopic("db", "dh1", "trig"), trig, { qos: 1 });
    await g.publishAsync(gunTopic("db", "dg3", "info"), INFO, { qos: 1 });
    await g.publishAsync(gunTopic("da", "dg1", "trig"), trig, { qos: 1 });
    await g.publishAsync(gunTopic("da", "dg1", "info"), INFO, { qos: 1 });
    await g.publishAsync(tableTopic("db", "state"), "{}", { qos: 1, retain: true });
    await sleep(300);
    const mine = [gunTopic("db", "dh1", "trig"), gunTopic("db", "dg3", "info"), gunTopic("da", "dg1", "trig")];
    expect(seen.filter((x) => mine.includes(x) || x === gunTopic("da", "dg1", "info"))).toEqual([]);
    // the retained table state of B is still the hub's
    expect(await nextMessage(await host(), tableTopic("db", "state"))).toHaveProperty("v", 1);
  });

  it("a gun id of another table is not taken over", async () => {
    await expect(admitGun(login("db"), [{ gun: "dg1", secret: "mine-now" }])).rejects.toThrow(/taken/);
    await connectRefused(url, gunOpts("db", "dg1", "mine-now"));
  });

  it("viewers (anonymous) read the public topics and cannot publish", async () => {
    const v = track(await connect(url));
    const state = nextMessage(v, tableTopic("da", "state"), () => true, 3000);
    expect(await state).toBeTruthy();
    expect(await granted(v, "cng/v1/da/player/0/view")).toBe(128);
    expect(await granted(v, "cng/v1/da/cmd/+/res")).toBe(128);
    const h = await host();
    const seen: string[] = [];
    h.on("message", (topic) => seen.push(topic));
    await h.subscribeAsync(["cng/v1/da/#"]);
    await sleep(200);
    seen.length = 0;
    const cid = v.options.clientId!;
    await v.publishAsync(`cng/v1/da/cmd/${cid}/req`, JSON.stringify({ v: 1, id: "x", op: "guns.list" }), { qos: 1 });
    await v.publishAsync(tableTopic("da", "state"), "{}", { qos: 1 });
    await v.publishAsync(gunTopic("da", "dg1", "trig"), "{}", { qos: 1 });
    await sleep(300);
    const mine = [`cng/v1/da/cmd/${cid}/req`, `cng/v1/da/cmd/${cid}/res`, gunTopic("da", "dg1", "trig")];
    expect(seen.filter((x) => mine.includes(x))).toEqual([]);
  });

  it("guessed passwords: the admin's, a gun's, anonymous with a username — all refused", async () => {
    for (const password of ["admin", "cng-admin", "password", "123456", "flashed-dg1", ""]) {
      const e = await connectRefused(url, { username: "cng-admin", password }).catch(() => null);
      expect(e, `admin with ${JSON.stringify(password)}`).not.toBeNull();
      const f = await connectRefused(url, { ...gunOpts("da", "dg1", password) }).catch(() => null);
      expect(f, `dg1 with ${JSON.stringify(password)}`).not.toBeNull();
    }
    await connectRefused(url, { username: "host", password: hubA.pin });
    // the hub is still there and answers
    const h = await host();
    expect(await request(h, "da", "guns.list", undefined, hubA.pin)).toMatchObject({ ok: true });
  });

  it("the hub survives bad control responses", async () => {
    // the admin role may publish on the response topic: junk there must not hurt the hubs
    const h = await host();
    for (const junk of ["not json", "{}", '{"responses":5}', '{"responses":[null,{"correlationData":7}]}'])
      await h.publishAsync("$CONTROL/dynamic-security/v1/response", junk, { qos: 1 });
    await sleep(200);
    expect(await request(h, "da", "guns.list", undefined, hubA.pin)).toMatchObject({ ok: true });
  });

  it("two simulated tables play a whole game each at once on the one broker; the venue view shows both", async () => {
    // the venue logs in anonymously: every table's public state, and nothing else
    const venue = await startVenue({ url, port: 0, bind: "127.0.0.1" });
    // on driven time (tests/fakes/time.ts): both hubs, their guns and bots on one clock the test moves
    const time = new DrivenTime();
    const game = (table: string, seed: number) =>
      runDemo({
        clock: time.clock,
        edition: "classic",
        players: 4,
        seed,
        speed: "fast",
        hub: {
          httpPort: 0,
          bind: "127.0.0.1",
          discovery: "off",
          broker: url,
          brokerUser: admin.username,
          brokerPassword: admin.password,
          dynsec: true,
          table,
          data: join(t.dir, `demo-${table}`),
        },
      });
    let api: { tables: { table: string }[] };
    let page: string;
    const [a, b] = await time.run(Promise.all([game("sa", 31), game("sb", 32)]), 600_000, "the two games");
    try {
      const base = `http://127.0.0.1:${venue.port}`;
      api = await (await fetch(`${base}/api/venue`)).json();
      page = await (await fetch(`${base}/`)).text();
    } finally {
      await venue.close();
    }
    expect(api.tables.map((x) => x.table)).toEqual(expect.arrayContaining(["sa", "sb"]));
    expect(page).toContain("/api/venue");
    for (const r of [a, b]) {
      expect(r.result.over).toBe(true);
      expect(r.result.winners.length).toBeGreaterThan(0);
    }
    expect(a.guns.map((g) => g.id)).toEqual(["sa-sim0", "sa-sim1", "sa-sim2", "sa-sim3"]);
    expect(b.guns.map((g) => g.id)).toEqual(["sb-sim0", "sb-sim1", "sb-sim2", "sb-sim3"]);
    const seen = venue.venue.snapshot();
    const byName = new Map(seen.tables.map((x) => [x.table, x]));
    for (const [table, r] of [
      ["sa", a],
      ["sb", b],
    ] as const) {
      expect(byName.get(table)).toMatchObject({ game: r.game, over: true, round: r.rounds });
      expect(byName.get(table)!.players.map((p) => p.name)).toEqual(
        Object.keys(r.result.players as Record<string, unknown>),
      );
      expect(seen.leaderboard.find((g) => g.table === table)).toMatchObject({
        game: r.game,
        winners: r.result.winners,
      });
    }
  }, 180_000);
});
