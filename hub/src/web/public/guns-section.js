// Setup → Guns: Update firmware, and a row a gun: its seat, whether it is online, its battery (and, for the host, its
// calibration), signal, firmware and any update under way, its aim calibration, warnings, Forget.

import { lang, num, percent, t } from "./i18n.js";
import { pairingSection } from "./pairing-section.js";
import { seatCount, seatOptions } from "./players-section.js";
import { errText, flash, h, sendRequest } from "./ui.js";

/** @typedef {import("./mqtt-link.js").Link} Link */

/**
 * The pairing requests and the guns list in one box; `update(link, d)` draws them again only when what they show
 * changed: a running table's live aim rides in every table/state, and rows rebuilt ten times a second would take the
 * host's hover, focus and clicks with them.
 */
export function gunsSection() {
  const el = h("div", { class: "guns", id: "guns" });
  const msg = h("div", { class: "msg", id: "pair-msg" });
  let shown = "";
  return {
    el,
    /** @param {Link} link @param {import("./setup-draft.js").Draft} d */
    update(link, d) {
      const key = JSON.stringify([
        [...link.guns],
        [...link.cals],
        link.seats(),
        link.state?.pairing ?? null,
        link.isHost,
        d.players,
        lang(),
      ]);
      // a seat being chosen in the guns list stays open
      if (key !== shown && !(el.contains(document.activeElement) && document.activeElement?.tagName === "SELECT")) {
        shown = key;
        el.replaceChildren(...pairingSection(link, d, msg), ...gunsList(link, d, msg));
      }
    },
  };
}

/**
 * `msg` outlives each redraw (the list redraws on every gun status, an update's progress too): what an action said
 * stays on screen.
 * @param {Link} link
 * @param {import("./setup-draft.js").Draft} d
 * @param {HTMLElement} msg
 */
function gunsList(link, d, msg) {
  const nSeats = seatCount(link, d);
  const rows = [...link.guns].sort(([a], [b]) => (a < b ? -1 : 1));
  /** @type {HTMLElement[]} */
  const out = [h("h3", {}, t("guns.title")), otaButton(link, msg)];
  const table = h(
    "table",
    { class: "gun-table" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        [
          t("guns.gun"),
          t("guns.seat"),
          t("guns.online"),
          t("guns.battery"),
          t("guns.signal"),
          t("guns.firmware"),
          t("guns.calibrated"),
          t("guns.warnings"),
          "",
        ].map((x) => h("th", {}, x)),
      ),
    ),
  );
  const body = h("tbody", {});
  for (const [id, g] of rows) {
    if (g.paired || g.on) body.append(gunRow(link, d, msg, nSeats, id, g));
  }
  if (!body.children.length) body.append(h("tr", {}, h("td", { colspan: 9 }, t("guns.none"))));
  table.append(body);
  out.push(table, msg);
  return out;
}

/**
 * A gun's row: its seat (the host changes it), online, battery, signal, firmware, aim calibration, warnings, Forget.
 * @param {Link} link
 * @param {import("./setup-draft.js").Draft} d
 * @param {HTMLElement} msg
 * @param {number} nSeats
 * @param {string} id
 * @param {import("/protocol/index.js").HubGunStatusMsg} g
 */
function gunRow(link, d, msg, nSeats, id, g) {
  const host = link.isHost;
  /** @type {Partial<import("/protocol/index.js").InfoMsg>} */
  const info = g.info ?? {};
  const cal = link.cals.get(id);
  const sel = h(
    "select",
    {
      disabled: !host || !g.paired,
      "data-gun": id,
      onchange: (e) =>
        sendRequest(link, msg, "gun.seat", { gun: id, seat: e.target.value === "" ? null : Number(e.target.value) }),
    },
    seatOptions(nSeats, d.players, g.seat ?? null),
  );
  return h(
    "tr",
    { "data-gun": id, class: g.on ? "on" : "off" },
    h("td", {}, g.paired ? id : t("guns.request", { id })),
    h("td", {}, sel),
    h(
      "td",
      { class: g.on ? "on" : "off" },
      g.on ? t("guns.isOnline") : g.why ? t("guns.offlineWhy", { why: g.why }) : t("guns.offline"),
    ),
    h("td", { class: "bat" }, batteryCell(link, msg, id, g, info)),
    h("td", {}, info.rs !== undefined ? t("guns.dbm", { n: info.rs }) : "–"),
    h("td", { class: "fw" }, info.fw ?? "–", otaCell(g.ota)),
    h("td", {}, cal && typeof cal.off === "number" ? t("degrees", { n: num(cal.off, 1) }) : t("guns.no")),
    h("td", { class: "warn" }, (g.warn ?? []).join("; ")),
    h(
      "td",
      {},
      g.paired
        ? h(
            "button",
            { disabled: !host, onclick: (e) => sendRequest(link, msg, "gun.forget", { gun: id }, e.target) },
            t("guns.forget"),
          )
        : "",
    ),
  );
}

