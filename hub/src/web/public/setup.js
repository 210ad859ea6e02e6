// #/setup: players and seats, table shape, edition and options, secrets (cards, consoles, bots), pairing guns to
// seats and gun health. The form shows the running game, else the draft kept in this browser; it is built again
// only for a new language (what is typed stays). The table's language and the guns list follow the hub live.
// Each section is a module of its own; this one lays them out and redraws each when what it shows changes.

import { bluetoothSection } from "./bluetooth-section.js";
import { devicesSection } from "./devices-section.js";
import { flashSection } from "./flash-page.js";
import { gunsSection } from "./guns-section.js";
import { t } from "./i18n.js";
import { langSection } from "./lang-section.js";
import { optionsSection } from "./options-section.js";
import { playersSection } from "./players-section.js";
import { fromGame, gameArgs, loadDraft, saveDraft } from "./setup-draft.js";
import { errText, flash, h, onLinkChange } from "./ui.js";

/** @typedef {import("./mqtt-link.js").Link} Link */
/** @typedef {import("./setup-draft.js").Draft} Draft */

/** @param {Link} link */
export function setupPage(root, link) {
  let d = fromGame(loadDraft(), link.state?.game);
  let shownGame = link.state?.id ?? null;
  // once the form is touched, a game starting elsewhere does not overwrite it
  let touched = false;
  const save = () => {
    touched = true;
    saveDraft(d);
  };
  const msg = h("div", { class: "msg", id: "setup-msg", role: "status" });
  // the table's language and the guns list follow the hub, each drawn again only when what it shows changed
  const tableLang = langSection();
  const guns = gunsSection();
  let start = null;
  // Flash a gun over USB (host only): its own section, kept across redraws (a flash under way goes on)
  const flasher = flashSection();
  // Connect Bluetooth guns (host only): its own section too; the guns it bridges outlive the page (ble-bridge.js)
  const bluetooth = bluetoothSection();
  // Host devices (host only): who logs in as the host with a token, and Revoke
  const devices = devicesSection();

  const build = () => {
    const made = gameForm(link, d, save, msg);
    start = made.start;
    root.replaceChildren(
      h(
        "div",
        { class: "page setup-page" },
        h("h2", {}, t("setup.title")),
        h(
          "div",
          { class: "cols" },
          h("section", {}, tableLang.el, made.form),
          h("section", {}, guns.el, bluetooth.el, flasher.el, devices.el),
        ),
      ),
    );
  };

  const drawLive = () => {
    start.disabled = !link.isHost;
    start.title = link.isHost ? "" : t("needsPin");
    tableLang.update(link);
    guns.update(link, d);
    flasher.update(link);
    bluetooth.update(link);
    devices.update(link);
  };
  const onChange = (e) => {
    if (e.detail === "aim") return;
    const id = link.state?.id ?? null;
    const prefill = id !== shownGame && !touched && link.state?.game;
    shownGame = id;
    if (prefill) d = fromGame(d, prefill);
    if (e.detail === "lang") {
      flasher.update(link, true);
      devices.update(link, true);
    }
    if (prefill || e.detail === "lang") build();
    drawLive();
  };
  const off = onLinkChange(link, onChange);
  build();
  drawLive();
  return () => {
    off();
    bluetooth.stop();
  };
}

/**
 * The form: the players, the options, Start (game.new) and what it says; built again with the page.
 * @param {Link} link
 * @param {Draft} d
 * @param {() => void} save
 * @param {HTMLElement} msg
 */
function gameForm(link, d, save, msg) {
  const start = h("button", { class: "primary", id: "new-game", type: "submit" }, t("setup.start"));
  const form = h(
    "form",
    {
      class: "setup-form",
      onsubmit: async (e) => {
        e.preventDefault();
        const a = gameArgs(d);
        if (typeof a === "string") return flash(msg, a, "error");
        start.disabled = true;
        flash(msg, t("setup.starting"));
        const res = await link.request("game.new", a);
        start.disabled = !link.isHost;
        if (res.ok) {
          flash(msg, t("setup.started", { id: String(res.r.game) }), "ok");
          location.hash = "#/table";
        } else flash(msg, t("msg.refused", { error: errText(res) }), "error");
      },
    },
    ...playersSection(d, save),
    ...optionsSection(d, save),
    start,
    msg,
  );
  return { form, start };
}
