// Setup → Players: a row a seat (its colour, its player's name, Remove) and Add player; and how the guns' lists name
// and offer the seats.

import { seatColour } from "/protocol/index.js";
import { t } from "./i18n.js";
import { colourName, css, h } from "./ui.js";

/** @typedef {import("./mqtt-link.js").Link} Link */
/** @typedef {import("./setup-draft.js").Draft} Draft */

/**
 * The heading, the list and Add player, for the form; each edit goes into `d`, then `save`.
 * @param {Draft} d
 * @param {() => void} save
 */
export function playersSection(d, save) {
  const playersBox = h("ol", { class: "players" });
  const drawPlayers = () => {
    playersBox.replaceChildren(
      ...d.players.map((name, i) =>
        h(
          "li",
          {},
          h("span", { class: "swatch", style: `background:${css(seatColour(i))}` }),
          h("input", {
            value: name,
            "aria-label": t("setup.playerAt", { n: i + 1 }),
            "data-seat": i,
            oninput: (e) => {
              d.players[i] = e.target.value;
              save();
            },
          }),
          h("span", { class: "note" }, " ", t("setup.seatColour", { n: i + 1, colour: colourName(i) })),
          h(
            "button",
            {
              type: "button",
              disabled: d.players.length <= 3,
              onclick: () => {
                d.players.splice(i, 1);
                save();
                drawPlayers();
              },
            },
            t("setup.remove"),
          ),
        ),
      ),
    );
  };
  drawPlayers();
  return [
    h("h3", {}, t("setup.players")),
    playersBox,
    h(
      "button",
      {
        type: "button",
        id: "add-player",
        onclick: () => {
          if (d.players.length >= 8) return;
          d.players.push(t("setup.newPlayer", { n: d.players.length + 1 }));
          save();
          drawPlayers();
        },
      },
      t("setup.addPlayer"),
    ),
  ];
}

/**
 * How many seats the guns' lists offer: the form's players or the table's seats, whichever are more.
 * @param {Link} link
 * @param {Draft} d
 */
export const seatCount = (link, d) => Math.max(d.players.length, link.seats().length);

/**
 * "seat 3 · Cid": seats counted from 1 for people (the option values stay the hub's, from 0).
 * @param {number} i
 * @param {string | undefined} name
 */
export const seatLabel = (i, name) => (name ? t("seat.nNamed", { n: i + 1, name }) : t("seat.n", { n: i + 1 }));

/**
 * A seat chooser's options: no seat, then each of `nSeats`, `sel` selected.
 * @param {number} nSeats
 * @param {string[]} players
 * @param {number | null} sel
 */
export const seatOptions = (nSeats, players, sel) =>
  [h("option", { value: "", selected: sel === null }, t("setup.noSeat"))].concat(
    Array.from({ length: nSeats }, (_, i) =>
      h("option", { value: String(i), selected: sel === i }, seatLabel(i, players[i])),
    ),
  );