/**
 * Updates over the air: the hub sends its own firmware build to every paired gun that runs another version.
 * @param {Link} link
 * @param {HTMLElement} msg
 */
function otaButton(link, msg) {
  const host = link.isHost;
  return h(
    "p",
    { class: "ota" },
    h(
      "button",
      {
        id: "ota-update",
        disabled: !host,
        title: host ? t("ota.why") : t("needsPin"),
        onclick: async (e) => {
          e.target.disabled = true;
          const res = await link.request("guns.update", { guns: "all" });
          e.target.disabled = false;
          if (!res.ok) return flash(msg, t("msg.refused", { error: errText(res) }), "error");
          const { started, refused } = res.r;
          const lines = [
            started.length ? t("ota.started", { n: started.length, fw: started[0].fw }) : t("ota.nothing"),
            ...refused.map((x) => `${x.gun}: ${x.why}`),
          ];
          flash(msg, lines.join(" · "), started.length ? "ok" : "error");
        },
      },
      t("ota.update"),
    ),
  );
}

/** A gun's firmware update under way (a bar), or how its last one ended. */
function otaCell(p) {
  if (!p) return "";
  if (p.stage === "sending")
    return h("progress", { class: "ota-bar", max: String(p.n), value: String(p.o), title: p.why ?? p.fw });
  if (p.stage === "restarting") return h("span", { class: "note" }, " ", t("ota.restarting", { fw: p.fw }));
  if (p.stage === "failed") return h("span", { class: "warn" }, " ", t("ota.failed", { fw: p.fw, why: p.why ?? "" }));
  return "";
}

/**
 * A gun's battery: its charge and the volts it reads, or "not measured" (no divider: a power bank); for the host, the
 * one-time calibration (`gun.battery`): "full" just off the charger, or the volts a multimeter shows across the cell.
 * The volts are asked in a prompt: the list redraws on every gun status, and an input in it would lose what is typed.
 * @param {Link} link
 * @param {HTMLElement} msg
 */
function batteryCell(link, msg, id, g, info) {
  if (info.bat === undefined) return info.fw ? t("bat.none") : "–";
  const text =
    info.bv !== undefined ? t("bat.reads", { pct: percent(info.bat), v: num(info.bv, 2) }) : percent(info.bat);
  if (!link.isHost || !g.paired || !g.on || info.bv === undefined) return text;
  const said = (res) => {
    if (!res?.ok) return;
    const r = res.r;
    if (r.flash) flash(msg, t("bat.flash", { gun: id, k: r.flash.bat }), "error");
    else
      flash(msg, t("bat.done", { gun: id, v: num(r.now.bv, 2), pct: percent(r.now.bat), was: num(r.was.bv, 2) }), "ok");
  };
  return [
    text,
    " ",
    h(
      "button",
      {
        class: "bat-full",
        title: t("bat.fullWhy"),
        onclick: async (e) => said(await sendRequest(link, msg, "gun.battery", { gun: id, full: true }, e.target)),
      },
      t("bat.full"),
    ),
    h(
      "button",
      {
        class: "bat-volts",
        title: t("bat.voltsWhy"),
        onclick: async (e) => {
          const v = Number(String(window.prompt(t("bat.prompt", { gun: id })) ?? "").replace(",", "."));
          if (!(v > 0)) return;
          said(await sendRequest(link, msg, "gun.battery", { gun: id, volts: v }, e.target));
        },
      },
      t("bat.volts"),
    ),
  ];
}
