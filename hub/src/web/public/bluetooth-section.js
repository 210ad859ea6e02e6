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

  // (whether the hub counts it as paired is the hub's word: its retained status)
  const stateText = (g) =>
    g.state === "online"
      ? link.guns.get(g.id)?.paired === false
        ? t("ble.pairing")
        : t("ble.online")
      : g.state === "lost"
        ? g.needsClick
          ? t("ble.lostClick")
          : t("ble.lost")
        : t("ble.connecting");

  function draw() {
    if (!link) return;
    const host = link.isHost;
    /** @type {HTMLElement[]} */
    const out = [h("h3", {}, t("ble.title"))];
    const blocker = linkBlocker("bluetooth");
    if (blocker === "insecure") {
      const url = `http://localhost${location.port ? `:${location.port}` : ""}/#/setup`;
      out.push(h("p", { class: "warn", id: "ble-blocked" }, t("ble.insecure", { url })));
    } else if (blocker === "unsupported") {
      out.push(h("p", { class: "warn", id: "ble-blocked" }, t("ble.unsupported")));
    } else if (!link.facts?.ws) {
      out.push(h("p", { class: "warn", id: "ble-blocked" }, t("ble.noBroker")));
    } else {
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
    if (rows.length) {
      out.push(
        h(
          "ul",
          { class: "ble-guns", id: "ble-guns" },
          rows.map((g) =>
            h(
              "li",
              { class: `ble-gun ${g.state}`, "data-gun": g.id ?? "", "data-state": g.state },
              h("strong", {}, g.id ?? t("ble.unknown")),
              " ",
              h("span", { class: "ble-state" }, stateText(g)),
              g.problem ? h("span", { class: "note" }, " · ", g.problem) : "",
              " ",
              h("button", { type: "button", class: "ble-drop", onclick: () => guns.remove(g) }, t("ble.disconnect")),
            ),
          ),
        ),
      );
    }
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
