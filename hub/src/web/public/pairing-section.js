// Setup → Pairing requests: each gun waiting to be paired, with the seat it would take, Accept and Reject; and
// pairing by pulling, a button a seat.

import { seatColour } from "/protocol/index.js";
import { t } from "./i18n.js";
import { seatCount, seatLabel, seatOptions } from "./players-section.js";
import { css, h, sendRequest } from "./ui.js";

/**
 * Drawn again with the guns list, in its box (guns-section.js); `msg` is the box's, kept across redraws.
 * @param {import("./mqtt-link.js").Link} link
 * @param {import("./setup-draft.js").Draft} d
 * @param {HTMLElement} msg
 */
export function pairingSection(link, d, msg) {
  const nSeats = seatCount(link, d);
  const host = link.isHost;
  const rows = [...link.guns].sort(([a], [b]) => (a < b ? -1 : 1));
  const requests = rows.filter(([, g]) => !g.paired && g.on);
  const out = [h("h3", {}, t("pair.requests"))];
  if (requests.length === 0) out.push(h("p", { class: "note" }, t("pair.none")));
  for (const [id] of requests) {
    // the next free seat by default
    const used = new Set(rows.filter(([, g]) => g.paired && g.seat !== null).map(([, g]) => g.seat));
    let free = 0;
    while (used.has(free)) free++;
    const sel = h("select", { "data-gun": id }, seatOptions(nSeats, d.players, free < nSeats ? free : null));
    out.push(
      h(
        "div",
        { class: "pair-req", "data-gun": id },
        h("strong", {}, id),
        " → ",
        sel,
        h(
          "button",
          {
            class: "primary",
            disabled: !host,
            title: host ? "" : t("needsPin"),
            onclick: (e) =>
              sendRequest(
                link,
                msg,
                "pair.accept",
                sel.value === "" ? { gun: id } : { gun: id, seat: Number(sel.value) },
                e.target,
              ),
          },
          t("pair.accept"),
        ),
        h(
          "button",
          { disabled: !host, onclick: (e) => sendRequest(link, msg, "pair.reject", { gun: id }, e.target) },
          t("pair.reject"),
        ),
      ),
    );
  }
  out.push(pullButtons(link, d, msg, nSeats));
  return out;
}

/**
 * Pairing by pulling: the seat lights here, its player pulls the trigger of the new gun.
 * @param {import("./mqtt-link.js").Link} link
 * @param {import("./setup-draft.js").Draft} d
 * @param {HTMLElement} msg
 * @param {number} nSeats
 */
function pullButtons(link, d, msg, nSeats) {
  const host = link.isHost;
  const listening = link.state?.pairing ?? null;
  return h(
    "div",
    { class: "pair-pull", id: "pair-pull" },
    h("strong", {}, t("pair.byPulling"), " "),
    Array.from({ length: nSeats }, (_, i) =>
      listening?.seat === i
        ? h(
            "button",
            {
              class: "primary lit",
              id: `pull-seat-${i}`,
              style: `outline: 3px solid ${css(seatColour(i))}`,
              disabled: !host,
              onclick: (e) => sendRequest(link, msg, "pair.listen", { seat: null }, e.target),
            },
            t("pair.lit", { n: i + 1 }),
          )
        : h(
            "button",
            {
              id: `pull-seat-${i}`,
              style: `border-left: 6px solid ${css(seatColour(i))}`,
              disabled: !host,
              title: host ? t("pair.pullWhy") : t("needsPin"),
              onclick: (e) => sendRequest(link, msg, "pair.listen", { seat: i }, e.target),
            },
            seatLabel(i, d.players[i]),
          ),
    ),
  );
}
