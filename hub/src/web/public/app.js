// The dashboard's entry: one link to the hub, routes by hash (#/table, #/setup, #/calibrate, #/host, #/games,
// #/console?seat=N&token=…), the header (connection, host lock, language), and the page's language: the table's
// (table/state `lang`) unless this browser chose its own.

import { calibratePage } from "./calibrate.js";
import { consolePage } from "./console.js";
import { gamesPage } from "./games.js";
import { hostPage } from "./host.js";
import { lang, onLangChange, setTableLang, t } from "./i18n.js";
import { Link } from "./mqtt-link.js";
import { setupPage } from "./setup.js";
import { tableView } from "./table-view.js";
import { h, langPicker, s } from "./ui.js";
import { Voice } from "./voice.js";

const ROUTES = {
  table: tableView,
  setup: setupPage,
  calibrate: calibratePage,
  host: hostPage,
  games: gamesPage,
  console: consolePage,
};

function parseHash() {
  const raw = location.hash.replace(/^#\/?/, "");
  const [path, query] = raw.split("?");
  const name = path && path in ROUTES ? path : "table";
  return { name, params: new URLSearchParams(query ?? "") };
}

const link = new Link();
window.cng = { link };
// the page's fixed frame (index.html)
const main = /** @type {HTMLElement} */ (document.getElementById("view"));
const conn = /** @type {HTMLElement} */ (document.getElementById("conn"));
const lock = /** @type {HTMLAnchorElement} */ (document.getElementById("lock"));
const title = /** @type {HTMLElement} */ (document.querySelector("header h1"));
const bar = /** @type {HTMLElement} */ (document.querySelector("header"));
// on a phone the header folds its pages, lock and language into a menu (style.css)
const menu = /** @type {HTMLButtonElement} */ (document.getElementById("menu"));
const openMenu = (open) => {
  bar.classList.toggle("open", open);
  menu.setAttribute("aria-expanded", String(open));
};
menu.addEventListener("click", () => openMenu(!bar.classList.contains("open")));
let picker = null;
let sound = null;
const first = parseHash();
const isConsole = first.name === "console";
let unmount = () => {};

function route() {
  const { name, params } = parseHash();
  if ((name === "console") !== isConsole) {
    location.reload();
    return;
  }
  unmount();
  openMenu(false);
  document.body.dataset.route = name;
  for (const a of document.querySelectorAll("nav a"))
    a.classList.toggle("here", a.getAttribute("href") === `#/${name}`);
  unmount = ROUTES[name](main, link, params) ?? (() => {});
}

function header() {
  conn.textContent = link.status;
  conn.className = link.connected ? "live" : "down";
  if (lock) {
    lock.textContent = link.isHost ? t("header.host") : t("header.viewer");
    lock.className = link.isHost ? "host" : "viewer";
  }
}

/** The page's fixed words (index.html holds English ones until this runs). */
function words() {
  document.documentElement.lang = lang();
  document.title = t("header.title");
  title.textContent = t("header.title");
  menu.setAttribute("aria-label", t("header.menu"));
  const nav = {
    "#/table": t("nav.table"),
    "#/setup": t("nav.setup"),
    "#/calibrate": t("nav.calibrate"),
    "#/host": t("nav.host"),
    "#/games": t("nav.scores"),
  };
  for (const a of document.querySelectorAll("nav a")) a.textContent = nav[a.getAttribute("href")] ?? a.textContent;
  const next = langPicker("lang-pick");
  if (picker) picker.replaceWith(next);
  else conn.after(next);
  picker = next;
  if (voice) {
    const controls = voiceControls(voice);
    if (sound) sound.replaceWith(controls);
    else picker.after(controls);
    sound = controls;
  }
}

/** The table's voice: mute and volume, kept in this browser. */
function voiceControls(v) {
  const button = h("button", { id: "voice-mute", type: "button", class: "voice-mute" });
  // a speaker drawn, not an emoji: not every machine has an emoji font
  const icon = (muted) =>
    s(
      "svg",
      { viewBox: "0 0 24 24", width: 18, height: 18, "aria-hidden": "true" },
      s("path", { d: "M3 9h4l5-4v14l-5-4H3z", fill: "currentColor" }),
      muted
        ? s("path", { d: "M16 9l6 6M22 9l-6 6", stroke: "currentColor", "stroke-width": 2 })
        : s("path", {
            d: "M16 8a5 5 0 0 1 0 8M18.5 5.5a8.5 8.5 0 0 1 0 13",
            stroke: "currentColor",
            fill: "none",
            "stroke-width": 2,
          }),
    );
  const show = () => {
    button.replaceChildren(icon(v.muted));
    button.title = v.muted ? t("voice.unmute") : t("voice.mute");
    button.setAttribute("aria-pressed", String(v.muted));
  };
  button.addEventListener("click", () => {
    v.setMuted(!v.muted);
    show();
  });
  show();
  const slider = h("input", {
    id: "voice-volume",
    type: "range",
    min: "0",
    max: "1",
    step: "0.05",
    value: String(v.volume),
    "aria-label": t("voice.volume"),
    oninput: (e) => v.setVolume(Number(e.target.value)),
  });
  const note = v.engine === "browser" ? h("span", { class: "note", title: t("voice.browser") }, " *") : null;
  return h("span", { class: "voice", id: "voice" }, button, slider, note);
}

// registered before any view's listener: the language is settled before a view draws a new state
link.addEventListener("change", (/** @type {CustomEvent} */ e) => {
  if (e.detail === "state") setTableLang(link.state?.lang ?? null);
  if (e.detail === "link" || e.detail === "state") header();
});
onLangChange(() => {
  words();
  header();
  link.changed("lang");
});

// the voice speaks on the table's screen, not on the players' phones
const voice = isConsole ? null : new Voice(link);
if (voice) {
  voice.start();
  link.addEventListener("change", (/** @type {CustomEvent} */ e) => {
    if (e.detail === "link") words();
  });
}

if (isConsole) {
  document.body.classList.add("console");
  const seat = Number(first.params.get("seat"));
  const token = first.params.get("token") ?? "";
  link.start({ seat, token });
} else link.start();
window.addEventListener("hashchange", route);
words();
route();
header();
