// The page's one link to the hub: MQTT over WebSocket (retained table/state, live table/aim, table/events, gun
// statuses, a seat's private view), request/response commands, and the hub's clock.
// Views read `link.*` and re-render on its "change" event; nothing here touches the DOM.

import { roundSeats, seatColour } from "/protocol/index.js";
import { parseProof, seal, sessionKey, viewKey } from "/vendor/seal.js";
import { t } from "./i18n.js";
import { DEVICE_KEY, loginOptions, newClientId, onRefused, pinLogin } from "./link-login.js";
import { takeMessage } from "./link-messages.js";

// What the hub publishes about the game and the guns, in the contract's types (shared/protocol/src/table.ts): each
// message is decoded strictly by the contract's decoder; one that does not decode is dropped, with a console warning.
/** @typedef {import("/protocol/index.js").TableStateMsg} TableStateMsg */
/** @typedef {import("/protocol/index.js").PlayerViewMsg} PlayerViewMsg */
/** @typedef {import("/protocol/index.js").GameEvent} GameEvent */
/** @typedef {import("/protocol/index.js").HubGunStatusMsg} GunStatus */
/** @typedef {import("/protocol/index.js").GunCalMsg} GunCal */
/** @typedef {import("/protocol/index.js").SeatAim} Aim */
/** @typedef {import("/protocol/index.js").PublicPlayer} PublicPlayer */
// Requests are typed by the protocol's map of ops (shared/protocol/src/commands.ts): each op's arguments and result.
/** @typedef {import("/protocol/index.js").OpName} OpName */
/**
 * @template {OpName} K
 * @typedef {import("/protocol/index.js").OpArgs<K>} OpArgs
 */
/**
 * An op's answer: its result, or a coded error (the hub's, or this page's own `offline` and `timeout`).
 * @template {OpName} K
 * @typedef {{ ok: true, r: import("/protocol/index.js").OpResult<K>, e?: undefined }
 *   | { ok: false, e: import("/protocol/index.js").ResponseError, r?: undefined }} Answer
 */

/** where an older dashboard kept the PIN for the tab: cleared, the PIN is never kept now */
const PIN_KEY = "cng-pin";

export class Link extends EventTarget {
  constructor() {
    super();
    /** @type {any} */ this.facts = null;
    this.root = "";
    this.cid = newClientId();
    /** @type {any} */ this.client = null;
    /** hub ms − browser ms */
    this.offset = 0;
    this.connected = false;
    /** "viewer" | "host" | "seat" */
    this.role = "viewer";
    /** the link's state in words, made when read (the page's language may change meanwhile) */
    this.statusText = () => t("link.connecting");
    /** @type {TableStateMsg | null} */ this.state = null;
    /** @type {Map<number, Aim>} */ this.aims = new Map();
    this.aimAt = 0;
    /** @type {Map<string, GunStatus>} gun id → retained status */ this.guns = new Map();
    /** @type {Map<string, GunCal>} gun id → retained calibration */ this.cals = new Map();
    /** @type {{at: number, game: number, events: GameEvent[]}[]} */ this.events = [];
    /** event batches received so far (this.events is capped; views key their redraws on this) */ this.eventBatches = 0;
    /** @type {PlayerViewMsg | null} the seat's own view (console only) */ this.playerView = null;
    this.seat = null;
    this.token = null;
    /** @type {Uint8Array | null} the session's key: requests and answers are sealed under it (host, console) */
    this.sessionKey = null;
    /** @type {Uint8Array | null} the key this console's private view is sealed under */
    this.viewKey = null;
    this.pending = new Map();
    this.reqN = 0;
    this.changeQueued = false;
  }

  /** @returns {{id: string, token: string} | null} this browser's host-device token */
  get device() {
    try {
      const d = JSON.parse(localStorage.getItem(DEVICE_KEY) ?? "null");
      return d && typeof d.token === "string" && typeof d.id === "string" ? d : null;
    } catch {
      return null;
    }
  }

