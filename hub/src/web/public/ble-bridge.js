// The dashboard as the Bluetooth bridge: a Puck.js gun speaks the serial line protocol (hardware/SERIAL.md) over
// Bluetooth's Nordic UART (Web Bluetooth, through espruino-link.js), and this page puts its lines on the hub's broker
// over MQTT/WebSocket AS that gun, so pairing, topic rights, presence and the will work as for a WiFi gun. A gun not
// yet paired logs in with the flashed secret its hello says (a pairing request). A paired one says no key, only a
// nonce: the page asks the hub, over the host's sealed session, for a login of its own for that gun and the answer
// to the nonce (`gun.bridge`), proves the link with `auth`, and logs in with that token. The same behaviour as the
// hub's serial bridge (hub/src/serial/bridge.ts), with the same line checks and strict decoders: shared/protocol's
// own (lines.ts, validate.ts), from its build served at /protocol/. No DOM here: setup.js draws the list.
//
// The guns live as long as the page (changing views keeps them): the page is their link to the hub.

import { decodeCommand, decodeCue, encWill, gunTopic, LineSplitter, MAX_LINE, parseGunLine } from "/protocol/index.js";
import { openLink } from "./espruino-link.js";

/** a Bluetooth link that dropped is tried again after this long, ms, then less and less often (up to RETRY_MAX_MS) */
const RETRY_MS = 2000;
const RETRY_MAX_MS = 15_000;
/** a broker that refused or did not answer is tried again this often, ms (as the serial bridge) */
const BROKER_RETRY_MS = 5000;
/** no line for this long = the gun hangs: its will goes out (SERIAL.md) */
const IDLE_MS = 30_000;
/** a broker that neither accepts nor refuses in this long did not answer, ms */
const CONNECT_MS = 12_000;
/** each kind of fault is said at most this often (the serial bridge's OncePerKey), ms */
const SAY_MS = 10_000;

const QOS = { aim: 0, sync: 0, trig: 1, info: 1, err: 1, otas: 1, imu: 1 };
const decoder = new TextDecoder();

/** Connects like the hub's connectMqtt: resolves on CONNACK, rejects (and ends) on a refusal or no answer. */
function connectMqtt(url, options) {
  return new Promise((resolve, reject) => {
    if (!window.mqtt) {
      reject(new Error("no MQTT client in this page (/vendor/mqtt.min.js)"));
      return;
    }
    const c = window.mqtt.connect(url, options);
    const fail = (e) => {
      clearTimeout(timer);
      c.end(true);
      reject(e instanceof Error ? e : new Error(String(e)));
    };
    const timer = setTimeout(() => fail(new Error("no answer")), CONNECT_MS);
    c.once("connect", () => {
      clearTimeout(timer);
      c.off("error", fail);
      resolve(c);
    });
    c.once("error", fail);
  });
}

/**
 * The MQTT login a bridged gun is on the broker with: its own id and the token the hub gave for it, its will.
 * @param {string} table
 * @param {{ id: string, pass: string }} h
 */
const gunLogin = (table, h) => ({
  clientId: h.id,
  username: h.id,
  password: h.pass,
  protocolVersion: 4,
  clean: true,
  keepalive: 15,
  reconnectPeriod: 2000,
  connectTimeout: 10_000,
  queueQoSZero: false,
  will: { topic: gunTopic(table, h.id, "will"), payload: encWill(), qos: 1, retain: false },
});

/**
 * What the page says when the broker did not take a bridged gun (`m`: its word).
 * @param {string} m
 */
const joinRefusal = (m) =>
  `the broker refused or did not answer (${m})` +
  (/not authori|bad user|wrong/i.test(m) ? "; its secret is wrong: forget and pair it again" : "");

/**
 * @typedef {"connecting" | "online" | "lost" | "closed"} BridgeState
 *   connecting: the Bluetooth link is up, the gun is not on the broker yet (no hello yet, or the broker refused);
 *   online: on the broker as itself; lost: the Bluetooth link dropped, being opened again; closed: let go here
 */

