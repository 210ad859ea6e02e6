// Setup → the table's language (table.lang, host only): what every page without its own choice reads.

import { LANG_NAMES, LANGS, lang, t } from "./i18n.js";
import { h, sendRequest } from "./ui.js";

/** @typedef {import("./mqtt-link.js").Link} Link */

/** The section; `update(link)` draws it again when the table's language, the host's rights or the page's language
 * changed, unless the choice is open. */
export function langSection() {
  const el = h("div", { class: "table-lang", id: "table-lang" });
  const msg = h("div", { class: "msg", id: "lang-msg", role: "status" });
  let shown = "";
  return {
    el,
    /** @param {Link} link */
    update(link) {
      const key = JSON.stringify([link.state?.lang ?? null, link.isHost, lang()]);
      if (key !== shown && !el.contains(document.activeElement)) {
        shown = key;
        el.replaceChildren(...tableLangField(link, msg));
      }
    },
  };
}

/**
 * The heading, the choice, and `msg` (kept across redraws: what the hub answered stays).
 * @param {Link} link
 * @param {HTMLElement} msg
 */
function tableLangField(link, msg) {
  const host = link.isHost;
  const sel = h(
    "select",
    {
      id: "setup-lang",
      disabled: !host,
      title: host ? "" : t("needsPin"),
      onchange: (e) => sendRequest(link, msg, "table.lang", { lang: e.target.value || null }),
    },
    h("option", { value: "", selected: !link.state?.lang }, t("setup.langEach")),
    LANGS.map((l) => h("option", { value: l, selected: link.state?.lang === l, lang: l }, LANG_NAMES[l])),
  );
  return [h("h3", {}, t("setup.langTitle")), h("label", { class: "field" }, h("span", {}, t("setup.lang")), sel), msg];
}
