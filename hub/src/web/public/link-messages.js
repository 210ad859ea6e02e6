// What comes to the page's link from the broker, taken in: the game's messages (`table/*`, a seat's view) and the
// guns' statuses decoded strictly by the contract's decoders (one that does not decode is dropped, with a console
// warning), calibrations, and the answers to this page's requests (sealed under the session's key).

import {
  decodeGunStatus,
  decodePlayerView,
  decodeTableAim,
  decodeTableEvents,
  decodeTableState,
} from "/protocol/index.js";
import { isSealed, open } from "/vendor/seal.js";

/** @typedef {import("./mqtt-link.js").Link} Link */

const decoder = new TextDecoder();
const MAX_EVENT_BATCHES = 200;

/**
 * A message from the broker on `topic`.
 * @param {Link} link
 * @param {string} topic
 * @param {Uint8Array} payload
 */
export function takeMessage(link, topic, payload) {
  const rel = topic.slice(link.root.length + 1).split("/");
  if (payload.length === 0) {
    if (rel[0] === "gun" && rel[2] === "status") link.guns.delete(rel[1]);
    if (rel[0] === "gun" && rel[2] === "cal") link.cals.delete(rel[1]);
    link.changed("guns");
    return;
  }
  const text = decoder.decode(payload);
  if (rel[0] === "table" || rel[0] === "player") {
    takeGame(link, topic, rel, text);
    return;
  }
  if (rel[0] === "gun" && rel[2] === "status") {
    const d = decodeGunStatus(text);
    if (!d.ok) {
      console.warn(`${topic}: refused, ${d.error.message}`);
      return;
    }
    link.guns.set(rel[1], d.value);
    link.changed("guns");
    return;
  }
  let m;
  try {
    // an answer to a sealed request comes sealed under the session's key
    m = JSON.parse(isSealed(text) && link.sessionKey ? (open(link.sessionKey, text) ?? "") : text);
  } catch {
    return;
  }
  if (rel[0] === "cmd" && rel[2] === "res") {
    const p = link.pending.get(m.id);
    if (p) {
      link.pending.delete(m.id);
      clearTimeout(p.timer);
      p.resolve(m);
    }
  } else if (rel[0] === "gun" && rel[2] === "cal") {
    link.cals.set(rel[1], m);
    link.changed("guns");
  }
}

/**
 * What the hub publishes about the game: `table/{state,aim,events}`, `player/<seat>/view`, decoded strictly.
 * @param {Link} link
 * @param {string} topic
 * @param {string[]} rel
 * @param {string} text
 */
function takeGame(link, topic, rel, text) {
  /** @param {{ok: false, error: {message: string}}} d */
  const refuse = (d) => console.warn(`${topic}: refused, ${d.error.message}`);
  const leaf = rel[0] === "table" ? rel[1] : rel[2];
  if (leaf === "state") {
    const d = decodeTableState(text);
    if (!d.ok) return refuse(d);
    const prev = link.state;
    link.state = d.value;
    if (prev && prev.id !== d.value.id) link.playerView = null;
    link.changed("state");
  } else if (leaf === "aim") {
    const d = decodeTableAim(text);
    if (!d.ok) return refuse(d);
    link.aimAt = d.value.at;
    link.aims = new Map(d.value.aims.map((a) => [a.seat, a]));
    link.changed("aim");
  } else if (leaf === "events") {
    const d = decodeTableEvents(text);
    if (!d.ok) return refuse(d);
    link.events.push({ at: link.hubNow(), game: d.value.game, events: d.value.events });
    link.eventBatches++;
    if (link.events.length > MAX_EVENT_BATCHES) link.events.splice(0, link.events.length - MAX_EVENT_BATCHES);
    link.rememberEvents(d.value);
    link.changed("events");
  } else if (leaf === "view") {
    // sealed under this console's key: nobody else on the WiFi reads the hand
    const d = decodePlayerView(link.viewKey ? (open(link.viewKey, text) ?? "") : "");
    if (!d.ok) return refuse(d);
    link.playerView = d.value;
    link.changed("player");
  }
}
