// The dashboard's entry: one link to the hub, routes by hash (#/table, #/setup, #/calibrate, #/host, #/games,
// #/console?seat=N&token=…), and the header (connection, host lock).

import { calibratePage } from "./calibrate.js";
import { consolePage } from "./console.js";
import { gamesPage } from "./games.js";
import { hostPage } from "./host.js";
import { Link } from "./mqtt-link.js";
import { setupPage } from "./setup.js";
import { tableView } from "./table-view.js";

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
const main = document.getElementById("view");
const conn = document.getElementById("conn");
const lock = document.getElementById("lock");
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
  document.body.dataset.route = name;
  for (const a of document.querySelectorAll("nav a"))
    a.classList.toggle("here", a.getAttribute("href") === `#/${name}`);
  unmount = ROUTES[name](main, link, params) ?? (() => {});
}

function header() {
  conn.textContent = link.status;
  conn.className = link.connected ? "live" : "down";
  if (lock) {
    lock.textContent = link.isHost ? "host (unlocked)" : "viewer (locked)";
    lock.className = link.isHost ? "host" : "viewer";
  }
}

link.addEventListener("change", (e) => {
  if (e.detail === "link" || e.detail === "state") header();
});

if (isConsole) {
  document.body.classList.add("console");
  const seat = Number(first.params.get("seat"));
  const token = first.params.get("token") ?? "";
  link.start({ seat, token });
} else link.start();
window.addEventListener("hashchange", route);
route();
header();