/** One Puck.js gun bridged by this page. Changes are announced on `guns` ("change"). */
export class BluetoothGun {
  /**
   * @param {BluetoothGuns} guns
   * @param {{table: string, ws: string}} facts the hub's /api/hub
   * @param {import("./espruino-link.js").BoardLink} link
   * @param {{request: (op: "gun.bridge", a: {gun: string, n: string}) => Promise<any>}} hub the host's session
   *   (mqtt-link.js Link): what the hub vouches for a paired gun with
   */
  constructor(guns, facts, link, hub) {
    this.guns = guns;
    this.hub = hub;
    this.table = facts.table;
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${facts.ws}`;
    /** @type {BridgeState} */ this.state = "connecting";
    /** the gun's id once it said hello (kept through a lost link, for the list) */
    this.id = null;
    /** the last thing that went wrong, in the bridge's words (English, like the hub's log) */
    this.problem = null;
    /** the link dropped and cannot be opened without the chooser: connect it again with the button */
    this.needsClick = false;
    this.link = null;
    this.hello = null;
    this.mqtt = null;
    /** @type {{id: string, pass: string, sk: string} | null} the login wanted now; `sk` names it */
    this.want = null;
    /** `sk` of the MQTT session, to see when a hello changes who we are */
    this.session = "";
    this.joining = false;
    this.closed = false;
    this.lastWho = 0;
    this.idle = null;
    this.retry = null;
    /** fault kind → when it was last said */
    this.said = new Map();
    this.splitter = new LineSplitter(
      (line) => this.onLine(line),
      () => this.warn("overflow", `a line longer than ${MAX_LINE} bytes, dropped`),
    );
    this.attach(link);
  }

  changed() {
    this.guns.changed();
  }

  /** Shows what went wrong; each kind of fault (`key`) is said at most once per SAY_MS. */
  warn(key, why) {
    const t = Date.now();
    if (t - (this.said.get(key) ?? -SAY_MS) < SAY_MS) return;
    this.said.set(key, t);
    this.problem = why;
    console.warn(`Bluetooth gun ${this.id ?? "?"}: ${why}`);
    this.changed();
  }

  attach(link) {
    this.link = link;
    this.needsClick = false;
    this.state = "connecting";
    this.splitter.reset();
    link.onData((d) => this.splitter.push(d));
    link.onClose(() => this.lost(link));
    this.lastWho = 0;
    this.askWho();
    this.changed();
  }

  toGun(leaf, json) {
    this.link?.write(`${leaf} ${json}\n`).catch(() => {});
  }

  askWho() {
    const t = Date.now();
    if (t - this.lastWho < 1000) return;
    this.lastWho = t;
    this.toGun("who", '{"v":1}');
  }

  /** Leaves the broker; with a reason, the gun is gone and its will goes out first. */
  async leaveBroker(why) {
    const c = this.mqtt;
    const gun = this.hello?.id;
    this.mqtt = null;
    this.session = "";
    if (!c) return;
    if (why !== null && gun && c.connected) {
      console.info(`Bluetooth gun ${gun}: ${why}; publishing its will`);
      await c.publishAsync(gunTopic(this.table, gun, "will"), encWill(), { qos: 1 }).catch(() => {});
    }
    await c.endAsync().catch(() => {});
  }

  async joinBroker() {
    const h = this.want;
    if (!h) return;
    const key = h.sk;
    if (key === this.session && this.mqtt) {
      // the same session: a new token only replaces the one its reconnects log in with
      this.mqtt.options.password = h.pass;
      return;
    }
    if (this.joining) return;
    this.joining = true;
    try {
      await this.leaveBroker(null);
      this.session = key;
      const cue = gunTopic(this.table, h.id, "cue");
      const cmd = gunTopic(this.table, h.id, "cmd");
      const c = await connectMqtt(this.url, gunLogin(this.table, h));
      if (this.closed || this.session !== key) {
        await c.endAsync().catch(() => {});
        return;
      }
      this.mqtt = c;
      c.on("message", (topic, payload) =>
        this.fromHub(topic === cue ? "cue" : topic === cmd ? "cmd" : null, decoder.decode(payload)),
      );
      c.on("connect", () => {
        this.toGun("link", '{"v":1,"on":1}');
        this.setState("online");
      });
      c.on("offline", () => {
        this.toGun("link", '{"v":1,"on":0}');
        this.setState("connecting");
      });
      c.on("error", (e) => this.warn(`mqtt:${e.message}`, `the broker says ${e.message}`));
      await c.subscribeAsync([cue, cmd], { qos: 1 });
      this.toGun("link", '{"v":1,"on":1}');
      this.problem = null;
      this.setState("online");
    } catch (e) {
      this.session = "";
      const m = e?.message ?? String(e);
      this.warn(`join:${m}`, joinRefusal(m));
      if (!this.closed) setTimeout(() => this.want && !this.mqtt && this.joinBroker(), BROKER_RETRY_MS);
    } finally {
      this.joining = false;
    }
    // a new hello or token that came while connecting
    const w = this.want;
    if (!this.closed && this.mqtt && w) {
      if (w.sk !== this.session) this.joinBroker();
      else this.mqtt.options.password = w.pass;
    }
  }

  /**
   * A paired gun's hello (a nonce, no key): the hub's login for this bridge and its answer to the nonce, asked over
   * the host's session (sealed end to end: the token crosses no air readable), then `auth`, then the broker.
   */
  async prove(h) {
    const r = await this.hub.request("gun.bridge", { gun: h.id, n: h.n });
    // a newer hello (another nonce) came meanwhile, or the gun went: that one is proven instead
    if (this.closed || this.hello !== h) return;
    if (!r.ok) {
      if (r.e.code === "unknown-gun") {
        this.warn(
          "unpaired",
          "it is paired, but not to this hub (forgotten?): it needs a new gun.json (hardware/PUCK.md)",
        );
        return;
      }
      this.warn(`vouch:${r.e.code}`, `the hub did not vouch for it (${r.e.msg})`);
      setTimeout(() => this.hello === h && !this.closed && this.prove(h), BROKER_RETRY_MS);
      return;
    }
    this.toGun("auth", JSON.stringify({ v: 1, m: r.r.m }));
    this.want = { id: h.id, pass: r.r.token, sk: `${h.id}:t` };
    this.joinBroker();
  }

  setState(s) {
    if (this.closed || !this.link) return;
    this.state = s;
    this.changed();
  }

  /** A cue or command from the hub: checked, then sent down the link. */
  fromHub(leaf, text) {
    if (!leaf) return;
    const d = leaf === "cue" ? decodeCue(text) : decodeCommand(text);
    if (!d.ok) {
      this.warn(`hub:${leaf}:${d.error.code}`, `not sending a bad ${leaf}: ${d.error.message}`);
      return;
    }
    // pairing: the gun stores the key and says hello again, with a nonce; the page keeps no key
    this.toGun(leaf, text);
  }

  onLine(line) {
    if (this.closed) return;
    this.armIdle();
    const p = parseGunLine(line);
    if (p.kind === "bad") {
      this.warn(`line:${p.code}`, `dropped a line (${p.why})`);
      return;
    }
    if (p.kind === "hello") {
      const other = this.guns.find(p.hello.id, this);
      if (other?.link) {
        // the same Puck picked twice: the first bridge carries it; this one lets go (the link is the same device's)
        this.detach();
        return;
      }
      // the same Puck picked again after its link was lost for good: this entry takes over
      if (other) this.guns.remove(other);
      if (this.hello && this.hello.id !== p.hello.id) this.leaveBroker(`now says it is ${p.hello.id}`);
      const h = p.hello;
      this.hello = h;
      this.id = h.id;
      this.changed();
      if (h.n !== undefined) this.prove(h);
      else {
        this.want = { id: h.id, pass: h.k ?? "", sk: `${h.id}:k:${h.k ?? ""}` };
        this.joinBroker();
      }
      return;
    }
    if (!this.hello) {
      this.askWho();
      return;
    }
    if (!this.mqtt) {
      if (!this.joining && this.want?.id === this.hello.id) this.joinBroker();
      return;
    }
    this.mqtt.publish(gunTopic(this.table, this.hello.id, p.leaf), p.payload, {
      qos: QOS[p.leaf],
      retain: p.leaf === "info",
    });
  }

  armIdle() {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      this.idle = null;
      if (this.mqtt && this.hello) {
        this.leaveBroker(`silent for ${IDLE_MS / 1000} s`);
        this.setState("connecting");
      }
    }, IDLE_MS);
  }

  /** The Bluetooth link dropped: the will goes out, and the same device is opened again until it answers. */
  lost(link) {
    if (this.link !== link) return;
    this.link = null;
    this.splitter.reset();
    clearTimeout(this.idle);
    this.leaveBroker("its Bluetooth link dropped");
    this.hello = null;
    this.want = null;
    if (this.closed) return;
    this.state = "lost";
    this.needsClick = !link.reopen;
    this.changed();
    if (link.reopen) this.reopen(link.reopen, RETRY_MS);
  }

  /** Opens the same device again (no chooser) after `ms`, and again, less often, until it answers. */
  reopen(again, ms) {
    clearTimeout(this.retry);
    this.retry = setTimeout(async () => {
      this.retry = null;
      if (this.closed) return;
      try {
        const l = await again();
        if (this.closed) l.close();
        else this.attach(l);
      } catch {
        this.reopen(again, Math.min(ms * 1.5, RETRY_MAX_MS));
      }
    }, ms);
  }

  /** Stops bridging without touching the link (the same device bridged by another entry). */
  detach() {
    this.closed = true;
    this.link = null;
    clearTimeout(this.idle);
    clearTimeout(this.retry);
    this.leaveBroker(null);
    this.guns.forget(this);
  }

  /** Lets the gun go: its will goes out and the Bluetooth link is closed. */
  close() {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.idle);
    clearTimeout(this.retry);
    this.leaveBroker("let go from the dashboard");
    this.state = "closed";
    const l = this.link;
    this.link = null;
    l?.close();
  }
}

/** Every Bluetooth gun this page bridges; "change" whenever one of them changes. */
export class BluetoothGuns extends EventTarget {
  constructor() {
    super();
    /** @type {BluetoothGun[]} */ this.list = [];
  }

  changed() {
    this.dispatchEvent(new Event("change"));
  }

  /**
   * Pairs one more gun: opens the browser's Bluetooth chooser, so call it inside a click (after preloadLink).
   * Rejects when nothing was chosen or the gun did not connect.
   * @param {{table: string, ws: string}} facts the hub's /api/hub
   * @param {BluetoothGun["hub"]} hub the host's session, which asks the hub to vouch for paired guns
   */
  async connect(facts, hub) {
    const link = await openLink("bluetooth");
    const g = new BluetoothGun(this, facts, link, hub);
    this.list.push(g);
    this.changed();
    return g;
  }

  /** Another entry for this gun id. */
  find(id, self) {
    return this.list.find((g) => g !== self && !g.closed && g.id === id);
  }

  forget(g) {
    this.list = this.list.filter((x) => x !== g);
    this.changed();
  }

  /** Lets one gun go (its will goes out) and takes it off the list. */
  remove(g) {
    g.close();
    this.forget(g);
  }
}

/** This page's Bluetooth guns. */
export const bluetoothGuns = new BluetoothGuns();
