// Setup → Connect Bluetooth guns (host only): Puck.js guns bridged onto the hub through this page.

import { linkBlocker, preloadLink } from "./espruino-link.js";
import { t } from "./i18n.js";
import { flash, h } from "./ui.js";

/**
 * Setup → "Connect Bluetooth guns" (host only): each click opens the browser's Bluetooth chooser and bridges one
 * more Puck.js gun onto the hub through this page (ble-bridge.js, loaded on first use); the list shows each one's
 * id and state. Where the page cannot use Web Bluetooth (no secure context, or a browser without it), it says why
 * and offers no button. `el` is kept across the page's redraws; `update` follows the host's rights and the language.
 */
/**
 * A bridged gun's state as the host reads it (whether the hub counts it as paired is the hub's word: its retained
 * status).
 * @param {any} link
 * @param {any} g
 */
const stateText = (link, g) =>
  g.state === "online"
    ? link.guns.get(g.id)?.paired === false
      ? t("ble.pairing")
      : t("ble.online")
    : g.state === "lost"
      ? g.needsClick
        ? t("ble.lostClick")
        : t("ble.lost")
      : t("ble.connecting");

/**
 * The guns bridged through this page: id, state, a problem, and a button to disconnect each.
 * @param {any} link
 * @param {any} guns
 * @param {any[]} rows
 */
const gunList = (link, guns, rows) =>
  h(
    "ul",
    { class: "ble-guns", id: "ble-guns" },
    rows.map((g) =>
      h(
        "li",
        { class: `ble-gun ${g.state}`, "data-gun": g.id ?? "", "data-state": g.state },
        h("strong", {}, g.id ?? t("ble.unknown")),
        " ",
        h("span", { class: "ble-state" }, stateText(link, g)),
        g.problem ? h("span", { class: "note" }, " · ", g.problem) : "",
        " ",
        h("button", { type: "button", class: "ble-drop", onclick: () => guns.remove(g) }, t("ble.disconnect")),
      ),
    ),
  );

/**
 * Why this page cannot bridge a Bluetooth gun (no secure context, no Web Bluetooth, no broker on WebSocket), or "".
 * @param {any} link
 */
function blockedWhy(link) {
  const blocker = linkBlocker("bluetooth");
  if (blocker === "insecure")
    return t("ble.insecure", { url: `http://localhost${location.port ? `:${location.port}` : ""}/#/setup` });
  if (blocker === "unsupported") return t("ble.unsupported");
  return link.facts?.ws ? "" : t("ble.noBroker");
}

export function bluetoothSection() {
  const el = h("div", { class: "ble", id: "ble" });
  const msg = h("div", { class: "msg", id: "ble-msg", role: "status" });
  let link = null;
  let guns = null;
  let busy = false;
  const redraw = () => draw();
  import("./ble-bridge.js").then(
    (m) => {
      guns = m.bluetoothGuns;
      guns.addEventListener("change", redraw);
      draw();
    },
    () => flash(msg, t("ble.noBridge"), "error"),
  );
  // the library loads before the click: the chooser must open while the click still counts
  if (!linkBlocker("bluetooth")) preloadLink();

  function draw() {
    if (!link) return;
    const host = link.isHost;
    /** @type {HTMLElement[]} */
    const out = [h("h3", {}, t("ble.title"))];
    const blocked = blockedWhy(link);
    if (blocked) out.push(h("p", { class: "warn", id: "ble-blocked" }, blocked));
    else {
      out.push(
        h(
          "p",
          {},
          h(
            "button",
            {
              id: "ble-connect",
              disabled: !host || busy || !guns,
              title: host ? t("ble.why") : t("needsPin"),
              onclick: async () => {
                busy = true;
                draw();
                flash(msg, t("ble.choosing"));
                try {
                  await guns.connect(link.facts, link);
                  flash(msg, t("ble.connected"), "ok");
                } catch (e) {
                  flash(msg, t("ble.notConnected", { why: e?.message ?? String(e) }), "error");
                }
                busy = false;
                draw();
              },
            },
            t("ble.connect"),
          ),
          " ",
          h("span", { class: "note" }, t("ble.keepOpen")),
        ),
      );
    }
    const rows = guns?.list ?? [];
    if (rows.length) out.push(gunList(link, guns, rows));
    out.push(msg);
    el.replaceChildren(...out);
  }

  return {
    el,
    update(l) {
      link = l;
      // (a click under way keeps its button)
      if (!busy) draw();
    },
    stop() {
      guns?.removeEventListener("change", redraw);
    },
  };
}
