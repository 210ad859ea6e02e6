// How this page logs in to the hub's broker: the options and proof of each connect, what a refused login means,
// and the host's PIN exchange (seal/pake.ts), which gives this browser a host device's token without sending the PIN.

import { makeProof, open, pakeStart, sameTag, secretKey } from "/vendor/seal.js";
import { t } from "./i18n.js";

/** @typedef {import("./mqtt-link.js").Link} Link */

/** this browser's host-device token, kept across visits: it logs in as the host without the PIN */
export const DEVICE_KEY = "cng-host-device";
/** how long a PIN given before the link is up waits for it, ms */
const LOGIN_WAIT_MS = 10_000;

/** A name the host can tell this browser by in Setup's list of host devices. */
function deviceName() {
  const ua = navigator.userAgent;
  const browser = /Firefox\//.test(ua)
    ? "Firefox"
    : /Edg\//.test(ua)
      ? "Edge"
      : /Chrom/.test(ua)
        ? "Chrome"
        : /Safari\//.test(ua)
          ? "Safari"
          : "a browser";
  const os = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPad/.test(ua)
      ? "iOS"
      : /Mac OS/.test(ua)
        ? "macOS"
        : /Windows/.test(ua)
          ? "Windows"
          : /Linux/.test(ua)
            ? "Linux"
            : "";
  return os ? `${browser} on ${os}` : browser;
}

/** A client id nobody else has: the hub gives a session only to the login that holds it. */
export function newClientId() {
  const b = new Uint8Array(8);
  crypto.getRandomValues(b);
  return `web${Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * The MQTT options this page logs in with, and its role: a seat's console by its token, the host by this browser's
 * host-device token, else a viewer. The secret never leaves the page: the login is a proof made with it, new at each
 * connect (seal/proof.ts).
 * @param {Link} link
 */
export function loginOptions(link) {
  /** @type {Record<string, any>} */
  const o = { clientId: link.cid, reconnectPeriod: 1500, connectTimeout: 5000, protocolVersion: 4, clean: true };
  /** @type {(() => string) | null} */
  let prove = null;
  /** @type {Uint8Array | null} */
  let key = null;
  const device = link.device;
  if (link.seat !== null && link.token) {
    key = secretKey(link.token);
    o.username = `seat-${link.seat}`;
    link.role = "seat";
  } else if (device) {
    key = secretKey(device.token);
    o.username = "host";
    link.role = "host";
  } else link.role = "viewer";
  if (key) {
    const k = key;
    prove = () => makeProof(k, o.username, link.cid, link.hubNow(), device && link.seat === null ? device.id : "");
    o.password = prove();
  }
  return { o, key, prove };
}

/**
 * The broker refused this page's login or id (MQTT 3.1.1 §3.2.2.3): a client id still held takes a new one; a proof
 * out of date syncs the clock first; a refused host token (revoked from Setup) falls back to the PIN; a refused seat
 * token says so.
 * @param {Link} link
 * @param {any} client
 * @param {any} e
 * @param {string} role
 */
export function onRefused(link, client, e, role) {
  // 2: identifier rejected — this id is still held by this page's last session (another address, not yet timed
  // out) or another login: take a new one
  if (e && e.code === 2) {
    client.end(true);
    link.cid = newClientId();
    link.connect();
    return;
  }
  // 5: not authorised now (a proof out of date: the clock again, then a new one)
  if (e && e.code === 5) {
    void link.syncClock();
    return;
  }
  // 4: bad user name or password
  if (e && (e.code === 4 || /password/i.test(String(e.message)))) {
    client.end(true);
    if (role === "host") {
      // a token refused was revoked from Setup: this device needs the PIN again
      localStorage.removeItem(DEVICE_KEY);
      link.statusText = () => t("link.deviceRevoked");
      link.dispatchEvent(new CustomEvent("pin-refused"));
      link.connect();
    } else {
      link.statusText = () => t("link.tokenRefused");
      link.dispatchEvent(new CustomEvent("token-refused"));
    }
    link.changed("link");
  }
}

/**
 * In as the host by the PIN, without sending it: the PIN exchange gives this browser a host device's token, sealed so
 * that only it can read it; it logs in with that from then on. Resolves with null once in, or with why not.
 * @param {Link} link
 * @param {string} pin
 * @returns {Promise<string | null>}
 */
export async function pinLogin(link, pin) {
  // a PIN given as the page opens waits for its link to the hub, as a person would
  if (!(await link.whenConnected(LOGIN_WAIT_MS))) return t("link.noHub");
  const table = link.facts?.table;
  if (!table) return t("link.noHub");
  const pake = pakeStart(pin, table);
  const a = await link.request("login.start", { X: pake.X });
  if (!a.ok) return a.e.msg;
  const keys = pake.finish(a.r.Y);
  if (!keys) return t("link.pinRefused");
  const b = await link.request("login.finish", { sid: a.r.sid, c: keys.client, name: deviceName() });
  if (!b.ok) return b.e.code === "auth" ? t("link.pinRefused") : b.e.msg;
  // the hub's confirmation: it knows the PIN too (not a device posing as the hub)
  const sealed = sameTag(b.r.c, keys.hub) ? open(keys.key, b.r.x) : null;
  const d = sealed === null ? null : JSON.parse(sealed);
  if (!d || typeof d.token !== "string") return t("link.pinRefused");
  localStorage.setItem(DEVICE_KEY, JSON.stringify({ id: d.device.id, token: d.token }));
  return new Promise((resolve) => {
    const done = (/** @type {string | null} */ why) => {
      link.removeEventListener("pin-refused", no);
      link.removeEventListener("change", yes);
      resolve(why);
    };
    const no = () => done(t("link.pinRefused"));
    const yes = () => {
      if (link.role === "host" && link.connected) done(null);
    };
    link.addEventListener("pin-refused", no);
    link.addEventListener("change", yes);
    link.connect();
  });
}
