// Small DOM helpers shared by the views: h() builds elements, s() builds SVG, plus seat colours and names.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * An element: h("button", {class: "big", onclick: fn, disabled: true}, "text", child…).
 * Attributes starting with "on" are listeners; false/null/undefined attributes are left out.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...any} children
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element, same shape as h(). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === false || v === null || v === undefined) continue;
    // event handlers only as functions: an "on…" attribute from a string would be markup that runs
    if (k.startsWith("on")) {
      if (typeof v === "function") el.addEventListener(k.slice(2), v);
    } else if (k === "value" && "value" in el) el.value = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** 0xRRGGBB → "#rrggbb" */
export function css(rgb) {
  return `#${(rgb >>> 0).toString(16).padStart(6, "0").slice(-6)}`;
}

/** The hub's seat colours (hub/src/feedback/colours.ts), used when table/state has no seats yet. */
export const SEAT_COLOURS = [0xff0000, 0x00ff00, 0x0000ff, 0xffd000, 0x00ffff, 0xff00ff, 0xff5000, 0xffffff];
export const seatColour = (seat) => SEAT_COLOURS[((seat % 8) + 8) % 8];
export const COLOUR_NAMES = ["red", "green", "blue", "yellow", "cyan", "magenta", "orange", "white"];

/** Dollars, short: $25,000 */
export function dollars(n) {
  return `$${Math.round(n).toLocaleString("en-US")}`;
}

export const STEP_NAMES = {
  bullet: "choose bullets",
  aim: "hold-up: aim",
  "kid-aim": "the Kid aims",
  "cunning-bullet": "the Cunning chooses",
  privilege: "Godfather's privilege",
  reaim: "re-aim",
  courage: "courage: stay or lie down",
  split: "split",
  phone: "cop phone",
  specialist: "the Specialist",
  "take-gun": "take a gun",
  draft: "loot draft",
  over: "game over",
};

export const POWER_NAMES = {
  "six-feet-under": "Six Feet Under",
  "the-unbreakable": "The Unbreakable",
  "you-dont-need-it-anymore": "You Don't Need It Anymore",
  "dragon-skin": "Dragon Skin",
  "the-insane": "The Insane",
  "the-kid": "The Kid",
  "the-cunning": "The Cunning",
  "super-coward": "Super Coward",
  "the-specialist": "The Specialist",
  "it-doesnt-even-hurt": "It Doesn't Even Hurt",
};

export const CARD_NAMES = {
  "cash:5000": "$5,000",
  "cash:10000": "$10,000",
  "cash:20000": "$20,000",
  "diamond:1000": "diamond 1",
  "diamond:5000": "diamond 5",
  "diamond:10000": "diamond 10",
  painting: "painting",
  clip: "clip",
  "first-aid": "first aid",
  godfather: "Godfather token",
};

/** A short message line that replaces itself. */
export function flash(el, text, kind = "info") {
  el.textContent = text;
  el.className = `msg ${kind}`;
}

/** A request's error as words. */
export function errText(res) {
  if (!res) return "no answer";
  if (res.ok) return "ok";
  return `${res.e?.code ?? "error"}: ${res.e?.msg ?? ""}`;
}
