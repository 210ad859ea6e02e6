// Setup → Host devices (host only): the browsers that log in as the host with their own token, each with a Revoke
// button. A revoked device's connections close at once and it needs the PIN again.

import { t } from "./i18n.js";
import { errText, flash, h } from "./ui.js";

/** @typedef {import("./mqtt-link.js").Link} Link */

/** The section; `update(link)` lists the devices for the host (asked again when the host or the list changes). */
export function devicesSection() {
  const box = h("section", { class: "host-devices", id: "host-devices" });
  const msg = h("div", { class: "msg", id: "devices-msg", role: "status" });
  /** the host status the list was last asked for under; null: ask again */
  let askedAs = null;
  /** @param {Link} link */
  const load = async (link) => {
    const res = await link.request("devices.list");
    if (!link.isHost) return;
    if (!res.ok) {
      box.replaceChildren(h("h3", {}, t("devices.title")), msg);
      flash(msg, t("msg.refused", { error: errText(res) }), "error");
      return;
    }
    const when = (ms) => new Date(ms).toLocaleString();
    const rows = res.r.devices.map((d) =>
      h(
        "li",
        { "data-device": d.id },
        h("strong", {}, d.name),
        d.self ? h("span", { class: "note" }, ` (${t("devices.self")})`) : "",
        h("span", { class: "note" }, " ", t("devices.seen", { when: when(d.lastSeen) }), " "),
        h(
          "button",
          {
            class: "revoke",
            onclick: async (e) => {
              e.target.disabled = true;
              const r = await link.request("devices.revoke", { id: d.id });
              if (!r.ok) {
                e.target.disabled = false;
                flash(msg, t("msg.refused", { error: errText(r) }), "error");
                return;
              }
              flash(msg, t("devices.revoked", { name: d.name }), "ok");
              // revoking this very device ends its host session: the link falls back to a viewer
              if (d.self) await link.logout();
              else void load(link);
            },
          },
          t("devices.revoke"),
        ),
      ),
    );
    box.replaceChildren(
      h("h3", {}, t("devices.title")),
      h("p", { class: "note" }, t("devices.why")),
      rows.length ? h("ul", { class: "devices" }, ...rows) : h("p", { class: "note" }, t("devices.none")),
      msg,
    );
  };
  return {
    el: box,
    /** @param {Link} link @param {boolean} [again] ask the hub for the list again */
    update(link, again = false) {
      const as = link.isHost ? (link.device?.id ?? "pin") : "viewer";
      if (as === askedAs && !again) return;
      askedAs = as;
      if (!link.isHost) {
        box.replaceChildren(h("h3", {}, t("devices.title")), h("p", { class: "note" }, t("devices.hostOnly")));
        return;
      }
      void load(link);
    },
  };
}
