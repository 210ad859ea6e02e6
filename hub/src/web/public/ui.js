// Small DOM helpers shared by the views: h() builds elements, s() builds SVG, plus seat colours and the names of
// the game's things (steps, powers, cards, loot…) in the page's language.

import { SEAT_COLOURS } from "/protocol/index.js";
import { autoLang, LANG_NAMES, LANGS, money, personalLang, setLang, t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * A phone's screen, upright or on its side (style.css has the same query): the header folds into a menu, the table
 * is drawn with its words at fixed sizes, the voice starts muted.
 */
export const PHONE = "(max-width: 700px), (max-height: 500px)";

/**
 * An element: h("button", {class: "big", onclick: fn, disabled: true}, "text", child…).
 * Attributes starting with "on" are listeners; false/null/undefined attributes are left out.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs]
 * @param {...any} children
 * @returns {HTMLElementTagNameMap[K]}
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

/** The name of a seat's colour, in SEAT_COLOURS' order. */
export function colourName(seat) {
  const names = [
    t("colour.orange"),
    t("colour.skyBlue"),
    t("colour.green"),
    t("colour.yellow"),
    t("colour.blue"),
    t("colour.vermilion"),
    t("colour.purple"),
    t("colour.white"),
  ];
  const n = SEAT_COLOURS.length;
  return names[((seat % n) + n) % n];
}

// The names below are looked up on each call: the language may change while the page runs. Each table is typed by
// the protocol's word list, so a new word fails the dashboard's type check until it is named.

/** @typedef {import("/protocol/index.js").Step} Step */
/** @typedef {import("/protocol/index.js").DecisionType} DecisionType */

/** @param {Step} step */
export function stepName(step) {
  /** @type {Record<Step, string>} */
  const names = {
    bullet: t("step.bullet"),
    aim: t("step.aim"),
    "kid-aim": t("step.kidAim", { power: powerName("the-kid") }),
    "cunning-bullet": t("step.cunningBullet", { power: powerName("the-cunning") }),
    privilege: t("step.privilege"),
    reaim: t("step.reaim"),
    courage: t("step.courage"),
    split: t("step.split"),
    phone: t("step.phone"),
    specialist: t("step.specialist", { power: powerName("the-specialist") }),
    "take-gun": t("step.takeGun"),
    draft: t("step.draft"),
    over: t("step.over"),
  };
  return names[step] ?? step;
}

/** @param {import("/protocol/index.js").PowerId} power */
export function powerName(power) {
  /** @type {Record<import("/protocol/index.js").PowerId, string>} */
  const names = {
    "six-feet-under": t("power.sixFeetUnder"),
    "the-unbreakable": t("power.theUnbreakable"),
    "you-dont-need-it-anymore": t("power.youDontNeedItAnymore"),
    "dragon-skin": t("power.dragonSkin"),
    "the-insane": t("power.theInsane"),
    "the-kid": t("power.theKid"),
    "the-cunning": t("power.theCunning"),
    "super-coward": t("power.superCoward"),
    "the-specialist": t("power.theSpecialist"),
    "it-doesnt-even-hurt": t("power.itDoesntEvenHurt"),
  };
  return names[power] ?? power;
}

/**
 * A bullet card: bang, click, bbb.
 * @param {import("/protocol/index.js").Bullet} card
 */
export function bulletName(card) {
  /** @type {Record<import("/protocol/index.js").Bullet, string>} */
  const names = { bang: t("bullet.bang"), click: t("bullet.click"), bbb: t("bullet.bbb") };
  return names[card] ?? card;
}

/**
 * A loot card (second edition) or the New Godfather token.
 * @param {import("/protocol/index.js").LootCard | "godfather"} card
 */
export function cardName(card) {
  /** @type {Record<import("/protocol/index.js").LootCard | "godfather", string>} */
  const names = {
    "cash:5000": money(5000),
    "cash:10000": money(10000),
    "cash:20000": money(20000),
    "diamond:1000": t("loot.diamond", { money: money(1000) }),
    "diamond:5000": t("loot.diamond", { money: money(5000) }),
    "diamond:10000": t("loot.diamond", { money: money(10000) }),
    painting: t("loot.painting"),
    clip: t("loot.clip"),
    "first-aid": t("loot.firstAid"),
    godfather: t("loot.godfatherToken"),
  };
  return names[card] ?? card;
}

/** @param {import("/protocol/index.js").Role} role */
export function roleName(role) {
  /** @type {Record<import("/protocol/index.js").Role, string>} */
  const names = { cop: t("role.cop"), gangster: t("role.gangster") };
  return names[role] ?? role;
}

/** @param {import("/protocol/index.js").Edition} edition */
export function editionName(edition) {
  /** @type {Record<import("/protocol/index.js").Edition, string>} */
  const names = { classic: t("edition.classic"), second: t("edition.second") };
  return names[edition] ?? edition;
}

/**
 * A decision the table waits for from the host (table/state's waiting `decision`).
 * @param {DecisionType} type
 */
export function decisionName(type) {
  /** @type {Record<DecisionType, string>} */
  const names = {
    reveal: t("decision.reveal"),
    bullet: t("decision.bullet"),
    aim: t("decision.aim"),
    privilege: t("decision.privilege"),
    courage: t("decision.courage"),
    "doesnt-hurt": powerName("it-doesnt-even-hurt"),
    phone: t("decision.phone"),
    specialist: powerName("the-specialist"),
    "take-gun": t("decision.takeGun"),
    pick: t("decision.pick"),
  };
  return names[type] ?? type;
}

// While a pointer (or Space) is pressed nothing is redrawn: a button replaced between its press and its release gets
// no click, and a state may land in that moment for reasons that have nothing to do with the button (a gun drops, a
// burst of changes split in two under load). What was missed is drawn on the release, once its click has run.
let pressed = false;
/**
 * Per listener, the last change of each kind (`detail`) it missed while held.
 * @type {Map<(e: Event) => void, Map<unknown, Event>>}
 */
const missed = new Map();
const release = () => {
  if (!pressed) return;
  pressed = false;
  // pointerup, mouseup and click are dispatched in one go: a task queued now runs after the click
  setTimeout(() => {
    const due = [...missed];
    missed.clear();
    for (const [listener, changes] of due) for (const e of changes.values()) listener(e);
  }, 0);
};
addEventListener(
  "pointerdown",
  (e) => {
    // not a select (its list may take the release) nor another button than the main one (a menu may take it)
    if (e.button === 0 && !(e.target instanceof Element && e.target.closest("select"))) pressed = true;
  },
  true,
);
addEventListener("pointerup", release, true);
addEventListener("pointercancel", release, true);
// a release that never came to the page (a popup or another window took it): the pointer moves with no button down
addEventListener(
  "pointermove",
  (e) => {
    if (pressed && e.buttons === 0) release();
  },
  true,
);
// Space clicks a button when it is let go: held the same way
addEventListener(
  "keydown",
  (e) => {
    if (e.key === " ") pressed = true;
  },
  true,
);
addEventListener(
  "keyup",
  (e) => {
    if (e.key === " ") release();
  },
  true,
);
addEventListener("blur", release);

/**
 * Listens to the link's changes like `addEventListener`, but a change landing while a pointer is pressed is handled
 * on the release, after its click. Returns the unsubscribe, which also drops a change still held.
 * @param {EventTarget} link
 * @param {(e: Event & { detail?: unknown }) => void} handler
 */
export function onLinkChange(link, handler) {
  let on = true;
  /** @param {Event & { detail?: unknown }} e */
  const listener = (e) => {
    if (!on) return;
    if (!pressed) return handler(e);
    const changes = missed.get(listener) ?? new Map();
    changes.delete(e.detail); // kept in the order they last came
    changes.set(e.detail, e);
    missed.set(listener, changes);
  };
  link.addEventListener("change", listener);
  return () => {
    on = false;
    missed.delete(listener);
    link.removeEventListener("change", listener);
  };
}

/**
 * Draws the page now and again on the link's changes, but only when what it shows changed: `shows()` returns the
 * parts of the link the page reads. The live aim riding in `table/state` moves many times a second while guns
 * stream; a page rebuilt for it replaces its buttons under a click, and a press and release that straddle a
 * rebuild are no click at all (so no redraw happens while a pointer is pressed, either). Returns the unsubscribe.
 * @param {EventTarget} link
 * @param {() => unknown} shows
 * @param {() => void} draw
 * @param {() => boolean} [hold]
 */
export function redrawOnChange(link, shows, draw, hold = () => false) {
  let shown = null;
  /** @param {Event & { detail?: unknown }} [e] */
  const onChange = (e) => {
    // `hold`: not now (the person is typing in the page); the next change after it draws what was missed
    if (e?.detail === "aim" || (e && hold())) return;
    const key = JSON.stringify(shows());
    if (key === shown) return;
    shown = key;
    draw();
  };
  const off = onLinkChange(link, onChange);
  onChange();
  return off;
}

/** `table/state` without what follows the guns' aim (`table.live`): what a page shows of it unless it draws aim. */
export function stillState(st) {
  return st && { ...st, table: st.table && { ...st.table, live: null } };
}

/**
 * Sends one request from a button and shows the hub's answer in `msg`; the button is off while the request is out.
 * @template {import("/protocol/index.js").OpName} K
 * @param {import("./mqtt-link.js").Link} link
 * @param {HTMLElement} msg
 * @param {K} op
 * @param {import("./mqtt-link.js").OpArgs<K>} args
 * @param {HTMLButtonElement | null} [button]
 * @param {string} [okText] what a success says (default: "<op>: done")
 * @returns {Promise<import("./mqtt-link.js").Answer<K>>} the hub's answer
 */
export async function sendRequest(link, msg, op, args, button = null, okText = t("msg.done", { op })) {
  if (button) button.disabled = true;
  flash(msg, t("msg.sending", { op }));
  try {
    const res = await link.request(op, args);
    flash(msg, res.ok ? okText : t("msg.refused", { error: errText(res) }), res.ok ? "ok" : "error");
    return res;
  } finally {
    if (button) button.disabled = false;
  }
}

/** A short message line that replaces itself. */
export function flash(el, text, kind = "info") {
  el.textContent = text;
  el.className = `msg ${kind}`;
}

/** A request's error in words, with the hub's code (what a person can quote when asking for help). */
export function errText(res) {
  if (!res) return t("error.noAnswer");
  const code = res.e?.code ?? "error";
  const known = {
    auth: t("error.auth"),
    forbidden: t("error.forbidden"),
    offline: t("error.offline"),
    timeout: t("error.timeout"),
    "no-game": t("error.noGame"),
    "no-table": t("error.noTable"),
    "game-over": t("error.gameOver"),
    "wrong-step": t("error.wrongStep"),
    "not-your-turn": t("error.notYourTurn"),
    "already-decided": t("error.alreadyDecided"),
    "dead-player": t("error.deadPlayer"),
    "card-used": t("error.cardUsed"),
    paused: t("error.paused"),
    busy: t("error.busy"),
    locked: t("error.locked"),
  };
  // the others carry details only the hub's own message (in English) gives
  return code in known
    ? t("error.known", { what: known[code], code })
    : t("error.other", { code, msg: res.e?.msg ?? "" });
}

/** A language picker: this browser's own choice, or "auto" (the table's, else the browser's). */
export function langPicker(id) {
  return h(
    "select",
    { id, class: "lang-pick", "aria-label": t("lang.label"), onchange: (e) => setLang(e.target.value || null) },
    h("option", { value: "", selected: personalLang() === null }, t("lang.auto", { lang: LANG_NAMES[autoLang()] })),
    LANGS.map((l) => h("option", { value: l, selected: personalLang() === l, lang: l }, LANG_NAMES[l])),
  );
}