  get status() {
    return this.statusText();
  }

  get isHost() {
    return this.role === "host" && this.connected;
  }

  hubNow() {
    return Date.now() + this.offset;
  }

  changed(what = "all") {
    this.dispatchEvent(new CustomEvent("change", { detail: what }));
  }

  /** Starts the link: as the host when a PIN is kept, as a seat's console when given a token. */
  async start(opts = {}) {
    try {
      this.facts = await (await fetch("/api/hub", { cache: "no-store" })).json();
    } catch {
      this.statusText = () => t("link.noHub");
      this.changed("link");
      return;
    }
    this.root = this.facts.topicRoot;
    await this.syncClock();
    if (!this.facts.ws || !window.mqtt) {
      const table = this.facts.table;
      this.statusText = () => t("link.noBroker", { table });
      this.changed("link");
      return;
    }
    if (opts.seat !== undefined && opts.token) {
      this.seat = opts.seat;
      this.token = opts.token;
      this.viewKey = viewKey(opts.token, this.facts.table, opts.seat);
    }
    sessionStorage.removeItem(PIN_KEY);
    this.connect();
  }

  /** The hub's clock: the offset from the /api/time answer with the shortest round trip. */
  async syncClock() {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 4; i++) {
      const t0 = Date.now();
      try {
        const { now } = await (await fetch("/api/time", { cache: "no-store" })).json();
        const t1 = Date.now();
        if (t1 - t0 < best) {
          best = t1 - t0;
          this.offset = now - (t0 + t1) / 2;
        }
      } catch {
        return;
      }
    }
  }

  connect() {
    if (this.client) this.client.end(true);
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${this.facts.ws}`;
    const { o, key, prove } = loginOptions(this);
    const role = this.role;
    this.sessionKey = null;
    const client = window.mqtt.connect(url, o);
    this.client = client;
    // mqtt.js logs in again with its options: a fresh proof each time (a proof is taken once)
    if (prove) client.on("reconnect", () => (client.options.password = prove()));
    client.on("connect", () => {
      this.connected = true;
      const proof = key ? parseProof(String(client.options.password)) : null;
      this.sessionKey = key && proof ? sessionKey(key, this.cid, proof) : null;
      const table = this.facts.table;
      const seat = this.seat;
      this.statusText = () =>
        role === "host"
          ? t("link.liveHost", { table })
          : role === "seat"
            ? t("link.liveSeat", { table, seat: seat + 1 })
            : t("link.live", { table });
      const subs = [
        `${this.root}/table/state`,
        `${this.root}/table/aim`,
        `${this.root}/table/events`,
        `${this.root}/gun/+/status`,
        `${this.root}/gun/+/cal`,
        `${this.root}/cmd/${this.cid}/res`,
      ];
      if (role === "seat") subs.push(`${this.root}/player/${this.seat}/view`);
      client.subscribe(subs, { qos: 1 });
      this.changed("link");
    });
    client.on("close", () => {
      if (this.connected) {
        this.connected = false;
        this.statusText = () => t("link.retrying");
        this.changed("link");
      }
    });
    client.on("error", (e) => onRefused(this, client, e, role));
    client.on("message", (topic, payload) => this.onMessage(topic, payload));
  }

  /**
   * In as the host by the PIN, without sending it: the PIN exchange (seal/pake.ts) gives this browser a host device's
   * token, sealed so that only it can read it; it logs in with that from then on. Resolves with null once in, or
   * with why not.
   * @param {string} pin
   * @returns {Promise<string | null>}
   */
  async login(pin) {
    return pinLogin(this, pin);
  }

  /**
   * Resolves true once the link is up (at once when it is), false after `ms`.
   * @param {number} ms
   * @returns {Promise<boolean>}
   */
  whenConnected(ms) {
    if (this.client && this.connected) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (/** @type {boolean} */ up) => {
        clearTimeout(timer);
        this.removeEventListener("change", check);
        resolve(up);
      };
      const check = () => {
        if (this.client && this.connected) done(true);
      };
      const timer = setTimeout(() => done(false), ms);
      this.addEventListener("change", check);
    });
  }

  /** Logs this browser out: its token is revoked at the hub and forgotten here. */
  async logout() {
    const d = this.device;
    if (d && this.isHost) await this.request("devices.revoke", { id: d.id });
    localStorage.removeItem(DEVICE_KEY);
    this.connect();
  }

  /** A message from the broker, taken in (link-messages.js). */
  onMessage(topic, payload) {
    takeMessage(this, topic, payload);
  }

  /**
   * One command; resolves with the response ({ok, r} or {ok: false, e}), never rejects. A host's or a console's
   * session acts as itself: its requests carry no secret, and are sealed under the session's key.
   * @template {OpName} K
   * @param {K} op
   * @param {OpArgs<K>} [a]
   * @param {string} [auth]
   * @returns {Promise<Answer<K>>}
   */
  request(op, a, auth) {
    const id = `w${++this.reqN}`;
    const msg = { v: 1, id, op };
    if (auth) msg.auth = auth;
    if (a !== undefined) msg.a = a;
    const key = auth === undefined ? this.sessionKey : null;
    return new Promise((resolve) => {
      if (!this.client || !this.connected) {
        resolve({ ok: false, e: { code: "offline", msg: "not connected to the hub" } });
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ ok: false, e: { code: "timeout", msg: "the hub did not answer" } });
      }, 8000);
      this.pending.set(id, { resolve, timer });
      const body = JSON.stringify(msg);
      this.client.publish(`${this.root}/cmd/${this.cid}/req`, key ? seal(key, body) : body, { qos: 1 });
    });
  }

  // ---- what the views need, derived ----

  /** Seats with everything known about each: name, colour, gun, online, the player's public state. */
  seats() {
    const st = this.state;
    const players = st?.game?.players ?? [];
    const n = Math.max(players.length, st?.seats?.length ?? 0, st?.table?.live?.length ?? 0);
    const out = [];
    for (let i = 0; i < n; i++) {
      const info = st?.seats?.find((x) => x.seat === i) ?? null;
      const p = players[i] ?? null;
      out.push({
        seat: i,
        name: p?.name ?? info?.name ?? t("seat.n", { n: i + 1 }),
        colour: info?.colour ?? seatColour(i),
        gun: info?.gun ?? this.gunOfSeat(i),
        online: info?.online ?? st?.table?.online?.[i] ?? this.gunOnline(i),
        player: p,
      });
    }
    return out;
  }

  gunOfSeat(seat) {
    for (const [id, g] of this.guns) if (g.paired && g.seat === seat) return id;
    return null;
  }

  gunOnline(seat) {
    const id = this.gunOfSeat(seat);
    return id ? !!this.guns.get(id)?.on : false;
  }

  /** Seat positions (metres, y up): the state's layout when the hub gives one, else a round table. */
  layout(n) {
    const l = this.state?.layout;
    if (l && "points" in l && l.points.length === n) return l.points;
    return roundSeats(n);
  }

  // ---- a game's public events as this browser saw them (the round result survives a reload); lists of games
  // and their histories come from the hub (game.list, game.history) ----

  storeKey(kind, id) {
    return `cng-${kind}-${this.facts?.table}-${id}`;
  }

  /** @param {import("/protocol/index.js").TableEventsMsg} m */
  rememberEvents(m) {
    try {
      const key = this.storeKey("events", m.game);
      const list = JSON.parse(localStorage.getItem(key) ?? "[]");
      list.push(...m.events);
      localStorage.setItem(key, JSON.stringify(list.slice(-2000)));
    } catch {
      // storage full or off: the round result shows less
    }
  }

  /** Every public event of a game this browser saw. */
  gameEvents(id = this.state?.id) {
    try {
      return JSON.parse(localStorage.getItem(this.storeKey("events", id)) ?? "[]");
    } catch {
      return [];
    }
  }
}
